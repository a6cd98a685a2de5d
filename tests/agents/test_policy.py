"""The Policy interface: scripted agents behind it, several episodes interleaved."""

from __future__ import annotations

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.agents import POLICY_NAMES, Policy, make_policy
from toolmaze_gym.agents.scripted import FINISH
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.suite import load_suite


def _tasks(level: str, n: int):
    return [t for t in load_suite() if t.level == level][:n]


def test_interleaved_episodes_match_single_agent_rollouts(sim):
    """Two episodes stepped in lockstep through one policy give exactly the records
    one agent per episode gives: the adapter keeps one agent (plan state) per key."""
    policy = make_policy("retry", sim=sim)
    assert isinstance(policy, Policy) and policy.name == "retry"
    tasks = _tasks("C3", 2)
    envs, live, usages = {}, {}, {}
    for k, task in enumerate(tasks):
        env = gym.make("ToolMaze-C3P1-v0")
        env.reset(options={"task_id": task.id})
        key = f"ep{k}"
        envs[key] = env.unwrapped
        policy.start(key, env.unwrapped.episode.task, env.unwrapped.tools, "P1")
        live[key] = True
    while live:
        turns = [(key, envs[key].messages) for key in live]
        texts = policy.act_many(turns)
        assert len(texts) == len(turns)
        for (key, _), text in zip(turns, texts, strict=True):
            _, _, term, trunc, _ = envs[key].step(text)
            if term or trunc:
                usages[key] = policy.finish(key)
                del live[key]
    for k, task in enumerate(tasks):
        expected = rollout(task, "P1", make_policy("retry", sim=sim).factory(f"ep{k}"), sim)
        got = envs[f"ep{k}"].record(agent="retry")
        assert [s["raw"] for s in got["steps"]] == [s["raw"] for s in expected["steps"]]
        usage = usages[f"ep{k}"]
        assert usage["turns"] == len(got["steps"]) and usage["raw"] == [
            s["raw"] for s in got["steps"]]
        assert usage["prompt_tokens"] == usage["completion_tokens"] == 0


def test_oracle_policy_succeeds_through_the_env(sim):
    policy = make_policy("oracle", sim=sim)
    task = _tasks("C2", 1)[0]
    env = gym.make("ToolMaze-C2P4-v0")
    env.reset(options={"task_id": task.id})
    policy.start("k", env.unwrapped.episode.task, env.unwrapped.tools, "P4")
    done, info = False, {}
    while not done:
        [text] = policy.act_many([("k", env.unwrapped.messages)])
        _, _, term, trunc, info = env.step(text)
        done = term or trunc
    assert info["grade"]["success"]
    assert policy.finish("k")["turns"] == len(env.unwrapped.episode.steps)


def test_episode_keys_are_checked(sim):
    policy = make_policy("naive", sim=sim)
    task = _tasks("C1", 1)[0]
    with pytest.raises(KeyError, match="no running episode 'x'"):
        policy.act_many([("x", [])])
    policy.start("x", task, [], "P0")
    with pytest.raises(ValueError, match="already running"):
        policy.start("x", task, [], "P0")
    policy.finish("x")
    with pytest.raises(KeyError, match="no running episode"):
        policy.finish("x")


def test_make_policy_rejects_unknown_names_and_options(sim):
    with pytest.raises(ValueError, match="unknown policy 'genius'; choose from oracle"):
        make_policy("genius")
    with pytest.raises(ValueError, match=r"takes no option.*temperature"):
        make_policy("oracle", sim=sim, temperature=0.5)
    with pytest.raises(ValueError, match="seed must be an integer"):
        make_policy("random", sim=sim, seed="x")
    assert set(POLICY_NAMES) >= {"oracle", "naive", "retry", "validator", "random", "hf",
                                 "openai"}


def _random_episode(policy, key: str, task) -> list[str]:
    """The actions the random policy takes in one episode (it reads no observation)."""
    policy.start(key, task, [], "P1")
    texts: list[str] = []
    while not texts or texts[-1] != FINISH:
        texts += policy.act_many([(key, [])])
    return policy.finish(key)["raw"]


def test_the_random_policy_plays_each_repeat_differently_and_reproducibly(sim):
    """Repeats (keys differing only in the repeat index) must not replay one trajectory,
    or pass^k over repeats measures nothing; the same seed and key replay it exactly."""
    policy = make_policy("random", sim=sim, seed=7)
    for task in _tasks("C3", 3):
        first = _random_episode(policy, f"{task.id}/P1/standard/0", task)
        second = _random_episode(policy, f"{task.id}/P1/standard/1", task)
        assert first != second
        again = make_policy("random", sim=sim, seed=7)
        assert _random_episode(again, f"{task.id}/P1/standard/0", task) == first
        other = make_policy("random", sim=sim, seed=8)
        assert _random_episode(other, f"{task.id}/P1/standard/0", task) != first


def test_greedy_scripted_policies_ignore_the_repeat(sim):
    task = _tasks("C3", 1)[0]
    policy = make_policy("naive", sim=sim)
    runs = []
    for repeat in range(2):
        key = f"{task.id}/P0/standard/{repeat}"
        policy.start(key, task, [], "P0")
        runs.append(policy.act_many([(key, [])]))
        policy.finish(key)
    assert runs[0] == runs[1]
