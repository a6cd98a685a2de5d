"""``toolmaze serve --workers N``: N server processes, each holding the sessions it
opened on its own port, all recorded in one run directory that reports read as one run."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys

import pytest

pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")

from tests.serving._episodes import oracle_calls

CLI = [sys.executable, "-m", "toolmaze_gym.cli"]


def _start(tmp_path, *flags):
    proc = subprocess.Popen([*CLI, "serve", "--protocol", "openenv", "--out",
                             str(tmp_path / "run"), *flags], stderr=subprocess.PIPE, text=True)
    banner = proc.stderr.readline()
    return proc, banner


def _stop(proc):
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    return err


def _records(tmp_path):
    lines = (tmp_path / "run" / "records.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _play(url, seed=None):
    """One C1 P1 episode on ``url`` to its end (the oracle's calls when ``seed`` is
    given, else the task the server walks to, answered at once); returns its task id."""
    from openenv.core.env_server.mcp_types import CallToolAction
    from toolmaze_gym.openenv import ToolMazeEnv

    with ToolMazeEnv(base_url=url).sync() as env:
        given = {"level": "C1", "mode": "P1"} | ({"seed": seed} if seed is not None else {})
        obs = env.reset(**given).observation
        calls = oracle_calls("C1", "P1", seed) if seed is not None else \
            [("abort", '{"reason": "x"}')]
        for name, args in calls:
            result = env.step(CallToolAction(tool_name=name, arguments=json.loads(args)))
        assert result.done
        return obs.task_id


@pytest.mark.slow  # ~40 s: three interpreters on two cores
def test_two_workers_serve_on_their_own_ports_and_record_in_one_run(tmp_path):
    proc, banner = _start(tmp_path, "--workers", "2", "--port", "0")
    try:
        assert "2 workers on" in banner, banner
        urls = [w.rstrip(";,") for w in banner.split() if w.startswith("http://")]
        assert len(urls) == 2 and len(set(urls)) == 2
        walked = [_play(url) for url in urls]  # no seed: each worker walks its own share
        played = [_play(url, seed=3) for url in urls]  # the same task on both
    finally:
        err = _stop(proc)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert "4 episodes recorded" in err
    assert walked[0] != walked[1]  # worker 0 took the level's first task, worker 1 the next
    records = _records(tmp_path)
    assert sorted(r["task_id"] for r in records) == sorted(walked + played)
    same = sorted(r["key"] for r in records if r["task_id"] == played[0])
    assert same == [f"{played[0]}/P1/standard/0", f"{played[0]}/P1/standard/1"]
    assert all(r["grade"]["success"] for r in records if r["task_id"] == played[0])


@pytest.mark.slow  # ~20 s
def test_a_worker_whose_port_is_taken_stops_them_all_in_one_line(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1] - 1  # the second worker's port is the taken one
        out = subprocess.run([*CLI, "serve", "--protocol", "openenv", "--out",
                              str(tmp_path / "run"), "--workers", "2", "--port", str(port)],
                             capture_output=True, text=True, timeout=180)
    assert out.returncode == 2, out.stderr
    assert "worker 1 could not start" in out.stderr and str(port + 1) in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("flags, words", [
    (["--workers", "0"], "--workers"),
    (["--workers", "2", "--transport", "stdio", "--protocol", "mcp"], "stdio"),
    (["--workers", "3", "--port", "65534"], "past port 65535")])
def test_worker_mistakes_are_one_line(tmp_path, flags, words):
    args = [*CLI, "serve", "--out", str(tmp_path / "run"), *flags]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr


def _worker_on(proc, url):
    """The worker process of ``proc`` listening on ``url``'s port."""
    psutil = pytest.importorskip("psutil")
    port = int(url.rsplit(":", 1)[1])
    for child in psutil.Process(proc.pid).children():
        with contextlib.suppress(psutil.Error):
            if any(c.laddr.port == port and c.status == psutil.CONN_LISTEN
                   for c in child.net_connections("tcp")):
                return child
    raise AssertionError(f"no worker listens on {url}")


