"""ToolMazePool: gym.make_vec returns it; no autoreset; subsets; batched-generation views."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from toolmaze_gym.envs import ToolMazePool

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.tasks.suite import load_suite

FINISH = '{"name": "finish", "arguments": {"answer": "ok"}}'
MISS = '{"name": "no_such_tool", "arguments": {}}'


def test_make_vec_returns_the_pool():
    pool = gym.make_vec("ToolMaze-C3P4-v0", 5)
    assert isinstance(pool, ToolMazePool) and pool.num_envs == 5
    assert pool.metadata["autoreset_mode"] is AutoresetMode.DISABLED
    assert pool.spec.id == "ToolMaze-C3P4-v0"
    obs, infos = pool.reset(seed=0)
    assert len(obs) == 5 and all(json.loads(o)[1]["role"] == "user" for o in obs)
    assert set(infos["level"]) == {"C3"} and set(infos["mode"]) == {"P4"}
    assert infos["_task_id"].all()
    assert all(pool.envs[i].unwrapped.max_steps == 25 for i in range(5))
    pool.close()


def test_seed_int_gives_env_i_seed_plus_i():
    pool = gym.make_vec("ToolMaze-C2P1-v0", 3)
    _, infos = pool.reset(seed=10)
    single = [gym.make("ToolMaze-C2P1-v0").reset(seed=10 + i)[1]["task_id"] for i in range(3)]
    assert list(infos["task_id"]) == single
    # a subset reset keeps the same rule: env 2 gets seed + 2
    _, infos = pool.reset(seed=10, options={"indices": [2]})
    assert infos["task_id"][2] == single[2] and list(infos["_task_id"]) == [False, False, True]


def test_steps_only_given_envs_and_never_autoresets():
    pool = gym.make_vec("ToolMaze-C1P0-v0", 3)
    pool.reset(seed=0)
    obs, rew, te, tr, infos = pool.step({0: FINISH, 2: MISS})
    assert obs[1] == "[]" and json.loads(obs[0])[0]["role"] == "assistant"
    assert list(te) == [True, False, False] and not tr.any()
    assert pool.live == [1, 2]
    assert list(infos["_grade"]) == [True, False, False]
    assert len(pool.envs[1].unwrapped.episode.steps) == 0
    # an ended env is not stepped again (no autoreset) and stays terminated
    obs, rew, te, tr, infos = pool.step([FINISH, None, None])
    assert obs == ("[]", "[]", "[]") and list(te) == [True, False, False] and rew[0] == 0.0
    assert len(pool.envs[0].unwrapped.episode.steps) == 1 and infos == {}
    # None in a mapping is idle too
    pool.step({1: None, 2: FINISH})
    assert pool.live == [1]
    # reset a subset: only env 0 starts again, env 1 keeps its episode
    obs, infos = pool.reset(seed=3, options={"indices": [0]})
    assert obs[1] == obs[2] == "" and pool.live == [0, 1]


def test_task_ids_option_and_batch_view():
    tasks = load_suite(levels=["C2"])[:3]
    pool = gym.make_vec("ToolMaze-C2P2-v0", 3, prompt="failure_aware")
    _, infos = pool.reset(seed=0, options={"task_ids": [t.id for t in tasks]})
    assert list(infos["task_id"]) == [t.id for t in tasks]
    pool.step({1: FINISH})
    batch = pool.batch()
    assert [i for i, _, _ in batch] == [0, 2]
    for i, messages, tools in batch:
        assert messages is pool.envs[i].unwrapped.messages
        assert [t["function"]["name"] for t in tools] == [*tasks[i].tools, "finish", "abort"]
        assert "Tools can fail" in messages[0]["content"]
    assert pool.record(1)["grade"]["ended_by"] == "finish"


def test_bad_pool_calls_raise():
    pool = ToolMazePool(2, "C1", "P0")
    pool.reset(seed=0)
    with pytest.raises(IndexError):
        pool.step({5: FINISH})
    with pytest.raises(ValueError):
        pool.step([FINISH])
    with pytest.raises(ValueError):
        pool.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError):
        ToolMazePool(0)


def test_step_before_reset_is_idle():
    pool = ToolMazePool(2, "C1", "P0")
    obs, _, te, _, _ = pool.step({0: FINISH})
    assert obs == ("[]", "[]") and not te.any() and pool.live == []


def test_infos_keep_types_when_envs_end_together():
    """Two episodes ending in one step: an exposed one (recovered is a bool) and an
    unexposed one (recovered is None). Batched infos must not turn None into False."""
    task = load_suite(levels=["C1"])[0]
    pool = gym.make_vec("ToolMaze-C1P1-v0", 2)
    pool.reset(seed=0, options={"task_ids": [task.id, task.id]})
    call = task.default_path.calls
    env0 = pool.envs[0].unwrapped
    # env 0 runs into the fault (calls every default call once), env 1 stops at once
    for c in call:
        pool.step({0: json.dumps({"name": c.tool, "arguments": c.args})})
        if env0.episode.steps[-1].fault:
            break
    _, _, te, _, infos = pool.step({0: FINISH, 1: FINISH})
    assert te.all()
    rec = [pool.record(i)["grade"]["recovered"] for i in range(2)]
    assert rec[0] is not None and rec[1] is None
    assert list(infos["grade"]["recovered"]) == rec
    assert "status" not in infos or not infos["_status"].any()
    assert np.issubdtype(infos["grade"]["c"].dtype, np.integer)
