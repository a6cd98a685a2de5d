"""Scripted agents driven through the env (single and pool) get exactly the grades (and
trajectories) ``rollout()`` gives them directly."""

from __future__ import annotations

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.envs._helpers import play
from toolmaze_gym.agents import BASELINES, make_scripted
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.suite import load_suite

# Every 10th suite task: 10 per level, 40 in all.
TASKS = load_suite()[::10]


def _direct(task, mode, agent_name, sim):
    return rollout(task, mode, make_scripted(agent_name, sim), sim)


@pytest.mark.parametrize("agent_name", BASELINES)
def test_single_env_grades_equal_rollout(agent_name):
    envs = {}
    graded = 0
    for task in TASKS:
        for mode in MODE_NAMES:
            env_id = f"ToolMaze-{task.level}{mode}-v0"
            env = envs.setdefault(env_id, gym.make(env_id))
            out = play(env, agent_name, seed=0, options={"task_id": task.id})
            rec = _direct(task, mode, agent_name, env.unwrapped.sim)
            assert out["grade"] == rec["grade"], (task.id, mode)
            assert env.unwrapped.record(agent_name) == rec, (task.id, mode)
            graded += 1
    assert graded == len(TASKS) * 5


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_pool_grades_equal_rollout(mode):
    tasks = [t for t in TASKS if t.level == "C3"] + [t for t in TASKS if t.level == "C1"][:2]
    n = len(tasks) * len(BASELINES)
    pool = gym.make_vec("ToolMaze-v0", n, curriculum=None)
    jobs = [(t, a) for t in tasks for a in BASELINES]
    _, infos = pool.reset(seed=0, options={"task_ids": [t.id for t, _ in jobs], "mode": mode})
    agents = []
    for i, (task, name) in enumerate(jobs):
        agent = make_scripted(name, pool.envs[i].unwrapped.sim)
        agent.reset(task, infos["tools"][i], infos["mode"][i])
        agents.append(agent)
    final = {}
    while pool.live:
        batch = pool.batch()
        _, _, te, tr, infos = pool.step({i: agents[i].act(msgs) for i, msgs, _ in batch})
        for i, _, _ in batch:
            if te[i] or tr[i]:
                final[i] = {k: infos["grade"][k][i] for k in infos["grade"]
                            if not k.startswith("_")}
    assert sorted(final) == list(range(n))
    for i, (task, name) in enumerate(jobs):
        rec = _direct(task, mode, name, pool.envs[i].unwrapped.sim)
        assert final[i] == rec["grade"], (task.id, name)
        assert pool.record(i, name) == rec
