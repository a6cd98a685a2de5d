"""A served run's records on disk: each step's raw text stored once (no top-level copy),
and a stopped server's cut last line repaired when a server starts on the folder again."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from toolmaze_gym.serving.recorder import RECORDS, ServeRecorder
from toolmaze_gym.serving.store import SessionStore


def _one_episode(out) -> dict:
    store = SessionStore(ServeRecorder(out), idle_timeout=60.0)
    sid, session = store.open({"task_id": "tmz-v3-c1-0001", "mode": "P0"})
    session.call("no_such_tool", {})
    store.end(sid, "closed")
    store.recorder.close()
    return json.loads((out / RECORDS).read_text(encoding="utf-8").splitlines()[-1])


def test_a_served_record_stores_raw_text_once(tmp_path):
    rec = _one_episode(tmp_path / "run")
    assert "raw" not in rec and all("raw" in s for s in rec["steps"])


def test_a_cut_last_line_is_repaired_when_a_server_starts_again(tmp_path):
    out = tmp_path / "run"
    _one_episode(out)
    with (out / RECORDS).open("ab") as f:
        f.write(b'{"task_id": "tmz-v3-c1-0001", "mo\n')  # garbage that ends in a newline
    ServeRecorder(out).close()
    lines = (out / RECORDS).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["task_id"] == "tmz-v3-c1-0001"


def test_a_task_outside_the_suite_is_kept_in_the_runs_tasks_file_once(tmp_path):
    """Reports find a suite task by its id and a procedural one in the run's tasks file:
    each is recorded so, however many episodes of it end."""
    out = tmp_path / "run"
    store = SessionStore(ServeRecorder(out), idle_timeout=60.0)
    for choice in ({"split": "train", "level": "C1", "seed": 4},
                   {"split": "train", "level": "C1", "seed": 4}, {"level": "C1", "seed": 0}):
        sid, session = store.open(choice)
        session.call("abort", {"reason": "x"})
        store.close(sid)
    store.recorder.close()
    recs = [json.loads(line) for line in (out / RECORDS).read_text().splitlines()]
    kept = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    assert [t["id"] for t in kept] == [recs[0]["task_id"]]  # once, for both episodes
    assert recs[0]["tasks"] == recs[1]["tasks"] == str((out / "tasks.jsonl").resolve())
    assert "tasks" not in recs[2] and recs[2]["task_id"].startswith("tmz-")


@pytest.mark.parametrize("port", ["-1", "99999", "http"])
def test_serve_refuses_a_port_out_of_range_in_one_line(tmp_path, port):
    out = subprocess.run([sys.executable, "-m", "toolmaze_gym.cli", "serve", "--out",
                          str(tmp_path / "run"), "--port", port],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--port" in out.stderr and len(out.stderr.strip().splitlines()) <= 2


def test_a_record_that_cannot_be_written_is_said_and_later_ones_still_are(tmp_path, monkeypatch,
                                                                           caplog):
    """Before: the writer thread died with the first failed write, every later record
    waited in its queue for ever, and ``flush`` (the server's shutdown) hung."""
    from toolmaze_gym.runner import RecordWriter

    write, failures = RecordWriter.write, iter([OSError(28, "No space left on device")])

    def full_once(self, rec):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        write(self, rec)

    monkeypatch.setattr(RecordWriter, "write", full_once)
    store = SessionStore(ServeRecorder(tmp_path / "run"), idle_timeout=60.0)
    for seed in (1, 2):
        _, session = store.open({"level": "C1", "seed": seed})
        session.call("abort", {"reason": "x"})
    flushing = threading.Thread(target=store.recorder.flush, daemon=True)
    flushing.start()
    flushing.join(timeout=20)
    assert not flushing.is_alive(), "flush hung on a record that was never written"
    store.recorder.close()
    assert store.recorder.lost == 1 and "No space left on device" in caplog.text
    (rec,) = [json.loads(line) for line in
              (tmp_path / "run" / RECORDS).read_text(encoding="utf-8").splitlines()]
    assert rec["task_id"].endswith("0002")
