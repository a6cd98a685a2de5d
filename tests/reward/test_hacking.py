"""Reward hacking must not pay, and shaping must not change that.

Hack policies (``toolmaze_gym.agents.hacks``: they read the task's plan, as the scripted
baselines do, but not the tool responses, or only to loop): abort at once, call every
shown tool, retry forever, and replay the default path's recorded calls verbatim. In
every (C, P) cell each earns less mean reward than the ``validator`` baseline (the
replay only where faults exist: with no fault it is the correct plan)."""

from __future__ import annotations

import json
from statistics import mean
from typing import Any

import gymnasium as gym
import pytest
from toolmaze_gym.reward import RewardConfig, potential, shaping_term

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.agents import make_scripted
from toolmaze_gym.agents.hacks import make_hack
from toolmaze_gym.faults import FAULT_MODES, MODE_NAMES
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import load_suite

PER_CELL = 12
MARGIN = 0.1


def _call(name: str, args: dict[str, Any]) -> str:
    return json.dumps({"name": name, "arguments": args})


FINISH = _call("finish", {"answer": "done"})
# The hack policies (toolmaze_gym.agents.hacks; finish_at_once is abort_at_once's twin
# and is ranked in test_ranking.py).
HACKS = ("abort_at_once", "every_tool", "retry_forever", "replay")


def episode_return(env, task_id: str, policy: str) -> tuple[float, dict, list[float]]:
    _, info = env.reset(seed=0, options={"task_id": task_id})
    base = env.unwrapped
    if policy == "validator":
        agent = make_scripted("validator", base.sim)
        agent.reset(base.episode.task, info["tools"], info["mode"])

        def act(k):
            return agent.act(base.messages)
    else:
        hack = make_hack(policy)
        hack.reset(base.episode.task, info["tools"], info["mode"])

        def act(k):
            return hack.act(base.messages)
    rewards, k, done = [], 0, False
    while not done:
        _, r, te, tr, inf = env.step(act(k))
        rewards.append(r)
        k += 1
        done = te or tr
    return sum(rewards), inf["grade"], rewards


def _cell_tasks(level: str) -> list[str]:
    tasks = [t.id for t in load_suite(levels=[level])]
    return tasks[:: len(tasks) // PER_CELL][:PER_CELL]


def _cell_means(level: str, mode: str, reward: RewardConfig | None = None,
                n: int = PER_CELL) -> dict[str, float]:
    env = gym.make(f"ToolMaze-{level}{mode}-v0", reward=reward)
    tasks = _cell_tasks(level)[:n]
    return {p: mean(episode_return(env, t, p)[0] for t in tasks)
            for p in ["validator", *HACKS]}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", MODE_NAMES)
def test_hacks_earn_less_than_validator(level, mode):
    means = _cell_means(level, mode)
    for hack in ("abort_at_once", "every_tool", "retry_forever"):
        assert means[hack] < means["validator"] - MARGIN, (hack, means)
    if mode in FAULT_MODES:
        assert means["replay"] < means["validator"] - MARGIN, means
    else:
        # without faults, replaying the plan is the plan: it may match, never beat
        assert means["replay"] <= means["validator"] + 1e-9, means


def test_hacks_do_not_succeed():
    """Beyond means: none of the hacks completes a faulted task by luck of the grader.

    ``every_tool`` and ``replay`` are left out here: both send the plan's own
    arguments, so where another response had already shown the agent the clean value
    (a contact lookup that gave the phone number the faulted one was to give), they
    have done the user's task (grading v4 judges the outcome, not the route); their
    means still have to stay below the validator's (above)."""
    env = gym.make("ToolMaze-C3P3-v0")
    for t in _cell_tasks("C3"):
        for hack in ("abort_at_once", "retry_forever"):
            _, g, _ = episode_return(env, t, hack)
            assert not g["success"], (t, hack, g)


@pytest.mark.parametrize("gamma", [1.0, 0.9])
@pytest.mark.parametrize("cell", ["C1P2", "C2P3", "C4P1"])
def test_shaping_telescopes_to_nothing(cell, gamma):
    """Σ γ^t r_t = γ^(T−1)·terminal: Φ is measured from the start (Φ(start) = 0) and is 0
    once the episode is over, however it ended, so shaping never changes a return; each
    step's term is the pure ``shaping_term``."""
    cfg = RewardConfig(shaping=True, gamma=gamma)
    env = gym.make(f"ToolMaze-{cell}-v0", reward=cfg)
    plain = gym.make(f"ToolMaze-{cell}-v0")
    for t in _cell_tasks(cell[:2])[:6]:
        for policy in ("validator", "retry_forever", "every_tool"):
            _, g, rewards = episode_return(env, t, policy)
            _, g0, plain_rewards = episode_return(plain, t, policy)
            assert g == g0
            ep = env.unwrapped.episode
            corpus = env.unwrapped.sim.corpus
            assert potential(corpus, ep.task, ep.profile, []) == 0.0
            assert potential(corpus, ep.task, ep.profile, ep.steps, over=ep.truncated) == 0.0
            T = len(rewards)
            disc = sum(gamma**k * r for k, r in enumerate(rewards))
            assert disc == pytest.approx(gamma ** (T - 1) * plain_rewards[-1], abs=1e-9)
            for k in range(T):
                over = k == T - 1 and ep.truncated
                term = shaping_term(corpus, ep.task, ep.profile, ep.steps[: k + 1], gamma, over)
                assert rewards[k] - (plain_rewards[k]) == pytest.approx(term, abs=1e-9)


@pytest.mark.parametrize("cell", ["C1P0", "C2P2", "C3P4", "C4P1"])
@pytest.mark.parametrize("action", [FINISH, _call("abort", {"reason": "x"}), "Done."])
def test_quitting_at_once_earns_nothing_with_shaping(cell, action):
    env = gym.make(f"ToolMaze-{cell}-v0", reward=RewardConfig(shaping=True))
    for seed in range(4):
        env.reset(seed=seed)
        _, r, te, _, _ = env.step(action)
        assert te and r == 0.0, (seed, r)


def test_shaping_pays_progress_step_by_step():
    """+1 for each call that brings the goal closer, paid back when the episode ends."""
    env = gym.make("ToolMaze-C1P0-v0", reward=RewardConfig(shaping=True))
    env.reset(seed=0)
    calls = env.unwrapped.episode.task.default_path.calls
    rewards = [env.step(_call(c.tool, c.args))[1] for c in calls]
    assert rewards == [1.0] * len(calls)
    assert env.step(FINISH)[1] == 1.0 - len(calls)  # success (1.0) minus the progress paid


def test_a_cut_closes_the_shaping_too():
    env = gym.make("ToolMaze-C1P0-v0", reward=RewardConfig(shaping=True))
    env.reset(seed=0)
    calls = env.unwrapped.episode.task.default_path.calls
    paid = sum(env.step(_call(c.tool, c.args))[1] for c in calls[:2])
    assert paid == 2.0
    assert env.unwrapped.cut("context")["reward"] == -2.0


@pytest.mark.parametrize("cell", ["C1P0", "C1P4", "C2P1", "C3P2", "C4P3"])
def test_validator_beats_hacks_with_shaping(cell):
    means = _cell_means(cell[:2], cell[2:], RewardConfig(shaping=True), n=8)
    for hack in HACKS:
        if hack == "replay" and cell.endswith("P0"):
            continue
        assert means[hack] < means["validator"] - MARGIN, (hack, means)
