"""The verifiers taskset over running ToolMaze servers (``urls``, issue 32).

Two real ``toolmaze serve`` processes on free ports; rollouts go through the taskset's
real pieces (the task's ``setup``, which pins a rollout to a server; the toolset as the
rollout's MCP tool server, now an MCP client of that server; ``Task.score``). The
servers need the MCP SDK 1.x of the main venv while verifiers pins 2.0, so they run in
``TOOLMAZE_SERVE_PYTHON`` (``make verifiers-test`` passes the main venv's python).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

vf = pytest.importorskip("verifiers.v1", reason="verifiers is not installed here (it needs "
                         "its own venv: make verifiers-test)")
pytest.importorskip("toolmaze_verifiers", reason="integrations/verifiers is not installed")

from mcp.server.mcpserver import MCPServer  # noqa: E402
from pydantic import ValidationError  # noqa: E402
from verifiers.v1.utils.loaders import taskset_config_type  # noqa: E402

from tests.integrations._scripted_endpoint import ScriptedEndpoint  # noqa: E402
from tests.integrations.test_verifiers import TASKSET, _serve, _task, _trace  # noqa: E402
from tests.serving._episodes import oracle_calls  # noqa: E402
from tests.serving._server import free_port  # noqa: E402

SERVE_PYTHON = os.environ.get("TOOLMAZE_SERVE_PYTHON", "")
pytestmark = pytest.mark.skipif(
    not SERVE_PYTHON or not Path(SERVE_PYTHON).exists(),
    reason="set TOOLMAZE_SERVE_PYTHON to a python with toolmaze-gym[serve] (mcp 1.x)")


def _wait_for(port: int, proc: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"toolmaze serve on {port} exited: {proc.stderr.read()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"toolmaze serve on {port} did not start")


def _stop(procs: list[subprocess.Popen]) -> None:
    """Stop the servers as Ctrl-C does: each writes out its records."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        proc.wait(timeout=30)


