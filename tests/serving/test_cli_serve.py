"""``toolmaze serve`` as a user runs it: the console command serves an MCP client, stops
on Ctrl-C, and ``toolmaze report`` reads its run directory like an eval run."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is in the [serve] extra")

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.serving._episodes import oracle_calls
from tests.serving._server import free_port
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX

CLI = [sys.executable, "-m", "toolmaze_gym.cli"]


async def _play(url: str, calls) -> list:
    async with streamable_http_client(url) as (r, w, _), ClientSession(r, w) as session:
        await session.initialize()
        return [await session.call_tool(n, json.loads(a)) for n, a in calls]


@pytest.mark.slow  # ~20 s: two interpreters and a full report
def test_serve_records_what_report_reads(tmp_path):
    port, run = free_port(), tmp_path / "run"
    proc = subprocess.Popen([*CLI, "serve", "--out", str(run), "--port", str(port),
                             "--agent", "cli-agent", "--level", "C1", "--mode", "P1"],
                            stderr=subprocess.PIPE, text=True, env={**os.environ})
    try:
        assert "mcp on http://127.0.0.1" in proc.stderr.readline()
        url = f"http://127.0.0.1:{port}/mcp"
        results = asyncio.run(_play(f"{url}?seed=2", oracle_calls("C1", "P1", 2)))
        assert json.loads(results[-1].content[-1].text)["success"]
        fixed = asyncio.run(_play(f"{url}?mode=P2", (("abort", '{"reason": "x"}'),)))
        assert fixed[0].isError and "fixes mode" in fixed[0].content[0].text
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "1 episodes recorded" in err and "Traceback" not in err
    out = subprocess.run([*CLI, "report", str(run), "--out", str(tmp_path / "rep"),
                          "--resamples", "0", "--max-pages", "1"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "cli-agent" in (tmp_path / "rep" / "results.md").read_text()


@pytest.mark.parametrize("protocol", ["mcp", "openenv"])
def test_serve_listens_before_it_says_so(tmp_path, protocol):
    """A client that connects the moment it reads the announcement finds the port open
    (it was announced before uvicorn bound, and a loaded CI machine lost the race)."""
    port = free_port()
    proc = subprocess.Popen([*CLI, "serve", "--protocol", protocol, "--out",
                             str(tmp_path / "r"), "--port", str(port)],
                            stderr=subprocess.PIPE, text=True)
    try:
        assert f"{protocol} on http://127.0.0.1:{port}" in proc.stderr.readline()
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err


def test_serve_on_a_taken_port_is_one_line(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        out = subprocess.run([*CLI, "serve", "--out", str(tmp_path / "r"), "--port",
                              str(port)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and f"cannot serve on 127.0.0.1:{port}" in out.stderr
    assert len(out.stderr.splitlines()) == 1


@pytest.mark.parametrize("flags, words", [
    (["--mode", "P9"], "P9"), (["--task", "tmz-nope"], "no task 'tmz-nope'"),
    (["--host", "0.0.0.0"], "this machine only"), (["--idle-timeout", "0"], "positive")])
def test_serve_mistakes_are_one_line(tmp_path, flags, words):
    out = subprocess.run([*CLI, "serve", "--out", str(tmp_path / "r"), *flags],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and words in out.stderr and len(out.stderr.splitlines()) == 1


def test_serve_over_stdio_plays_one_episode(tmp_path):
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    run = tmp_path / "run"
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "toolmaze_gym.cli", "serve", "--transport", "stdio", "--out", str(run),
        "--level", "C1", "--mode", "P1", "--seed", "2"], env={**os.environ})

    async def play():
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            tools = [t.name for t in (await session.list_tools()).tools]
            results = [await session.call_tool(n, json.loads(a))
                       for n, a in oracle_calls("C1", "P1", 2)]
            return tools, results

    tools, results = asyncio.run(play())
    # P1: the victim's first call fails once, and the oracle retries it
    assert tools[-2:] == ["finish", "abort"] and sum(r.isError for r in results) == 1
    assert json.loads(results[-1].content[-1].text)["success"]
    (line,) = (run / "records.jsonl").read_text().splitlines()
    assert json.loads(line)["task_id"] == f"{ID_PREFIX}-c1-0002"
