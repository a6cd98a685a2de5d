"""Every task of the shipped suites still runs cleanly in the world it plays on.

The world changes under the suites (real time-zone rules, 404s for records that do
not exist), so their stored responses may differ from the simulator's until a suite
is rebuilt; what must never happen is a reference path that no longer runs: a
stated meeting the calendar does not hold, a sheet id the episode never made. Each
task runs on its suite's world edition (``task_simulator``), as its episodes do: the
catalogue of edition 3 has no doubled-word products, so v1's SKUs are edition 1's.
"""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.tasks.execution import ExecutionError, execute
from toolmaze_gym.tasks.suite import V1_NAME, load_suite
from toolmaze_gym.tasks.suite_v2 import SUITE_NAME as V2_NAME
from toolmaze_gym.tasks.suites import task_simulator


def _failures(sim: Simulator, name: str, every_path: bool) -> list[tuple[str, str]]:
    bad = []
    for task in load_suite(name):
        for path in task.solutions if every_path else [task.default_path]:
            try:
                calls = execute(task_simulator(task, sim), task.slots, path.choice)
            except ExecutionError as exc:
                bad.append((task.id, str(exc)[:300]))
                continue
            if [c.tool for c in calls] != [c.tool for c in path.calls]:
                bad.append((task.id, "another chain of tools ran"))
    return bad


def test_every_v2_task_runs_its_default_path_cleanly(sim):
    assert _failures(sim, V2_NAME, every_path=False) == []


@pytest.mark.parametrize("name", [V1_NAME, V2_NAME])
def test_every_path_of_every_shipped_task_runs_cleanly(sim, name):
    assert _failures(sim, name, every_path=True) == []
