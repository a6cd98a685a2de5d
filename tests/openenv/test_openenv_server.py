"""The OpenEnv environment on a real uvicorn server, driven by OpenEnv's own client:
Gym control over /ws, the episode's tools over MCP, records equal to gym.make's."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")

from openenv.core.env_server.mcp_types import CallToolAction
from toolmaze_gym.openenv import ToolMazeEnv
from toolmaze_gym.openenv.server.app import build_app

from tests.serving._episodes import comparable, in_process, oracle_calls
from tests.serving._server import free_port, kill_after_first_call, serving
from toolmaze_gym.serving import EpisodeChoice, ServeRecorder, Session, SessionStore
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX

IDLE_S = {"test_a_killed_client_leaves_no_episode_after_the_timeout": 1.0}


@pytest.fixture
def server(tmp_path, request):
    """A running OpenEnv server; yields (base URL, store, run directory)."""
    store = SessionStore(ServeRecorder(tmp_path / "run", agent="openenv-agent",
                                       server="openenv"),
                         idle_timeout=IDLE_S.get(request.node.name, 60.0), max_sessions=40)
    port = free_port()
    with serving(build_app(store), port, ws_max_size=1 << 20) as url:  # as toolmaze serve
        yield url, store, tmp_path / "run"
    store.recorder.close()


def _records(run, store) -> list[dict]:
    store.recorder.flush()
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]


def _args(calls) -> list[tuple[str, dict]]:
    return [(n, json.loads(a)) for n, a in calls]


def test_the_client_plays_a_c2p2_task_to_the_record_gym_make_gives(server):
    url, store, run = server
    calls = _args(oracle_calls("C2", "P2", 3))

    async def play():
        async with ToolMazeEnv(base_url=url) as env:
            opening = (await env.reset(level="C2", mode="P2", seed=3)).observation
            tools = [t.name for t in await env.list_tools()]
            steps = [await env.step(CallToolAction(tool_name=n, arguments=a))
                     for n, a in calls]
            return opening, tools, steps, await env.state()

    opening, tools, steps, state = asyncio.run(play())
    ref = in_process("C2", "P2", 3, calls)
    assert opening.task_id == ref["task_id"] == state.task_id
    assert opening.clock == "2026-08-18T09:00:00Z" and opening.request
    assert tools == [t["function"]["name"] for t in opening.tool_schemas]
    own = Session(EpisodeChoice(level="C2", mode="P2", seed=3)).tools  # gym.make's episode
    assert tools == [t["function"]["name"] for t in own] and tools[-2:] == ["finish", "abort"]
    texts = [s.observation.result["data"] for s in steps[:-1]]
    assert texts == [s["observation"] for s in ref["steps"][:-1]]
    assert any(s.observation.result["is_error"] for s in steps)  # the P2 fault
    last = steps[-1]
    assert last.done and last.observation.metadata["grade"] == ref["grade"]
    assert ref["grade"]["success"] and last.reward > 0 and state.grade == ref["grade"]
    (rec,) = _records(run, store)
    assert comparable(rec) == comparable(ref) and rec["server"] == "openenv"


def test_call_tool_over_mcp_gives_the_envs_text_and_errors(server):
    url, store, run = server
    calls = _args(oracle_calls("C1", "P1", 2))

    async def play():
        async with ToolMazeEnv(base_url=url) as env:
            await env.reset(task_id=f"{ID_PREFIX}-c1-0002", mode="P1")
            texts = [await env.call(n, a) for n, a in calls]
            with pytest.raises(RuntimeError, match="episode has ended"):
                await env.call_tool("finish", answer="again")  # OpenEnv's own call too
            return texts, await env.state()

    texts, state = asyncio.run(play())
    ref = in_process("C1", "P1", 2, calls)
    assert texts[:-1] == [s["observation"] for s in ref["steps"][:-1]]
    errors = [json.loads(t)["error"]["code"] for t in texts[:-1] if '"error"' in t]
    assert len(errors) == 1 and errors[0] in (429, 503, 504)  # transient: one failed call
    assert state.done and state.grade == ref["grade"] and ref["grade"]["recovered"]
    assert len(_records(run, store)) == 1


def test_32_concurrent_sessions_get_32_distinct_correct_grades(server):
    url, store, run = server
    plans = {}
    for seed in range(32):  # even seeds play it out, odd ones give up after some calls
        calls = _args(oracle_calls("C1", "P3", seed))
        plans[seed] = calls if seed % 2 == 0 else [*calls[:seed % 5], ("abort", {"reason": "x"})]

    async def one(seed):
        async with ToolMazeEnv(base_url=url) as env:
            await env.reset(level="C1", mode="P3", seed=seed)
            for n, a in plans[seed]:
                result = await env.step(CallToolAction(tool_name=n, arguments=a))
            return result.observation.metadata["grade"]

    async def all_at_once():
        return await asyncio.gather(*(one(s) for s in range(32)))

    got = asyncio.run(all_at_once())
    seen = set()
    for seed, grade in enumerate(got):
        ref = in_process("C1", "P3", seed, plans[seed])
        assert grade == ref["grade"], seed
        seen.add((ref["task_id"], json.dumps(grade, sort_keys=True)))
    assert len(seen) == 32 and sum(g["success"] for g in got) == 16
    assert len(_records(run, store)) == 32


def test_bad_input_over_the_wire_gets_clear_errors_and_the_server_survives(server):
    import httpx
    import websockets.sync.client as ws

    url, _, _ = server
    broken = httpx.post(f"{url}/mcp", content=b'{"jsonrpc": "2.0", "method":',
                        headers={"content-type": "application/json"})
    assert "error" in broken.json() and broken.status_code < 500
    unknown = httpx.post(f"{url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                                             "params": {"session_id": "nope"}}).json()
    assert "Unknown session_id: nope" in unknown["error"]["message"]
    with ws.connect(url.replace("http", "ws") + "/ws") as sock:
        sock.send("{not json")
        assert "Invalid JSON" in sock.recv()
        sock.send(json.dumps({"type": "step", "data": {"type": "call_tool",
                                                        "tool_name": "finish"}}))
        assert "call reset first" in sock.recv()
        sock.send(json.dumps({"type": "reset", "data": {"level": "C1", "colour": "red"}}))
        assert "unknown reset argument(s) colour" in sock.recv()
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed) as closed, \
            ws.connect(url.replace("http", "ws") + "/ws", max_size=None) as sock:
        sock.send(json.dumps({"type": "reset", "data": {"junk": "x" * (2 << 20)}}))
        sock.recv()
    assert closed.value.rcvd.code == 1009  # "message too big", and only this connection

    async def still_serving():
        async with ToolMazeEnv(base_url=url) as env:
            await env.reset(level="C1", seed=0)
            huge = await env.call_tool("finish", answer="y" * 40_000)
            return json.loads(huge), await env.state()

    body, state = asyncio.run(still_serving())
    assert body["error"]["code"] == 400 and "16384" in body["error"]["message"]
    assert not state.done  # an over-long action is the env's 400, the episode goes on


def test_eight_interleaved_sessions_on_one_seed_record_what_one_alone_records(server):
    """Same seed, same everything: eight sessions of one C2 P2 task, their steps taken
    in turn (each session's first step, then each one's second, ...), give records equal
    to each other and to gym.make's, apart from the repeat index."""
    url, store, run = server
    calls = _args(oracle_calls("C2", "P2", 5))

    async def interleaved():
        envs = [ToolMazeEnv(base_url=url) for _ in range(8)]
        for env in envs:
            await env.connect()
        try:
            await asyncio.gather(*(env.reset(level="C2", mode="P2", seed=5) for env in envs))
            for name, args in calls:
                await asyncio.gather(*(env.step(CallToolAction(tool_name=name, arguments=args))
                                       for env in envs))
        finally:
            for env in envs:
                await env.close()

    asyncio.run(interleaved())
    records = _records(run, store)
    assert sorted(r["repeat"] for r in records) == list(range(8))
    ref = comparable(in_process("C2", "P2", 5, calls))
    assert all(comparable(r) == ref for r in records)


