"""Steps per second through the servers, as a ratio against in-process ``env.step``
measured in the same run.

Workload: the oracle's calls on tasks 0..N-1 of one cell (default C2P1), replayed.

* in-process: ``gym.make`` + ``reset`` + ``step`` per call (the floor the servers add to).
* OpenEnv /ws: OpenEnv's client, ``reset`` and ``step(CallToolAction)`` over the
  WebSocket (the Gym control plane), 1 session playing the N episodes in turn, then
  32 sessions at once (the N episodes shared among them).
* OpenEnv /mcp: the same with ``call`` (``tools/call`` JSON-RPC over HTTP, the MCP plane).
* MCP: ``toolmaze serve`` (streamable HTTP) with the MCP SDK's client.

The servers run in their own process (``toolmaze serve``), writing and fsync'ing every
graded record as in real use; clients run in this one. Steps counted are tool calls
(resets and session set-up are in the time, not in the count). Prints figures;
asserts nothing. Run: .venv/bin/python benchmarks/bench_serve.py [--episodes 32]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.agents import make_scripted

ROOT = Path(__file__).resolve().parents[1]


def oracle_calls(cell: str, seed: int) -> list[tuple[str, dict]]:
    env = gym.make(f"ToolMaze-{cell}-v0")
    _, info = env.reset(seed=seed)
    agent = make_scripted("oracle", env.unwrapped.sim)
    agent.reset(env.unwrapped.episode.task, info["tools"], info["mode"])
    calls, done = [], False
    while not done:
        action = json.loads(agent.act(env.unwrapped.messages))
        calls.append((action["name"], action["arguments"]))
        done = any(env.step(json.dumps(action))[2:4])
    return calls


def in_process(cell: str, plans: dict[int, list]) -> float:
    env = gym.make(f"ToolMaze-{cell}-v0")
    t0 = time.perf_counter()
    for seed, calls in plans.items():
        env.reset(seed=seed)
        for name, args in calls:
            env.step(json.dumps({"name": name, "arguments": args}))
    return time.perf_counter() - t0


@contextlib.contextmanager
def server(protocol: str) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tempfile.mkdtemp(prefix="bench-serve-")
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolmaze_gym.cli", "serve", "--protocol", protocol, "--out",
         f"{out}/run", "--port", str(port), "--max-sessions", "64"],
        stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        proc.stderr.readline()
        deadline = time.monotonic() + 60
        while True:  # the banner comes before uvicorn listens
            with socket.socket() as s, contextlib.suppress(OSError):
                s.connect(("127.0.0.1", port))
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {protocol} server did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=60)


async def openenv_episodes(url: str, plans: list[tuple[int, list]], plane: str) -> None:
    from openenv.core.env_server.mcp_types import CallToolAction
    from toolmaze_gym.openenv import ToolMazeEnv

    async with ToolMazeEnv(base_url=url) as env:
        for seed, calls in plans:
            await env.reset(level=CELL[:2], mode=CELL[2:], seed=seed)
            for name, args in calls:
                if plane == "ws":
                    await env.step(CallToolAction(tool_name=name, arguments=args))
                else:
                    await env.call(name, args)


async def mcp_episodes(url: str, plans: list[tuple[int, list]], _: str) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    for seed, calls in plans:
        query = f"level={CELL[:2]}&mode={CELL[2:]}&seed={seed}"
        async with streamable_http_client(f"{url}/mcp?{query}") as (r, w, _), \
                ClientSession(r, w) as session:
            await session.initialize()
            for name, args in calls:
                await session.call_tool(name, args)


def through(play, url: str, plans: dict[int, list], sessions: int, plane: str) -> float:
    items = list(plans.items())
    shares = [items[k::sessions] for k in range(sessions)]

    async def run():
        await asyncio.gather(*(play(url, share, plane) for share in shares if share))

    t0 = time.perf_counter()
    asyncio.run(run())
    return time.perf_counter() - t0


CELL = "C2P1"


def main() -> None:
    global CELL
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--cell", default="C2P1")
    ns = ap.parse_args()
    CELL = ns.cell
    plans = {s: oracle_calls(CELL, s) for s in range(ns.episodes)}
    steps = sum(len(c) for c in plans.values())
    base = min(in_process(CELL, plans) for _ in range(3))
    print(f"{ns.episodes} {CELL} episodes, {steps} tool calls; machine: {os.cpu_count()} CPUs")
    print(f"in-process env.step: {steps / base:10.0f} steps/s")
    rows = [("OpenEnv /ws step", "openenv", openenv_episodes, "ws"),
            ("OpenEnv /mcp tools/call", "openenv", openenv_episodes, "mcp"),
            ("MCP toolmaze serve", "mcp", mcp_episodes, "mcp")]
    for label, protocol, play, plane in rows:
        with server(protocol) as url:
            through(play, url, dict(list(plans.items())[:2]), 1, plane)  # warm up
            for sessions in (1, 32):
                t = through(play, url, plans, sessions, plane)
                print(f"{label:24s} {sessions:2d} sessions: {steps / t:8.0f} steps/s "
                      f"= {base / t:.4f}x in-process")


if __name__ == "__main__":
    main()
