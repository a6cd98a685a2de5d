"""CPU thread set-up for local models, checked in fresh interpreters (it must act
before torch is imported, which this test process may already have done)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SNIPPET = """
import json, os
from toolmaze_gym.agents.threads import configure_cpu_threads
n = configure_cpu_threads()
import torch
print(json.dumps({"n": n, "torch": torch.get_num_threads(),
                  "wait": os.environ.get("OMP_WAIT_POLICY")}))
"""


def _run(env: dict[str, str]) -> dict:
    pytest.importorskip("torch")
    base = {k: v for k, v in os.environ.items()
            if k not in ("OMP_WAIT_POLICY", "OMP_NUM_THREADS", "TOOLMAZE_THREADS")}
    out = subprocess.run([sys.executable, "-c", SNIPPET], env={**base, **env},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_passive_wait_and_thread_count_reach_torch():
    got = _run({"TOOLMAZE_THREADS": "1"})
    assert got == {"n": 1, "torch": 1, "wait": "PASSIVE"}


def test_a_users_wait_policy_is_kept():
    assert _run({"OMP_WAIT_POLICY": "ACTIVE", "TOOLMAZE_THREADS": "1"})["wait"] == "ACTIVE"


def test_default_is_the_usable_cores():
    from toolmaze_gym.agents.threads import cpu_count

    assert _run({})["n"] == cpu_count()


def test_bad_thread_counts_are_refused(monkeypatch):
    from toolmaze_gym.agents.threads import configure_cpu_threads

    monkeypatch.setenv("TOOLMAZE_THREADS", "many")
    with pytest.raises(ValueError, match=r"\$TOOLMAZE_THREADS must be a positive integer"):
        configure_cpu_threads()
    with pytest.raises(ValueError, match="threads must be a positive integer, got '0'"):
        configure_cpu_threads(0)