def test_a_refused_step_says_done_only_when_the_episode_is_over(server):
    """A reply that is no text and a cut without a reason are refused, and the episode
    goes on: the observation said done=True before, so a trainer stopped an episode
    that was still running."""
    url, store, run = server

    async def play():
        async with ToolMazeEnv(base_url=url) as env:
            await env.reset(level="C1", seed=0)
            refused = [await env.step(CallToolAction(tool_name=name, arguments=args))
                       for name, args in (("", {"text": 5}), ("", {"cut": " "}))]
            ended = await env.step(CallToolAction(tool_name="abort", arguments={"reason": "x"}))
            late = await env.step(CallToolAction(tool_name="abort", arguments={"reason": "x"}))
            return refused, ended, late

    refused, ended, late = asyncio.run(play())
    assert [r.observation.error is not None for r in refused] == [True] * 2
    assert [r.done for r in refused] == [False] * 2
    assert ended.done and late.done and "has ended" in late.observation.error.message
    (rec,) = _records(run, store)
    assert rec["grade"]["ended_by"] == "abort"


KILLED_CLIENT = """
import asyncio, sys
from toolmaze_gym.openenv import ToolMazeEnv

async def main():
    async with ToolMazeEnv(base_url=sys.argv[1]) as env:
        await env.reset(level="C1", seed=4)
        await env.call_tool((await env.list_tools())[0].name)
        print("called", flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.slow  # ~20 s: a client interpreter, and OpenEnv's reaper wakes every 5 s
def test_a_killed_client_leaves_no_episode_after_the_timeout(server):
    import os

    url, store, run = server
    kill_after_first_call(KILLED_CLIENT, url, store, 30,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert len(store) == 0
    (rec,) = _records(run, store)
    assert rec["cut"] == "closed" and len(rec["steps"]) == 1 and not rec["grade"]["success"]
