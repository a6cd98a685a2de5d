"""What the grader reads once per task and shares across episodes (issue 32): each
response text is parsed once, a slot's outputs on given responses are worked out once,
and neither sharing changes a grade, whatever was graded before; the shared reads stay
bounded over a long run."""

from __future__ import annotations

import copy
import json

import pytest
from toolmaze_gym.envs import ToolMazeEnv

from toolmaze_gym.agents import RandomAgent, make_scripted
from toolmaze_gym.episode import Episode
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.grading import grade, index
from toolmaze_gym.grading.index import task_index
from toolmaze_gym.tasks.suite import load_suite

ENV = ToolMazeEnv(None, None)
SIM = ENV.sim
TASKS = load_suite()[::40]  # 10 tasks, every level


def _play(task, mode: str, agent: str, seed: int = 0) -> Episode:
    """An episode of ``agent`` on ``task`` through the env, as ``toolmaze baselines``
    plays it."""
    env = ENV
    _, info = env.reset(options={"task_id": task.id, "mode": mode})
    bot = RandomAgent(env.sim, seed=seed) if agent == "random" else make_scripted(agent, env.sim)
    bot.reset(env.episode.task, info["tools"], mode)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(bot.act(env.messages))
        done = terminated or truncated
    return env.episode


def _grade(ep: Episode, task=None) -> dict:
    return grade(task or ep.task, ep.profile, ep.steps, ep.truncated, ep.sim).to_dict()


@pytest.fixture(scope="module")
def episodes() -> list[Episode]:
    return [_play(t, mode, agent, seed=k)
            for k, t in enumerate(TASKS) for mode in MODE_NAMES
            for agent in ("oracle", "naive", "retry", "random")]


def test_a_grade_does_not_depend_on_what_was_graded_before(episodes):
    """Each episode graded alone (its task copied: an index of its own, nothing shared
    yet) and graded after every other episode of its task, in reverse order, on one
    shared index: the same grades."""
    alone = [_grade(ep, copy.deepcopy(ep.task)) for ep in episodes]
    shared = {id(t): copy.deepcopy(t) for t in TASKS}
    after = [_grade(ep, shared[id(ep.task)]) for ep in reversed(episodes)][::-1]
    assert after == alone
    assert any(not g["success"] for g in alone) and any(g["success"] for g in alone)


def test_each_response_text_is_parsed_once_per_task(monkeypatch, episodes):
    parsed: list[str] = []
    real = index.parse_body

    def counted(text: str):
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(index, "parse_body", counted)
    ep = next(e for e in episodes if len(e.steps) > 3)
    task = copy.deepcopy(ep.task)  # a fresh index
    first = _grade(ep, task)
    n = len(parsed)
    assert n > 0
    assert len(set(parsed)) == n  # no text twice within the episode
    again = _play(task, ep.mode, "oracle")  # another episode with the same responses
    twin = Episode(task, ep.mode, SIM)
    for s in ep.steps:
        twin.step(s.raw)
    assert [s.observation for s in twin.steps] == [s.observation for s in ep.steps]
    assert _grade(twin, task) == first
    assert len(parsed) == n  # the second episode read what the first parsed
    _grade(again, task)
    assert len(set(parsed)) == len(parsed)


def test_the_shared_reads_stay_bounded():
    idx = task_index(copy.deepcopy(TASKS[0]), SIM.corpus)
    limit = index._SHARED_LIMIT
    for k in range(3 * limit):
        assert idx.body(json.dumps({"n": k})) == {"n": k}
        assert idx.body("not json") is None
        idx.outputs("s", (k,), [{"n": k}], lambda cids, bodies: dict(bodies[0]))
    assert len(idx._bodies) <= limit
    assert len(idx._outputs) <= limit
    # an entry read again after it was dropped is read right
    assert idx.body(json.dumps({"n": 0})) == {"n": 0}
