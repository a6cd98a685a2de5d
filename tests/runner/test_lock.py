"""One writer per records file: a second ``toolmaze eval`` into a run directory that a
live run is filling is refused with one line naming the holder and exit 2, and nothing
is recorded twice; shards (one file each) still fill one directory side by side."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.runner._policies import EndpointDown
from toolmaze_gym.cli import main
from toolmaze_gym.runner import RunConfig, RunError, Selection, record_key, run

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--level", "C1", "--limit", "4", "--quiet", "--no-report"]
SCRIPT = ("import sys\nfrom tests.runner._policies import Slow\n"
          "from toolmaze_gym.runner import RunConfig, Selection, run\n"
          "run(RunConfig('oracle', selection=Selection(levels=['C1'], limit=4)), "
          "sys.argv[1], progress=False, policy=Slow(0.05))\n")


def _keys(path: Path) -> list[str]:
    return [record_key(json.loads(x)) for x in path.read_text().splitlines() if x.strip()]


def test_a_second_writer_is_refused_naming_the_holder_and_nothing_is_recorded_twice(
        tmp_path, capsys):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(out)], cwd=ROOT)
    try:
        path = out / "records.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if path.exists() and path.read_bytes().count(b"\n") >= 2:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the first run ended before the second started"
        for extra in (["--resume"], []):
            assert main(["eval", "--agent", "oracle", *ARGS, "--out", str(out), *extra]) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1, err
            assert f"pid {proc.pid}" in err and "records.jsonl" in err, err
    finally:
        assert proc.wait(timeout=300) == 0
    keys = _keys(out / "records.jsonl")
    assert len(keys) == 20 and len(set(keys)) == 20  # 4 tasks x 5 modes, each once


def test_the_lock_is_released_when_a_run_ends_even_by_an_error(tmp_path):
    from toolmaze_gym.runner import run_lock

    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    run(RunConfig("oracle", selection=sel), tmp_path, progress=False)
    with run_lock(tmp_path / "records.jsonl"):  # free again once the run is over
        pass
    with pytest.raises(RunError):  # the endpoint goes down: the run stops
        run(RunConfig("oracle", selection=Selection(levels=["C1"], limit=2, modes=["P0"])),
            tmp_path, resume=True, progress=False, policy=EndpointDown(0))
    with run_lock(tmp_path / "records.jsonl"):
        pass


def test_a_held_lock_refuses_the_run_before_anything_is_written(tmp_path):
    from toolmaze_gym.runner import run_lock

    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    with run_lock(tmp_path / "run" / "records.jsonl"):
        try:
            run(RunConfig("oracle", selection=sel), tmp_path / "run", progress=False)
        except RunError as exc:
            assert "another toolmaze eval" in str(exc)
        else:
            raise AssertionError("a second writer was let in")
    assert not (tmp_path / "run" / "records.jsonl").exists()
    assert not (tmp_path / "run" / "run.json").exists()


def test_shards_hold_one_lock_each_and_fill_one_directory_side_by_side(tmp_path):
    from toolmaze_gym.runner import run_lock

    sel = Selection(levels=["C1"], limit=2, modes=["P0"])
    with run_lock(tmp_path / "records.shard-0-of-2.jsonl"):  # shard 0 is running
        run(RunConfig("oracle", selection=sel, shard=(1, 2)), tmp_path, progress=False)
    assert (tmp_path / "records.shard-1-of-2.jsonl").is_file()
