"""Steps per second through the servers, as a ratio against in-process ``env.step``
measured in the same run, beside issue 32's targets.

Workload: the oracle's calls on tasks 0..N-1 of one cell (default 128 C2P1 episodes),
replayed.

* in-process: ``gym.make`` + ``reset`` + ``step`` per call (the floor the servers add to).
* OpenEnv /ws: OpenEnv's client, ``reset`` and ``step(CallToolAction)`` over the
  WebSocket (the Gym control plane), 1 session playing the N episodes in turn, then
  32 and 128 sessions at once (the N episodes shared among them).
* OpenEnv /mcp: the same with ``call`` (``tools/call`` JSON-RPC over HTTP, the MCP plane).
* MCP: ``toolmaze serve`` (streamable HTTP) with the MCP SDK's client.
* Workers: the same sessions spread over ``toolmaze serve --workers N`` (session k on
  worker k mod N), as a trainer given every worker's URL (or several replicas') spreads
  them; on a 2-core machine the client and N workers share the cores.

The servers run in their own processes (``toolmaze serve``), writing and fsync'ing
every graded record as in real use; clients run in this one, so on a small machine the
client's own cost is in every figure. Each server first plays the whole workload once
(its caches warm, as the in-process figure is the best of three). Steps counted are
tool calls (resets and session set-up are in the time, not in the count). Each row also
says the CPU time per call of the server (its processes, workers included) and of the
client (this process), where ``/proc`` can be read (Linux): which side a row waits on.
Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/bench_serve.py
[--episodes 128] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
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


# issue 32: the least share of in-process env.step each path must reach at 32 sessions
TARGETS = {"OpenEnv /ws step": 0.25, "OpenEnv /mcp tools/call": 0.15,
           "MCP toolmaze serve": 0.10}


def tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of process ``pid`` and its descendants so far, read
    from ``/proc``; None where there is no ``/proc``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        kids = [int(k) for t in Path(f"/proc/{pid}/task").iterdir()
                for k in (t / "children").read_text().split()]
    except OSError:
        return None
    own = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(tree_cpu(k) or 0.0 for k in kids)


@contextlib.contextmanager
def servers(protocol: str, workers: int) -> Iterator[tuple[list[str], int]]:
    """``toolmaze serve --workers N`` on free ports; yields the workers' base URLs and
    the server's process id."""
    out = tempfile.mkdtemp(prefix="bench-serve-")
    with socket.socket() as s:  # one server: a free port of its own, as before --workers
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    many = ["--port", "0", "--workers", str(workers)] if workers > 1 else ["--port", str(port)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolmaze_gym.cli", "serve", "--protocol", protocol,
         "--out", f"{out}/run", *many, "--max-sessions", "256"],
        stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        banner = proc.stderr.readline()  # said once every worker listens
        urls = re.findall(r"http://127\.0\.0\.1:\d+", banner)
        if len(urls) != workers:
            raise RuntimeError(f"the {protocol} server did not start: {banner}")
        yield urls, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=120)


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
    """A client session of the MCP SDK per episode, over one HTTP client per simulated
    trainer process (its TLS context shared: see toolmaze_gym.openenv.client)."""
    import httpx
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with httpx.AsyncClient(verify=TLS, follow_redirects=True,
                                 timeout=httpx.Timeout(30, read=300)) as http:
        for seed, calls in plans:
            query = f"level={CELL[:2]}&mode={CELL[2:]}&seed={seed}"
            async with streamable_http_client(f"{url}/mcp?{query}", http_client=http) \
                    as (r, w, _), ClientSession(r, w) as session:
                await session.initialize()
                for name, args in calls:
                    await session.call_tool(name, args)


def through(play, urls: list[str], plans: dict[int, list], sessions: int, plane: str
            ) -> float:
    """Seconds for ``sessions`` clients at once to play ``plans`` (session k takes every
    k-th episode, on server k mod len(urls))."""
    items = list(plans.items())
    shares = [items[k::sessions] for k in range(sessions)]

    async def run():
        await asyncio.gather(*(play(urls[k % len(urls)], share, plane)
                               for k, share in enumerate(shares) if share))

    t0 = time.perf_counter()
    asyncio.run(run())
    return time.perf_counter() - t0


CELL = "C2P1"
TLS = None  # one TLS context for every MCP client (set in main)


def main() -> None:
    global CELL, TLS
    import httpx

    TLS = httpx.create_ssl_context()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=128)
    ap.add_argument("--cell", default="C2P1")
    ap.add_argument("--sessions", default="1,32,128",
                    help="concurrent sessions per row, comma-separated (default 1,32,128)")
    ap.add_argument("--workers", type=int, default=2,
                    help="worker processes for the multi-process rows (0: none; default 2)")
    ap.add_argument("--only", choices=("ws", "mcp", "serve"), action="append",
                    help="measure only these paths (repeatable; default all)")
    ns = ap.parse_args()
    CELL = ns.cell
    counts = [int(c) for c in ns.sessions.split(",")]
    plans = {s: oracle_calls(CELL, s) for s in range(ns.episodes)}
    steps = sum(len(c) for c in plans.values())
    base = min(in_process(CELL, plans) for _ in range(3))
    print(f"{ns.episodes} {CELL} episodes, {steps} tool calls; machine: {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"in-process env.step: {steps / base:10.0f} steps/s")
    rows = [("OpenEnv /ws step", "openenv", openenv_episodes, "ws"),
            ("OpenEnv /mcp tools/call", "openenv", openenv_episodes, "mcp"),
            ("MCP toolmaze serve", "mcp", mcp_episodes, "serve")]
    for label, protocol, play, plane in rows:
        if ns.only and plane not in ns.only:
            continue
        target = TARGETS[label]
        for workers in sorted({1, ns.workers} - {0}):
            with servers(protocol, workers) as (urls, pid):
                through(play, urls, plans, 8, plane)  # warm: every tool and grader cache
                for sessions in counts if workers == 1 else [c for c in counts if c > 1]:
                    server0, client0 = tree_cpu(pid), time.process_time()
                    t = through(play, urls, plans, sessions, plane)
                    server1, client1 = tree_cpu(pid), time.process_time()
                    ratio = base / t
                    where = f"{workers} workers" if workers > 1 else "1 worker"
                    mark = ("meets" if ratio >= target else "below") if sessions >= 32 else ""
                    print(f"{label:24s} {where:9s} {sessions:3d} sessions: {steps / t:6.0f} "
                          f"steps/s = {ratio:.3f}x in-process (target {target:.2f}x at "
                          f"32+) {mark}")
                    if server0 is not None and server1 is not None:
                        print(f"{'':24s} {'':9s} {'':3s}  CPU per call: server "
                              f"{1e3 * (server1 - server0) / steps:.2f} ms, client "
                              f"{1e3 * (client1 - client0) / steps:.2f} ms")


if __name__ == "__main__":
    main()