@contextlib.contextmanager
def _serving(tmp_path: Path, *flags: list[str]
             ) -> Iterator[tuple[list[tuple[str, Path]], Callable[[], None]]]:
    """One ``toolmaze serve`` process per entry of ``flags``; yields their (URL, run
    directory) and a function that stops them (their records are complete after it)."""
    procs, out = [], []
    try:
        for k, extra in enumerate(flags):
            port, run = free_port(), tmp_path / f"run{k}"
            proc = subprocess.Popen(
                [SERVE_PYTHON, "-m", "toolmaze_gym.cli", "serve", "--out", str(run),
                 "--port", str(port), "--agent", "vf", *extra],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            procs.append(proc)
            _wait_for(port, proc)
            out.append((f"http://127.0.0.1:{port}", run))
        yield out, lambda: _stop(procs)
    finally:
        _stop(procs)


@pytest.fixture
def servers(tmp_path):
    """Two plain ``toolmaze serve`` processes (see :func:`_serving`)."""
    with _serving(tmp_path, [], []) as both:
        yield both


def _records(run: Path) -> list[dict]:
    path = run / "records.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def _rollout(task, calls) -> tuple[str, list[str], list[bool], vf.Trace]:
    """One rollout as verifiers runs it: ``setup`` on a fresh trace, then the toolset
    handed the trace's row, the calls through its MCP server, the scoring."""
    opening = _trace(task, [])
    await task.setup(opening, None)
    data = opening.task.data
    (toolset,) = type(task).toolsets(task.config)
    await toolset.setup_task(data)
    try:
        mcp = MCPServer("toolmaze")
        toolset.register(mcp)
        listed = await _listed(mcp)
        results = [await mcp.call_tool(name, json.loads(args)) for name, args in calls]
    finally:
        await toolset.close()
    texts = [r.content[0].text for r in results]
    turns = [([c], [t], None) for c, t in zip(calls, texts, strict=True)]
    trace = _trace(task, [*turns, ([], [], "Done.")])
    await task.score(trace)
    trace.info["listed"] = listed
    return data.server, texts, [bool(r.is_error) for r in results], trace


async def _listed(mcp: MCPServer) -> list[tuple]:
    """What the harness lists to the model: each tool's name, description and schema."""
    return [(t.name, t.description, t.input_schema) for t in await mcp.list_tools()]


def _in_process(level, mode, seed, calls) -> tuple[list[str], vf.Trace]:
    task = _task(level, mode, seed)
    _, texts, _ = asyncio.run(_serve(task, calls))
    trace = _trace(task, [*[([c], [t], None) for c, t in zip(calls, texts, strict=True)],
                          ([], [], "Done.")])
    asyncio.run(task.score(trace))
    (toolset,) = type(task).toolsets(task.config)
    asyncio.run(toolset.setup_task(task.data))
    mcp = MCPServer("toolmaze")
    toolset.register(mcp)
    trace.info["listed"] = asyncio.run(_listed(mcp))
    return texts, trace


def test_rollouts_spread_over_the_servers_and_score_as_in_process(servers):
    servers, stop = servers
    urls = [u for u, _ in servers]
    plays = [("C2", "P2", 3), ("C2", "P2", 3), ("C1", "P1", 2)]  # a row twice, then another
    got = []
    for level, mode, seed in plays:
        task = _task(level, mode, seed, urls=urls)
        calls = oracle_calls(level, mode, seed)
        got.append((asyncio.run(_rollout(task, calls)), _in_process(level, mode, seed, calls)))
    # in turn, each rollout pinned: the repeated row played once on each server
    assert [server for (server, *_), _ in got] == [urls[0], urls[1], urls[0]]
    for (_, texts, _, trace), (ref_texts, ref) in got:
        assert trace.info["listed"] == ref.info["listed"]  # the same tools, get_task not
        assert texts == ref_texts  # the server's answers are the in-process ones, faults too
        assert trace.metrics["replay_match"] == 1.0
        assert trace.rewards["toolmaze_reward"].score == ref.rewards["toolmaze_reward"].score
        assert trace.info["toolmaze"]["grade"] == ref.info["toolmaze"]["grade"]
        assert trace.metrics["success"] == 1.0
    assert any(got[0][0][2])  # P2: a fault came back as an error
    stop()
    records = {url: _records(run) for url, run in servers}
    want = {urls[0]: [got[0][0][3], got[2][0][3]], urls[1]: [got[1][0][3]]}
    for url, traces in want.items():  # each server recorded the episodes it played
        assert [r["task_id"] for r in records[url]] == [
            t.info["toolmaze"]["task_id"] for t in traces]
        assert [r["grade"] for r in records[url]] == [t.info["toolmaze"]["grade"]
                                                       for t in traces]
        assert {r["agent"] for r in records[url]} == {"vf"}


def test_a_call_after_the_end_gets_the_in_process_answer(servers):
    urls = [u for u, _ in servers[0]]
    task = _task("C1", "P0", 0, urls=urls[:1])
    calls = [*oracle_calls("C1", "P0", 0), ("abort", '{"reason": "again"}')]
    _, texts, errors, _ = asyncio.run(_rollout(task, calls))
    _, ref_texts, ref_errors = asyncio.run(_serve(_task("C1", "P0", 0), calls))
    assert (texts, errors) == (ref_texts, ref_errors)
    assert "get_task" not in texts[-1]  # the model never hears of the server's own tool


def test_an_unreachable_server_is_named_in_one_line():
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    task = _task("C1", "P0", 0, urls=[url])
    with pytest.raises(ConnectionError) as caught:
        asyncio.run(_rollout(task, oracle_calls("C1", "P0", 0)))
    message = str(caught.value)
    assert url in message and "unreachable" in message and "\n" not in message


def test_a_server_fixed_to_other_episodes_refuses_the_row_by_name(tmp_path):
    with _serving(tmp_path, ["--mode", "P0"]) as (((url, _),), _):
        task = _task("C1", "P2", 0, urls=[url])
        with pytest.raises(ConnectionError) as caught:
            asyncio.run(_rollout(task, oracle_calls("C1", "P2", 0)))
    message = str(caught.value)
    assert message.startswith(f"ToolMaze server {url} refused the episode: ")
    assert "fixes mode" in message and "\n" not in message


def test_a_server_playing_another_episode_is_refused():
    from toolmaze_verifiers.remote import check_opening

    data = _task("C1", "P2", 0).data
    mine = {"task_id": data.task_id, "mode": "P2", "prompt": "standard", "level": "C1"}
    check_opening("http://s:1", data, mine)
    for other in ({"task_id": "tmz-v5-c1-0001"}, {"mode": "P0"}, {"prompt": "failure_aware"}):
        with pytest.raises(ConnectionError, match=r"^ToolMaze server http://s:1 plays another"):
            check_opening("http://s:1", data, {**mine, **other})


@pytest.mark.parametrize("given, words", [(["http://a:1", "http://a:1/"], "names a server twice"),
                                          (["127.0.0.1:8765"], "is not http"),
                                          ("http://a:1,", "an empty entry")])
def test_bad_server_urls_are_refused_by_name(given, words):
    with pytest.raises(ValidationError, match=f"ToolMaze server.*{words}"):
        taskset_config_type(TASKSET)(id=TASKSET, urls=given)


def _vf_eval(calls, out: Path, urls: list[str], *options: str) -> list[dict]:
    """The real ``vf-eval`` on row C2/P2/3 over ``urls``, against a scripted endpoint
    that plays ``calls``; the traces it wrote."""
    vf_eval = Path(sys.executable).with_name("vf-eval")
    if shutil.which("uv", path=os.pathsep.join([str(vf_eval.parent), os.environ["PATH"]])) is None:
        pytest.skip("verifiers' chat harness needs uv (make verifiers-test installs it)")
    with ScriptedEndpoint(calls) as endpoint:
        run = subprocess.run(
            [str(vf_eval), TASKSET, "-m", "scripted-oracle", "--client.base-url", endpoint,
             "--client.api-key-var", "SCRIPTED_KEY", "--env.taskset.level", "C2",
             "--env.taskset.mode", "P2", "--env.taskset.n", "4", "--env.taskset.urls",
             *urls, "--select.include.idx", "3", *options, "--env.agent.runtime.type",
             "subprocess", "--env.agent.max-turns", "30", "--no-push", "-c", "1",
             "-o", str(out)],
            capture_output=True, text=True, timeout=600,
            env={**os.environ, "SCRIPTED_KEY": "none",
                 "PATH": os.pathsep.join([str(vf_eval.parent), os.environ["PATH"]])})
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return [t for line in next(out.glob("*/traces.jsonl")).read_text().splitlines()
            for t in json.loads(line)["traces"]]


@pytest.mark.slow
def test_vf_eval_spreads_a_rows_rollouts_over_the_servers(servers, tmp_path):
    """The real ``vf-eval`` with ``--env.taskset.urls``: two rollouts of one row (the
    scripted endpoint plays the oracle in each), one on each server; each trace's reward
    is the in-process one and each server recorded the episode it played."""
    served, stop = servers
    urls = [u for u, _ in served]
    calls = oracle_calls("C2", "P2", 3)
    traces = _vf_eval(calls, tmp_path / "eval", urls, "-r", "2")
    assert sorted(t["task"]["data"]["server"] for t in traces) == sorted(urls)
    _, ref = _in_process("C2", "P2", 3, calls)
    for trace in traces:
        assert not trace["errors"], trace["errors"]
        assert trace["metrics"]["replay_match"] == 1.0 and trace["metrics"]["success"] == 1.0
        assert trace["rewards"]["toolmaze_reward"]["score"] == pytest.approx(
            ref.rewards["toolmaze_reward"].score)
    stop()
    for url, run_dir in served:
        (record,) = _records(run_dir)
        assert record["task_id"] == ref.info["toolmaze"]["task_id"]
        assert record["grade"] == ref.info["toolmaze"]["grade"], url


@pytest.mark.slow
def test_a_rollout_that_stops_early_is_closed_on_its_server_at_once(servers, tmp_path):
    """The model stops after two calls: when verifiers stops the rollout's tool server,
    its MCP session ends, so the server records the episode then (cut ``closed``), not
    when the server itself stops."""
    served, stop = servers
    (trace,) = _vf_eval(oracle_calls("C2", "P2", 3)[:2], tmp_path / "eval", [served[0][0]])
    assert trace["metrics"]["success"] == 0.0 and trace["metrics"]["replay_match"] == 1.0
    stop()
    (record,) = _records(served[0][1])
    assert record["cut"] == "closed" and len(record["steps"]) == 2
