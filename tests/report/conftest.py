"""Small real runs (scripted agents, both prompts) shared by the report tests."""

from __future__ import annotations

import pytest

from toolmaze_gym.runner import RunConfig, Selection, read_records, run

AGENTS = ("validator", "naive")
SELECTION = Selection(levels=["C1", "C3"], limit=2, prompts=["standard", "failure_aware"])


@pytest.fixture(scope="session")
def run_dirs(tmp_path_factory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("runs")
    out = {}
    for agent in AGENTS:
        run(RunConfig(agent, selection=SELECTION), root / agent, progress=False)
        out[agent] = root / agent
    return out


@pytest.fixture(scope="session")
def records(run_dirs) -> dict[str, list[dict]]:
    return {agent: read_records(d) for agent, d in run_dirs.items()}
