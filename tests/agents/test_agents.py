"""The agent interface, and baselines that cannot earn what they did not do."""

from __future__ import annotations

import pytest

from toolmaze_gym.agents import BASELINES, make_scripted
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.suite import load_suite


def test_every_baseline_is_constructible(sim):
    for name in BASELINES:
        assert make_scripted(name, sim).name == name
    with pytest.raises(ValueError, match="unknown scripted agent"):
        make_scripted("genius", sim)


def test_random_agent_is_graded_and_never_succeeds(sim):
    tasks = [t for lv in ("C1", "C2", "C3", "C4")
             for t in [t for t in load_suite() if t.level == lv][:3]]
    records = [rollout(t, m, make_scripted("random", sim), sim) for t in tasks
               for m in MODE_NAMES]
    assert all(r["grade"]["version"] and r["steps"] for r in records)
    assert not any(r["grade"]["success"] for r in records)
    again = [rollout(t, m, make_scripted("random", sim), sim) for t in tasks[:2]
             for m in MODE_NAMES]
    assert again == records[: len(again)]  # seeded: the same calls every time
