"""get_flight_status returns the scheduled arrival search_flights already gave (v4 c3-0046,
issue 28 item 5), so a careful agent may skip the status call: no fault may wait there.

Where the status call is a step of its own, the placement rule calls it skippable and no
victim goes there. Where it sits behind the search in one step (search -> status), a
fault falls on the first of the step's tools the agent calls, the search, which every
careful way makes: the status call may be skipped, the fault is met all the same."""

from __future__ import annotations

from functools import cache

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults import FAULT_MODES
from toolmaze_gym.faults.skippable import AT_HAND, misplaced_victims, skip_reasons
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.tasks.suite import get_task

STATUS = "get_flight_status"


@cache
def sim() -> Simulator:
    return Simulator()


def _shipped(task_id: str) -> list:
    profiles = shipped_profiles(task_id.split("-c")[0].replace("tmz-", "toolmaze-"))
    return [profiles[(task_id, m)] for m in FAULT_MODES]


def test_a_flight_status_step_of_its_own_is_skippable_and_no_victim():
    task = get_task("tmz-v5-c2-0046")
    slot = next(c.slot for c in task.default_path.calls if c.tool == STATUS)
    assert skip_reasons(task, sim(), implicit=True)[slot] == AT_HAND
    assert skip_reasons(task, sim())[slot] == AT_HAND
    victims = {v.slot for p in _shipped(task.id) for v in p.victims}
    assert slot not in victims


@pytest.mark.parametrize("task_id", ["tmz-v4-c3-0046", "tmz-v5-c3-0034", "tmz-v5-c4-0039"])
def test_a_status_behind_its_search_is_met_through_the_search(task_id):
    task = get_task(task_id)
    calls = task.default_path.calls
    slot = next(c.slot for c in calls if c.tool == STATUS)
    first = next(c.tool for c in calls if c.slot == slot)
    assert first != STATUS  # the search comes first in the step
    for p in _shipped(task_id):
        for v in p.victims:
            if v.slot == slot:
                assert first in v.tools, (p.mode, v.tools)
    assert misplaced_victims(task, _shipped(task_id), sim()) == []
