"""Whole-suite rollouts of the scripted agents, made once per test session."""

from __future__ import annotations

import pytest

from tests.agents._fake_endpoint import endpoint  # noqa: F401  (a fixture: the stub server)
from toolmaze_gym.agents import make_scripted
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.faults.store import suite_with_profiles
from toolmaze_gym.rollout import rollout


@pytest.fixture(scope="session")
def suite():
    return suite_with_profiles()


@pytest.fixture(scope="session")
def suite_run(sim, suite):
    """``suite_run(agent)``: the 2,000 records of one agent (all tasks × P0–P4)."""
    cache: dict[str, list[dict]] = {}

    def run(agent: str) -> list[dict]:
        if agent not in cache:
            cache[agent] = [rollout(task, mode, make_scripted(agent, sim), sim, ps[mode])
                            for task, ps in suite for mode in MODE_NAMES]
        return cache[agent]

    return run
