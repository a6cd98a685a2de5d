"""The simulator's shared memo never lets one call's arguments decide another's
response: ``true``, ``1`` and ``1.0`` (equal in Python, different JSON) are answered
as a fresh simulator answers them, in any order, across episodes and envs, so a
grade does not depend on what ran before in the process."""

from __future__ import annotations

import itertools
import json
from typing import Any

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.agents.scripted import OracleAgent
from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.corpus.simulator import _memo_key
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import get_task

FLIGHT = ("climatiq_flight_estimate", {"distance": 4156.1}, "passengers")
ROUND = ("round_amount", {"amount": 1230.8}, "decimal_places")
# Tasks whose oracle path sends an integer 0 or 1 that a careless agent sends as a bool.
TASKS = ("tmz-v3-c1-0035", "tmz-v3-c1-0074", "tmz-v3-c2-0004")


def _alone(tool: str, args: dict[str, Any]) -> str:
    return Simulator().call(tool, args, EpisodeState()).to_json()


@pytest.mark.parametrize("tool,base,param", [FLIGHT, ROUND])
@pytest.mark.parametrize("values", [(True, 1, 1.0), (False, 0, 0.0)])
def test_equal_but_differently_typed_values_never_share_a_response(sim, tool, base, param,
                                                                    values):
    """In every order, each value gets what it gets on a fresh simulator: ``true`` a
    422, ``1`` a 200, ``1.0`` a 200 that echoes 1.0."""
    expected = {repr(v): _alone(tool, {**base, param: v}) for v in values}
    assert len(set(expected.values())) >= 2  # the values really are answered differently
    for order in itertools.permutations(values):
        shared = Simulator(sim.corpus, sim.world)
        for v in order * 2:  # the second round is answered from the memo
            got = shared.call(tool, {**base, param: v}, EpisodeState()).to_json()
            assert got == expected[repr(v)], (order, v)


def test_true_then_1_and_1_then_true_as_the_issue_reported(sim):
    shared = Simulator(sim.corpus, sim.world)
    tool, base, param = FLIGHT
    assert shared.call(tool, {**base, param: True}, EpisodeState()).status == 422
    assert shared.call(tool, {**base, param: 1}, EpisodeState()).status == 200
    shared = Simulator(sim.corpus, sim.world)
    assert shared.call(tool, {**base, param: 1}, EpisodeState()).status == 200
    assert shared.call(tool, {**base, param: True}, EpisodeState()).status == 422


def test_the_memo_key_is_type_exact():
    same = [{"a": 1, "b": "x"}, {"b": "x", "a": 1}]
    differ = [{"a": 1}, {"a": True}, {"a": 1.0}, {"a": 0.0}, {"a": -0.0}, {"a": "1"},
              {"a": None}, {"a": False}, {"a": 0}, {"a": float("nan")}]
    assert _memo_key("t", same[0]) == _memo_key("t", same[1])
    keys = [_memo_key("t", args) for args in differ]
    assert None not in keys and len(set(keys)) == len(differ)
    assert _memo_key("t", {"a": float("nan")}) == _memo_key("t", {"a": float("nan")})


def test_nested_or_oddly_keyed_arguments_are_answered_but_not_memoised(sim):
    """A nested value (which every schema refuses) or a non-string key is never
    keyed, so ``[1]``/``[true]`` or ``1``/``"1"`` cannot share an entry, and a deep
    structure is not walked: the call is still answered, never raised."""
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for args in ({"a": [1]}, {"a": [True]}, {"a": {"b": 1}}, {1: 1}, {True: 1},
                 {"a": {1, 2}}, {"a": deep}):
        assert _memo_key("t", args) is None
    shared = Simulator(sim.corpus, sim.world)
    for args in ({"decimal_places": deep, "amount": 1.0}, {1: 1, "amount": 1.0},
                 {True: 1, "amount": 1.0}):
        assert shared.call("round_amount", args, EpisodeState()).status in (400, 422)
    assert not shared._memo
    assert "'1'" in shared.call("round_amount", {1: 1}, EpisodeState()).to_json()
    assert "'True'" in shared.call("round_amount", {True: 1}, EpisodeState()).to_json()


