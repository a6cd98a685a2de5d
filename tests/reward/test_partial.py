"""Partial credit: it ranks partial progress below any success and cannot be farmed."""

from __future__ import annotations

import pytest
from toolmaze_gym.reward import PARTIAL, partial_reward, path_progress, terminal_reward

FAILED = {"success": False, "exposed": False, "recovered": None, "c_rec": 0.0}
SUCCEEDED = {**FAILED, "success": True}


def test_no_partial_credit_outranks_a_success():
    best_failure = partial_reward(FAILED, valid=5.0, progress=3.0, named=2.0)  # clamped to 1
    assert best_failure == pytest.approx(PARTIAL.named + PARTIAL.valid + PARTIAL.progress)
    assert best_failure < terminal_reward(SUCCEEDED) <= partial_reward(SUCCEEDED, 0.0, 0.0)


def test_credit_grows_with_valid_calls_and_progress():
    assert partial_reward(FAILED, 0.0, 0.0) == 0.0
    assert partial_reward(FAILED, 0.5, 0.0) < partial_reward(FAILED, 1.0, 0.0) \
        < partial_reward(FAILED, 1.0, 0.5)
    assert 0.0 < partial_reward(FAILED, 0.0, 0.0, named=0.5) < partial_reward(FAILED, 0.0, 0.0,
                                                                            named=1.0)


def test_progress_counts_the_calls_along_a_valid_path():
    from toolmaze_gym.envs.env import ToolMazeEnv

    from toolmaze_gym.grading import remaining_optimal
    from toolmaze_gym.tasks.suites import generate_split
    from toolmaze_gym.training.careful import CarefulAgent
    from toolmaze_gym.training.sft_data import play

    task = next(iter(generate_split("train", 1, seed=3, levels=["C2"])))
    env = ToolMazeEnv(level=None, mode=None, split="train")
    play(env, CarefulAgent(env.sim), task, "P0")
    ep = env.episode
    start = remaining_optimal(env.sim.corpus, task, ep.profile, [])
    calls = [s for s in ep.steps if s.kind == "call"]
    # the expert walks a shortest path: its calls, then the ending (one step of cost)
    assert start >= 3 and len(calls) == start - 1 and ep.steps[-1].kind == "finish"
    progress = [path_progress(env.sim.corpus, task, ep.profile, ep.steps[:k])
                for k in range(len(ep.steps) + 1)]
    assert progress == pytest.approx([k / start for k in range(start)] + [(start - 1) / start])
    env.reset(options={"task": task, "mode": "P0"})
    env.step('{"name": "finish", "arguments": {"answer": "done"}}')
    assert path_progress(env.sim.corpus, task, env.episode.profile, env.episode.steps) == 0.0