@pytest.mark.slow  # ~40 s: three interpreters, one started twice
def test_a_killed_worker_is_started_again_and_the_others_sessions_go_on(tmp_path):
    """Before: the parent stopped every worker (the other's open episode cut
    'shutdown'), said nothing for 60 s, and exited 1."""
    from openenv.core.env_server.mcp_types import CallToolAction
    from toolmaze_gym.openenv import ToolMazeEnv

    proc, banner = _start(tmp_path, "--workers", "2", "--port", "0")
    try:
        urls = [w.rstrip(";,") for w in banner.split() if w.startswith("http://")]
        done_before = _play(urls[1], seed=2)  # recorded before the kill, once
        with ToolMazeEnv(base_url=urls[0]).sync() as survivor, \
                ToolMazeEnv(base_url=urls[1]).sync() as victim:
            kept = survivor.reset(level="C1", mode="P1", seed=3).observation.task_id
            survivor.step(CallToolAction(tool_name="no_such_tool", arguments={}))
            victim.reset(level="C1", mode="P1", seed=4)
            victim.step(CallToolAction(tool_name="no_such_tool", arguments={}))
            killed = _worker_on(proc, urls[1])
            killed.kill()
            said = proc.stderr.readline() + proc.stderr.readline()
            assert "worker 1" in said and "SIGKILL" in said and "serves again" in said, said
            ended = survivor.step(CallToolAction(tool_name="abort", arguments={"reason": "x"}))
            assert ended.done  # worker 0 never noticed
        again = _play(urls[1], seed=5)  # the same URL serves new sessions
        assert _worker_on(proc, urls[1]).pid != killed.pid
    finally:
        err = _stop(proc)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert "worker 1 was started again 1 time(s)" in err
    records = _records(tmp_path)
    assert sorted(r["task_id"] for r in records) == sorted([done_before, kept, again])
    abort = [r for r in records if r["grade"]["ended_by"] == "abort"]
    assert len(abort) == 1 and abort[0].get("cut") is None and len(abort[0]["steps"]) == 2
    assert len(records) == 3  # the killed worker's open episode died with it, not doubled


@pytest.mark.slow  # ~20 s
def test_workers_whose_parent_is_killed_outright_stop_on_their_own(tmp_path):
    """Before: they served on for ever, holding their ports, records going nowhere."""
    psutil = pytest.importorskip("psutil")
    proc, _ = _start(tmp_path, "--workers", "2", "--port", "0")
    workers = [c for c in psutil.Process(proc.pid).children()
               if "resource_tracker" not in " ".join(c.cmdline())]
    assert len(workers) == 2
    proc.kill()
    proc.wait()
    _, alive = psutil.wait_procs(workers, timeout=30)
    for straggler in alive:  # the test's own cleanup, after the assert's evidence
        straggler.kill()
    assert not alive, [p.pid for p in alive]


@pytest.mark.slow  # ~30 s each: three interpreters
@pytest.mark.parametrize("whom", ["parent", "group"])
def test_ctrl_c_records_each_workers_open_episode_once_and_leaves_no_worker(tmp_path, whom):
    """SIGINT to the parent alone (``kill -INT``), or to its whole process group as a
    terminal's Ctrl-C sends it, parent and workers at once."""
    import os

    from openenv.core.env_server.mcp_types import CallToolAction
    from toolmaze_gym.openenv import ToolMazeEnv

    psutil = pytest.importorskip("psutil")
    proc = subprocess.Popen([*CLI, "serve", "--protocol", "openenv", "--out",
                             str(tmp_path / "run"), "--workers", "2", "--port", "0"],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        urls = [w.rstrip(";,") for w in proc.stderr.readline().split()
                if w.startswith("http://")]
        workers = psutil.Process(proc.pid).children()
        with ToolMazeEnv(base_url=urls[0]).sync() as a, ToolMazeEnv(base_url=urls[1]).sync() as b:
            for env, seed in ((a, 1), (b, 2)):
                env.reset(level="C1", seed=seed)
                env.step(CallToolAction(tool_name="no_such_tool", arguments={}))
            if whom == "parent":
                proc.send_signal(signal.SIGINT)
            else:
                os.killpg(proc.pid, signal.SIGINT)
            _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0 and "2 episodes recorded" in err and "Traceback" not in err, err
    records = _records(tmp_path)
    assert sorted(r["cut"] for r in records) == ["shutdown", "shutdown"]
    assert sorted(r["task_id"][-4:] for r in records) == ["0001", "0002"]
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]
