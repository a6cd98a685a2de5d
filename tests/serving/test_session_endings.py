"""Every served session that made a tool call is recorded exactly once when it ends
(finish/abort, the client closing, the server stopping, idle expiry), and a session that
made none (it only initialised or listed tools) is never recorded, on both servers."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is in the [serve] extra")

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.serving._server import free_port, serving, serving_server
from toolmaze_gym.serving import ServeRecorder, SessionStore
from toolmaze_gym.serving.mcp_server import http_app


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _records(run, store=None) -> list[dict]:
    if store is not None:
        store.recorder.flush()
    path = run / "records.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


# -- the store ---------------------------------------------------------------------------

def test_each_way_a_session_ends_records_it_once_and_only_if_it_made_a_call(tmp_path):
    clock = Clock()
    store = SessionStore(ServeRecorder(tmp_path / "run"), idle_timeout=10, clock=clock)
    assert store.get_or_open("listed", {"seed": 0}).tools  # a tools/list opens, no call
    for sid, seed in (("closed", 1), ("idle", 2), ("stopped", 3), ("finished", 4)):
        store.get_or_open(sid, {"seed": seed}).call("get_nothing", {})
    store.call("finished", "abort", {"reason": "done"})
    assert store.end("closed", "closed") and not store.end("closed", "closed")
    clock.now = 5.0
    store.get("stopped")  # still in use
    clock.now = 11.0
    assert sorted(store.expire()) == ["finished", "idle", "listed"]
    store.shutdown()
    store.shutdown()
    assert len(store) == 0
    recs = _records(tmp_path / "run", store)
    store.recorder.close()
    cuts = sorted((r.get("cut") or r["steps"][-1]["action"]["kind"], len(r["steps"])) for r in recs)
    assert cuts == [("abort", 2), ("closed", 1), ("idle", 1), ("shutdown", 1)]


# -- toolmaze serve (MCP) over HTTP --------------------------------------------------------

async def _session(url: str, calls: int) -> None:
    async with streamable_http_client(url) as (r, w, _), ClientSession(r, w) as s:
        await s.initialize()
        assert (await s.list_tools()).tools
        for _ in range(calls):
            await s.call_tool("no_such_tool", {})


def _wait_for(predicate, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    return predicate()


def test_an_mcp_client_that_closes_is_recorded_at_once_one_that_only_listed_never(tmp_path):
    run = tmp_path / "run"
    store = SessionStore(ServeRecorder(run), idle_timeout=300.0)
    port = free_port()
    with serving(http_app(store, port), port) as url:
        asyncio.run(_session(f"{url}/mcp?seed=1", calls=0))
        asyncio.run(_session(f"{url}/mcp?seed=2", calls=2))
        assert _wait_for(lambda: len(store) == 0)  # both forgotten, not left for 300 s
        (rec,) = _records(run, store)
        assert rec["cut"] == "closed" and len(rec["steps"]) == 2
    store.recorder.close()
    assert len(_records(run)) == 1  # stopping the server adds nothing


def test_stopping_the_mcp_server_records_an_open_session_that_made_a_call(tmp_path):
    run = tmp_path / "run"
    store = SessionStore(ServeRecorder(run), idle_timeout=300.0)
    port = free_port()

    def stop(server) -> None:
        server.should_exit = True
        server.thread.join(timeout=30)

    async def call_then_stop(url, server):
        async with streamable_http_client(f"{url}/mcp?seed=3") as (r, w, _), \
                ClientSession(r, w) as s:
            await s.initialize()
            await s.call_tool("no_such_tool", {})
            await asyncio.to_thread(stop, server)
            assert not server.thread.is_alive()

    with serving_server(http_app(store, port), port, timeout_graceful_shutdown=2) \
            as (url, server):
        try:
            asyncio.run(call_then_stop(url, server))
        except* Exception:  # the client's hang-up on a stopped server
            pass
    store.recorder.close()
    (rec,) = _records(run)
    assert rec["cut"] == "shutdown" and len(rec["steps"]) == 1


# -- toolmaze serve as a user runs it, stopped by a signal -----------------------------------

MCP_CLIENT = """
import asyncio, sys
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

async def main(url, calls):
    async with streamable_http_client(url) as (r, w, _), ClientSession(r, w) as s:
        await s.initialize()
        assert (await s.list_tools()).tools
        for _ in range(calls):
            await s.call_tool("no_such_tool", {})
        print("ready", flush=True)
        await asyncio.sleep(600)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""

OPENENV_CLIENT = """
import asyncio, sys
from toolmaze_gym.openenv import ToolMazeEnv

async def main(url, calls):
    async with ToolMazeEnv(base_url=url.rsplit("/", 1)[0]) as env:
        await env.reset(level="C1", seed=4)
        assert await env.list_tools()
        for _ in range(calls):
            await env.call_tool("no_such_tool")
        print("ready", flush=True)
        await asyncio.sleep(600)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


@pytest.mark.slow  # ~10 s each: three interpreters
@pytest.mark.parametrize("protocol", ["mcp", "openenv"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signalled_server_records_each_open_session_that_made_a_call(tmp_path, protocol,
                                                                         sig):
    if protocol == "openenv":
        pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")
    port, run = free_port(), tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    server = subprocess.Popen([sys.executable, "-m", "toolmaze_gym.cli", "serve", "--out",
                               str(run), "--port", str(port), "--protocol", protocol],
                              stderr=subprocess.PIPE, text=True, env=env)
    clients = []
    try:
        assert f"{protocol} on http://127.0.0.1" in server.stderr.readline()
        for calls in (0, 2, 1):
            clients.append(subprocess.Popen(
                [sys.executable, "-c", MCP_CLIENT if protocol == "mcp" else OPENENV_CLIENT,
                 f"http://127.0.0.1:{port}/mcp", str(calls)],
                stdout=subprocess.PIPE, text=True, env=env))
        for client in clients:
            assert client.stdout.readline().strip() == "ready"
        server.send_signal(sig)
        _, err = server.communicate(timeout=60)
    finally:
        for proc in (server, *clients):
            proc.kill()
            proc.wait()
    assert server.returncode == 0 and "2 episodes recorded" in err, err
    assert "Traceback" not in err
    recs = _records(run)
    assert sorted(len(r["steps"]) for r in recs) == [1, 2]
    assert {r["cut"] for r in recs} <= {"shutdown", "closed"}

