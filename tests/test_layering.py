"""Dependencies point one way (docs/architecture.md): checked in fresh interpreters."""

from __future__ import annotations

import subprocess
import sys

import pytest

# The package's __init__ loads envs.registration (string entry points, gymnasium only)
# so that ``import toolmaze_gym`` registers the ids; the env classes are what count.
ENV = ["toolmaze_gym.envs.env", "toolmaze_gym.envs.pool", "toolmaze_gym.envs.wrappers",
       "toolmaze_gym.envs.spaces"]
# module -> package prefixes it must never load
RULES = {
    "toolmaze_gym.world": ["toolmaze_gym.corpus", "toolmaze_gym.tasks"],
    "toolmaze_gym.corpus": ["toolmaze_gym.tasks", "toolmaze_gym.faults"],
    "toolmaze_gym.tasks.suite": ["toolmaze_gym.faults", "toolmaze_gym.grading"],
    "toolmaze_gym.grading": [*ENV, "toolmaze_gym.agents"],
    "toolmaze_gym.metrics": [*ENV, "toolmaze_gym.agents"],
    "toolmaze_gym.reward": [*ENV, "toolmaze_gym.agents"],
    "toolmaze_gym.envs.env": ["toolmaze_gym.agents"],
}
PROBE = ("import sys, importlib; importlib.import_module({mod!r}); "
         "print('\\n'.join(m for m in sys.modules if m.startswith('toolmaze_gym')))")


@pytest.mark.parametrize("module", sorted(RULES))
def test_module_does_not_reach_upwards(module):
    out = subprocess.run([sys.executable, "-c", PROBE.format(mod=module)], capture_output=True,
                         text=True, check=True).stdout.split()
    loaded = [m for m in out if any(m.startswith(p) for p in RULES[module])]
    assert not loaded, f"{module} loads {loaded}"
