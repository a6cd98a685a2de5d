"""A tool that raises anyway never takes ``step`` down (issue 29 item 1, defence in
depth): the agent sees the 500 a crashed handler sends, the step is recorded with
that status, the episode goes on to its grade, and a pool steps every other env of
the batch as usual; the runner, ``play`` and a served session do the same."""

from __future__ import annotations

import json
import logging
from typing import Any

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.agents.scripted import OracleAgent
from toolmaze_gym.corpus import Response, Simulator
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.suite import get_task

TASK = "tmz-v3-c1-0035"
TOOL = "climatiq_flight_estimate"  # on the task's oracle path


def _behaviour_raises(monkeypatch, sim: Simulator) -> None:
    """The tool's own code raises (the simulator answers it with its 500)."""

    def broken(ctx, **kw):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(sim._prepared(sim.corpus[TOOL]), "behaviour", broken)
    monkeypatch.setattr(sim, "_memo", {})  # an earlier test's answer is not served


def _call_raises(monkeypatch, sim: Simulator) -> None:
    """Something past the simulator's own guard raises for the tool."""
    real = Simulator.call

    def call(self, name: str, arguments: Any, state: Any) -> Response:
        if name == TOOL:
            raise OverflowError("date value out of range")
        return real(self, name, arguments, state)

    monkeypatch.setattr(Simulator, "call", call)


def _body_not_json(monkeypatch, sim: Simulator) -> None:
    """The tool answers with a body that has no JSON form."""
    real = Simulator.call

    def call(self, name: str, arguments: Any, state: Any) -> Response:
        if name == TOOL:
            return Response(200, {"co2e": {1.5}})
        return real(self, name, arguments, state)

    monkeypatch.setattr(Simulator, "call", call)


BREAKS = [_behaviour_raises, _call_raises, _body_not_json]


@pytest.fixture(scope="module")
def oracle() -> list[str]:
    sim = Simulator()
    record = rollout(get_task(TASK), "P0", OracleAgent(sim), sim)
    actions = [s["raw"] for s in record["steps"]]
    assert any(json.loads(a).get("name") == TOOL for a in actions)
    return actions


def _is_tool(action: str) -> bool:
    return json.loads(action).get("name") == TOOL


@pytest.mark.parametrize("brk", BREAKS, ids=lambda f: f.__name__.strip("_"))
def test_a_tool_that_raises_is_a_recorded_500_observation(oracle, brk, monkeypatch, caplog):
    env = gym.make("ToolMaze-v0")
    env.reset(seed=0, options={"task_id": TASK, "mode": "P0"})
    # the simulator the episode plays on: an old suite's task plays on its own world
    # edition's simulator (world/edition.py), not the env's default one
    brk(monkeypatch, env.unwrapped.episode.sim)
    infos = []
    with caplog.at_level(logging.ERROR):
        for action in oracle:
            obs, _, te, tr, info = env.step(action)
            infos.append(info)
            if _is_tool(action):
                message = json.loads(obs)[-1]
                assert message["role"] == "tool"
                err = json.loads(message["content"])["error"]
                assert (info["status"], err["type"]) == (500, "internal_error")
                assert TOOL in err["message"]
    assert te or tr
    assert "grade" in infos[-1] and not infos[-1]["grade"]["success"]
    record = env.unwrapped.record()
    crashed = [s for s in record["steps"] if s["action"].get("name") == TOOL]
    assert crashed and all(s["status"] == 500 for s in crashed)
    assert any(TOOL in r.getMessage() and r.exc_info for r in caplog.records)


