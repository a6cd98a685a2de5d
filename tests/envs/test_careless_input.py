"""Careless calls of the env and the pool (issue 29, item 7): one clear error naming the
argument, raised before anything runs, never a coerced value or a step that runs and
then raises."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from toolmaze_gym.envs.env import ToolMazeEnv

import toolmaze_gym  # noqa: F401  (registers the ids)

FINISH = '{"name": "finish", "arguments": {"answer": "ok"}}'


@pytest.mark.parametrize(("options", "words"), [
    ({"mode": None}, "reset option 'mode' takes one of P0 (NP), P1-P4, got None"),
    ({"mode": 3}, "reset option 'mode' takes one of P0 (NP), P1-P4, got 3"),
    ({"mode": "P9"}, "reset option 'mode'"),
    ({"task": {}}, "reset option 'task': the task's dict has no 'slots'"),
    ({"task": None}, "reset option 'task' takes a Task or a task's dict"),
    ({"task": "x"}, "reset option 'task' takes a Task or a task's dict"),
    ({"task": {"slots": 3}}, "reset option 'task' is not a task's dict"),
    ({"task_id": 7}, "reset option 'task_id' takes a task id"),
    ({"task_id": "no-such-task"}, "reset option 'task_id': no task 'no-such-task'"),
    ({"level": "C9"}, "reset option 'level' takes one of C1, C2, C3, C4, got 'C9'"),
    ("P1", "reset(options=...) takes a dict or None"),
])
def test_bad_reset_options_are_one_value_error(options, words):
    for env in (ToolMazeEnv(), gym.make("ToolMaze-C1P0-v0")):
        with pytest.raises(ValueError) as caught:
            env.reset(seed=0, options=options)
        assert type(caught.value) is ValueError
        assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("seed", [1.5, "3", True, -1, [1]])
def test_a_seed_that_is_not_a_non_negative_int_is_one_value_error(seed):
    with pytest.raises(ValueError, match=r"reset\(seed=...\) takes a non-negative int"):
        ToolMazeEnv().reset(seed=seed)


def test_numpy_seeds_still_work():
    a = ToolMazeEnv().reset(seed=np.int64(3))[1]["task_id"]
    assert a == ToolMazeEnv().reset(seed=3)[1]["task_id"]


def test_a_failed_reset_leaves_no_episode_to_step():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=0)
    env.step('{"name": "no_such_tool", "arguments": {}}')
    with pytest.raises(ValueError):
        env.reset(options={"mode": 3})
    with pytest.raises(ResetNeeded):  # before running anything
        env.step(FINISH)


def test_after_a_failed_first_reset_a_gym_make_env_steps_normally():
    """Gymnasium 1.4's passive checker keeps no reset data when the first reset raises,
    and then raised TypeError after every step had run."""
    env = gym.make("ToolMaze-C1P0-v0")
    with pytest.raises(ValueError):
        env.reset(options={"task": None})
    env.reset(seed=0)
    obs, _, ended, _, info = env.step('{"name": "no_such_tool", "arguments": {}}')
    assert json.loads(obs) and not ended and info["status"] == 404
    *_, ended, _, info = env.step(FINISH)
    assert ended and "grade" in info


# ---------------------------------------------------------------- the pool


@pytest.fixture()
def pool():
    p = gym.make_vec("ToolMaze-C1P0-v0", 4)
    p.reset(seed=0)
    yield p
    p.close()


def test_a_string_is_not_a_list_of_actions(pool):
    with pytest.raises(TypeError, match="actions must be a mapping"):
        pool.step("abcd")
    assert all(len(pool.base(i).episode.steps) == 0 for i in range(4))


@pytest.mark.parametrize("index", [1.0, 1.9, "1", True])
def test_indices_are_never_coerced(pool, index):
    with pytest.raises(TypeError, match="env indices must be ints"):
        pool.step({index: FINISH})
    with pytest.raises(TypeError, match="env indices must be ints"):
        pool.reset(options={"indices": [index]})
    with pytest.raises(TypeError, match="env indices must be ints"):
        pool.record(index)
    assert all(len(pool.base(i).episode.steps) == 0 for i in range(4))


def test_numpy_indices_still_work(pool):
    pool.step({np.int64(2): FINISH})
    assert len(pool.record(np.int64(2))["steps"]) == 1


@pytest.mark.parametrize("method", ["record", "messages", "template_messages", "tools",
                                    "base"])
def test_a_negative_index_is_no_env(pool, method):
    with pytest.raises(IndexError, match=r"env indices \[-1\] out of range 0..3"):
        getattr(pool, method)(-1)


def test_a_pool_seed_of_the_wrong_kind_is_one_value_error(pool):
    with pytest.raises(ValueError, match=r"takes an int, one seed per reset env, or None"):
        pool.reset(seed=1.5)
    with pytest.raises(ValueError, match=r"non-negative int"):
        pool.reset(seed=[0, 1, 2.5, 3])
