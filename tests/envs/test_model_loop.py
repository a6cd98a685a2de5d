"""What a model loop needs from the Gymnasium layer (issue: a real model loop): one
length knob everywhere, a documented walk through the suite, a grade for every ended
episode, and ending an episode from outside with a recorded reason."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.error import ResetNeeded
from toolmaze_gym.envs import ToolMazePool

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.tasks.suite import load_suite

MISS = '{"name": "no_such_tool", "arguments": {}}'
FINISH = '{"name": "finish", "arguments": {"answer": "done"}}'


def _run_out(pool) -> list[dict]:
    """Step every live env with a useless call until none is live; final infos per env."""
    last: dict[int, dict] = {}
    steps = 0
    while pool.live:
        live = pool.live
        _, _, te, tr, infos = pool.step({i: MISS for i in live})
        steps += 1
        for i in live:
            if te[i] or tr[i]:
                last[i] = {"steps": steps, "graded": bool(infos["_grade"][i])}
    return [last[i] for i in range(pool.num_envs)]


# -- one length knob -------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ["ToolMaze-C2P1-v0", "ToolMaze-v0"])
@pytest.mark.parametrize("kw", [{"max_steps": 6}, {"max_episode_steps": 6}])
def test_make_vec_length_is_the_given_one_and_graded(env_id, kw):
    pool = gym.make_vec(env_id, 3, **kw)
    pool.reset(seed=0)
    assert _run_out(pool) == [{"steps": 6, "graded": True}] * 3


def test_make_vec_default_length_is_25():
    pool = gym.make_vec("ToolMaze-C1P0-v0", 2)
    pool.reset(seed=0)
    assert _run_out(pool) == [{"steps": 25, "graded": True}] * 2


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_vector_envs_take_max_steps(mode):
    vec = gym.make_vec("ToolMaze-C1P0-v0", 2, vectorization_mode=mode, max_steps=3,
                       vector_kwargs={"shared_memory": False} if mode == "async" else {})
    vec.reset(seed=0)
    for _ in range(3):
        _, _, te, tr, infos = vec.step((MISS, MISS))
    assert tr.all() and not te.any() and infos["_grade"].all()
    vec.close()


def test_conflicting_lengths_are_refused():
    with pytest.raises(ValueError, match="max_steps=4 and max_episode_steps=6 disagree"):
        gym.make_vec("ToolMaze-C1P0-v0", 2, max_steps=4, max_episode_steps=6)
    pool = gym.make_vec("ToolMaze-C1P0-v0", 2, max_steps=6, max_episode_steps=6)
    assert all(e.unwrapped.max_steps == 6 for e in pool.envs)
    for bad in (0, -1, 2.5, "10", True):
        with pytest.raises(ValueError, match="max_steps must be a positive integer"):
            gym.make("ToolMaze-C1P0-v0", max_steps=bad)


def test_registered_ids_leave_the_length_to_the_env():
    """No Gymnasium TimeLimit around the ids (it would cut without a grade)."""
    for env_id in ("ToolMaze-C3P2-v0", "ToolMaze-v0"):
        assert gym.spec(env_id).max_episode_steps is None
        env = gym.make(env_id)
        assert env.unwrapped.max_steps == 25 and env.spec.max_episode_steps is None


# -- walking the suite -------------------------------------------------------------------


def test_seeds_walk_a_level_once_in_suite_order():
    ids = [t.id for t in load_suite(levels=["C2"])]
    env = gym.make("ToolMaze-C2P1-v0")
    seen = [env.reset(seed=k)[1]["task_id"] for k in range(len(ids))]
    assert seen == ids
    assert env.reset(seed=len(ids) + 3)[1]["task_id"] == ids[3]  # wraps around


def test_seedless_resets_continue_the_walk():
    ids = [t.id for t in load_suite(levels=["C3"])]
    env = gym.make("ToolMaze-C3P0-v0")
    first = env.reset(seed=98)[1]["task_id"]
    rest = [env.reset()[1]["task_id"] for _ in range(len(ids) - 1)]
    assert [first, *rest] == ids[98:] + ids[:98]


def test_pool_seed_walks_the_suite_and_task_ids_still_work():
    ids = [t.id for t in load_suite(levels=["C4"])]
    pool = gym.make_vec("ToolMaze-C4P2-v0", 4)
    _, infos = pool.reset(seed=8)
    assert list(infos["task_id"]) == ids[8:12]
    _, infos = pool.reset(options={"task_ids": ids[:4][::-1]})
    assert list(infos["task_id"]) == ids[:4][::-1]


# -- ending from outside -------------------------------------------------------------------


def test_cut_ends_the_episode_with_a_reason_and_a_grade():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=0)
    env.step(MISS)
    info = env.unwrapped.cut("context")
    assert info["cut"] == "context" and info["step"] == 1
    assert info["grade"]["success"] is False and info["grade"]["ended_by"] == ""
    rec = env.unwrapped.record()
    assert rec["cut"] == "context" and rec["truncated"] is True
    assert rec["grade"] == info["grade"]
    obs, r, te, tr, info = env.step(FINISH)  # nothing more happens
    assert (obs, r, te, tr) == ("[]", 0.0, False, True) and "warning" in info
    env.reset(seed=0)
    assert "cut" not in env.unwrapped.record()


def test_cut_is_never_the_agents_own_ending():
    """The complete path then cut is not a success; the same path then finish is."""
    env = gym.make("ToolMaze-C1P0-v0")
    for end in ("cut", "finish"):
        env.reset(seed=4)
        for c in env.unwrapped.episode.task.default_path.calls:
            env.step(json.dumps({"name": c.tool, "arguments": c.args}))
        info = env.unwrapped.cut("loop") if end == "cut" else env.step(FINISH)[4]
        g = info["grade"]
        assert g["success"] is (end == "finish"), end


def test_cut_misuse_is_refused():
    env = gym.make("ToolMaze-C1P0-v0")
    with pytest.raises(ResetNeeded):
        env.unwrapped.cut("context")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="reason"):
        env.unwrapped.cut("")
    env.step(FINISH)
    with pytest.raises(ValueError, match="already ended"):
        env.unwrapped.cut("context")


def test_pool_cut():
    pool = gym.make_vec("ToolMaze-C2P3-v0", 3)
    pool.reset(seed=0)
    pool.step({0: MISS, 1: MISS, 2: MISS})
    info = pool.cut(1, "loop")
    assert info["cut"] == "loop" and "success" in info["grade"]
    assert pool.live == [0, 2]
    _, _, te, tr, _ = pool.step({0: MISS, 1: MISS, 2: MISS})
    assert tr[1] and not te[1] and len(pool.envs[1].unwrapped.episode.steps) == 1
    assert pool.record(1)["cut"] == "loop" and "cut" not in pool.record(0)
    with pytest.raises(ValueError, match="reset it first"):
        ToolMazePool(2).cut(0, "context")
    with pytest.raises(IndexError):
        pool.cut(7, "context")


# -- the grade in its usable form ----------------------------------------------------------


def test_record_grade_is_one_plain_dict_with_the_documented_keys():
    pool = gym.make_vec("ToolMaze-C1P1-v0", 2)
    pool.reset(seed=0)
    _, _, _, _, infos = pool.step({0: FINISH})
    g = pool.record(0)["grade"]
    assert {"success", "exposed", "recovered", "c", "c_star", "c_rec", "labels",
            "ended_by"} <= set(g)
    assert g["c_star"] == infos["grade"]["c_star"][0] and g["ended_by"] == "finish"