@pytest.mark.parametrize("brk", BREAKS[1:], ids=lambda f: f.__name__.strip("_"))
def test_a_pool_steps_every_env_when_one_tool_raises(oracle, brk, monkeypatch):
    """The env whose tool raises is in the middle of the batch: the envs after it are
    stepped too and every observation comes back."""
    k = next(i for i, a in enumerate(oracle) if _is_tool(a))
    pool = gym.make_vec("ToolMaze-v0", 3, curriculum=None)
    pool.reset(seed=0, options={"task_ids": [TASK] * 3, "mode": "P0"})
    for action in oracle[:k]:
        pool.step([action] * 3)
    brk(monkeypatch, pool.envs[0].unwrapped.sim)
    miss = '{"name": "no_such_tool", "arguments": {}}'
    obs, _, _, _, infos = pool.step([miss, oracle[k], miss])
    assert list(infos["status"]) == [404, 500, 404]
    assert all(json.loads(o) for o in obs)
    assert [len(pool.envs[i].unwrapped.episode.steps) for i in range(3)] == [k + 1] * 3
    pool.close()


# ---------------------------------------------- the runner, play and a served session

CALL = {"name": TOOL, "arguments": {"distance": 4156.1, "passengers": 1}}


def test_the_runner_records_a_tool_that_raises_and_goes_on(monkeypatch, tmp_path):
    """A run through the pool: every episode is recorded, the crashed calls as 500s."""
    from tests.runner._policies import Replying
    from toolmaze_gym.runner import RunConfig, Selection, read_records, run

    _call_raises(monkeypatch, None)  # class-wide: every simulator the layer builds
    sel = Selection(suite="toolmaze-v3", task_ids=[TASK], modes=["P0", "P1"])
    run(RunConfig("oracle", selection=sel, max_steps=3), tmp_path, progress=False,
        policy=Replying(json.dumps(CALL)))
    recs = read_records(tmp_path)
    assert sorted(r["mode"] for r in recs) == ["P0", "P1"]
    for rec in recs:
        assert [s["status"] for s in rec["steps"]] == [500] * 3
        assert rec["grade"]["success"] is False


def test_play_shows_a_tool_that_raises_as_its_500(monkeypatch):
    from toolmaze_gym.play import PlaySession

    _call_raises(monkeypatch, None)  # class-wide: every simulator the layer builds
    session = PlaySession(get_task(TASK))
    reply = session.handle(json.dumps(CALL))
    assert not reply.error and "500" in reply.text and "internal_error" in reply.text
    session.handle("finish done")
    assert [s["status"] for s in session.record()["steps"]] == [500, None]


def test_a_served_session_answers_and_records_a_tool_that_raises(monkeypatch, tmp_path):
    from toolmaze_gym.serving import ServeRecorder, SessionStore

    _call_raises(monkeypatch, None)  # class-wide: every simulator the layer builds
    store = SessionStore(ServeRecorder(tmp_path / "run"))
    session = store.get_or_open("s", {"task_id": TASK, "mode": "P0"})
    answer = session.call(TOOL, CALL["arguments"])
    assert "internal_error" in json.dumps(answer)
    store.call("s", "abort", {"reason": "the tool is down"})
    store.recorder.flush()
    (line,) = (tmp_path / "run" / "records.jsonl").read_text().splitlines()
    assert [s["status"] for s in json.loads(line)["steps"]] == [500, None]
    store.recorder.close()


def test_an_async_vector_env_keeps_its_workers_when_a_tool_raises(oracle, monkeypatch):
    """Gymnasium's async vector env once lost the worker for good: its envs run in
    forked processes, which inherit the class-wide patch."""
    _call_raises(monkeypatch, None)
    k = next(i for i, a in enumerate(oracle) if _is_tool(a))
    vec = gym.vector.AsyncVectorEnv([lambda: gym.make("ToolMaze-v0")] * 2, context="fork",
                                    shared_memory=False)
    try:
        vec.reset(seed=0, options={"task_id": TASK, "mode": "P0"})
        for action in oracle[: k + 1]:
            _, _, _, _, infos = vec.step((action, action))
        assert list(infos["status"]) == [500, 500]
        _, _, _, _, infos = vec.step((oracle[k + 1],) * 2)  # the workers still answer
        assert len(infos["status"]) == 2
    finally:
        vec.close()