def test_an_error_is_never_memoised(sim, monkeypatch):
    """A refusal does not outlive the call that earned it: a pure call refused once
    (here by a behaviour made to refuse exactly once) is answered on its next try,
    and the careless ``true`` leaves nothing behind for anyone."""
    from toolmaze_gym.corpus.behaviours import ToolError

    shared = Simulator(sim.corpus, sim.world)
    tool, base, param = FLIGHT
    assert shared.call(tool, {**base, param: True}, EpisodeState()).status == 422
    assert not shared._memo
    compiled = shared._prepared(shared.corpus[tool])
    real, refused = compiled.behaviour, []

    def refuse_once(ctx, **kw):
        if not refused:
            refused.append(kw)
            raise ToolError(503, "unavailable", "try again", "distance")
        return real(ctx, **kw)

    monkeypatch.setattr(compiled, "behaviour", refuse_once)
    args = {**base, param: 1}
    assert shared.call(tool, args, EpisodeState()).status == 503
    answer = shared.call(tool, args, EpisodeState())
    assert answer.status == 200 and answer.to_json() == _alone(tool, args)
    assert shared.call(tool, args, EpisodeState()) is answer  # answers still memoised


# ---------------------------------------------------------------- whole episodes


class _Replay:
    """Sends fixed actions, one per step (``finish`` last)."""

    name = "replay"

    def __init__(self, actions: list[str]) -> None:
        self.actions = actions

    def reset(self, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        self.k = 0

    def act(self, messages: list[dict[str, Any]]) -> str:
        self.k += 1
        return self.actions[self.k - 1]


def _as_bools(raw: str) -> str:
    """The action with every integer 0 or 1 argument sent as false or true."""
    call = json.loads(raw)
    call["arguments"] = {k: bool(v) if type(v) is int and v in (0, 1) else v
                         for k, v in call["arguments"].items()}
    return json.dumps(call)


@pytest.fixture(scope="module")
def episodes() -> dict[str, tuple[Task, list[str], list[str]]]:
    """Per task: the oracle's actions, and the same with its 0/1 integers as bools."""
    tasks = {tid: get_task(tid) for tid in TASKS}  # each from the suite its id names
    out = {}
    for tid in TASKS:
        sim = Simulator()
        record = rollout(tasks[tid], "P0", OracleAgent(sim), sim)
        clean = [s["raw"] for s in record["steps"]]
        careless = [_as_bools(a) for a in clean]
        assert careless != clean  # the task really sends a 0 or 1 integer
        out[tid] = (tasks[tid], clean, careless)
    return out


def _play(task: Task, actions: list[str], sim: Simulator) -> dict[str, Any]:
    return rollout(task, "P0", _Replay(actions), sim)


@pytest.mark.parametrize("tid", TASKS)
def test_a_task_grades_the_same_whatever_ran_before_it(episodes, tid):
    """Each episode's whole record (statuses, grade) is the one it gets alone."""
    task, clean, careless = episodes[tid]
    alone = {"clean": _play(task, clean, Simulator()),
             "careless": _play(task, careless, Simulator())}
    assert alone["clean"]["grade"]["success"]
    statuses = {k: [s.get("status") for s in r["steps"]] for k, r in alone.items()}
    assert 422 in statuses["careless"] and 422 not in statuses["clean"]
    for first, then in (("careless", "clean"), ("clean", "careless")):
        sim = Simulator()
        acts = {"clean": clean, "careless": careless}
        assert _play(task, acts[first], sim) == alone[first]
        assert _play(task, acts[then], sim) == alone[then], f"{then} after {first}"


def test_two_envs_interleaved_do_not_answer_each_other(episodes):
    """Two envs of one process share a simulator; stepping a careless and a clean
    episode of one task in lockstep grades each as if it ran alone."""
    task, clean, careless = episodes["tmz-v3-c1-0035"]
    expected = {"clean": _play(task, clean, Simulator())["grade"],
                "careless": _play(task, careless, Simulator())["grade"]}
    for order in (("careless", "clean"), ("clean", "careless")):
        acts = {"clean": clean, "careless": careless}
        envs = {k: gym.make("ToolMaze-v0") for k in order}
        assert envs[order[0]].unwrapped.sim is envs[order[1]].unwrapped.sim
        for k in order:
            envs[k].reset(seed=0, options={"task": task, "mode": "P0"})
        grades: dict[str, Any] = {}
        for step in range(max(len(clean), len(careless))):
            for k in order:
                if k not in grades and step < len(acts[k]):
                    *_, te, tr, info = envs[k].step(acts[k][step])
                    if te or tr:
                        grades[k] = info["grade"]
        assert grades == expected, order
