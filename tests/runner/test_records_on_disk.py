"""Records on disk stay bounded, survive what a crash or a careless hand leaves at the end
of a file, and one run directory never holds two incompatible shardings (issue 29,
items 5, 6 and 7)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.runner._policies import Replying
from toolmaze_gym.actions import MAX_ACTION_CHARS
from toolmaze_gym.episode import Step
from toolmaze_gym.report.records import check_record
from toolmaze_gym.runner import RunConfig, RunError, Selection, read_records, run

TWO = Selection(levels=["C1"], limit=2, modes=["P0"])  # two quick episodes
HUGE = 1_000_000


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


# ---------------------------------------------------------------- item 5: sizes


def test_a_huge_reply_is_stored_once_capped_with_its_length(tmp_path):
    reply = "x" * HUGE
    run(RunConfig("oracle", selection=Selection(levels=["C1"], limit=1, modes=["P0"]),
                  max_steps=4), tmp_path, progress=False, policy=Replying(reply))
    data = (tmp_path / "records.jsonl").read_bytes()
    (rec,) = [json.loads(x) for x in data.splitlines()]
    assert len(rec["steps"]) == 4
    assert len(data) < 4 * (MAX_ACTION_CHARS + 2000)  # not 4 (or 8) copies of 1 MB
    for step in rec["steps"]:
        assert step["raw_chars"] == HUGE
        assert step["raw"].startswith("x" * MAX_ACTION_CHARS)
        assert step["raw"].endswith(f"…[{HUGE - MAX_ACTION_CHARS} characters cut]")
    assert "raw" not in rec  # the texts live in the steps only


def test_a_played_record_stores_raw_text_once_capped_with_its_length():
    """``toolmaze play`` writes the runner's record format: a long line sent raw is kept
    once, in its step, cut like the env's echo, with its length."""
    from toolmaze_gym.play import PlaySession
    from toolmaze_gym.tasks.suite import load_suite

    session = PlaySession(load_suite(levels=["C1"])[0])
    session.handle("raw " + "x" * HUGE)
    session.handle("finish done")
    rec = session.record()
    assert "raw" not in rec  # the texts live in the steps only
    long, ending = rec["steps"]
    assert long["raw_chars"] == HUGE and len(long["raw"]) < MAX_ACTION_CHARS + 100
    assert "raw_chars" not in ending
    assert len(json.dumps(rec)) < MAX_ACTION_CHARS + 20_000


def test_short_replies_are_stored_whole_without_a_length(tmp_path):
    run(RunConfig("oracle", selection=TWO), tmp_path, progress=False)
    for rec in read_records(tmp_path):
        assert "raw" not in rec
        assert all("raw_chars" not in s and s["raw"] for s in rec["steps"])


def test_old_records_with_uncut_texts_and_a_raw_list_still_load(tmp_path):
    run(RunConfig("oracle", selection=TWO), tmp_path, progress=False)
    path = tmp_path / "records.jsonl"
    old = [json.loads(x) for x in _lines(path)]
    for rec in old:  # as runs before issue 29 wrote them
        rec["steps"][0]["raw"] = rec["steps"][0]["raw"] + " " * HUGE
        rec["raw"] = [s["raw"] for s in rec["steps"]]
    path.write_text("".join(json.dumps(r) + "\n" for r in old))
    recs = read_records(tmp_path)
    assert len(recs) == 2
    for rec in recs:
        check_record(rec, "old")
        step = Step.from_dict(rec["steps"][0])
        assert len(step.raw) > HUGE and step.raw_chars is None
        assert len(json.dumps(step.to_dict())) < MAX_ACTION_CHARS + 2000  # cut when written


def test_a_cut_step_written_again_keeps_its_length_and_text():
    step = Step("y" * HUGE, {"kind": "invalid", "text": "too long"}, 400, "{}", None)
    once = step.to_dict()
    again = Step.from_dict(once).to_dict()
    assert again == once and once["raw_chars"] == HUGE


# ---------------------------------------------------------------- item 6: resume repairs


def _recorded(tmp_path: Path) -> Path:
    run(RunConfig("oracle", selection=TWO), tmp_path, progress=False)
    return tmp_path / "records.jsonl"


def _resume(tmp_path: Path):
    return run(RunConfig("oracle", selection=TWO), tmp_path, resume=True, progress=False)


def test_a_complete_last_record_without_its_newline_is_kept(tmp_path, caplog):
    path = _recorded(tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole[:-1])
    with caplog.at_level(logging.WARNING, "toolmaze_gym"):
        summary = _resume(tmp_path)
    assert summary.skipped == 2 and summary.episodes == 0 and summary.recorded == 2
    assert path.read_bytes() == whole  # the record stays, with its newline


@pytest.mark.parametrize("tail", [b"garbage\n", b"{}\n", b"[1, 2]\n", b"\xff\xfe\x00oops\n",
                                  b"\xff\xfe\x00oops", b'{"task_id": "tmz-', b"{}"])
def test_a_garbage_last_line_is_dropped_with_one_warning(tmp_path, caplog, tail):
    path = _recorded(tmp_path)
    lines = _lines(path)
    path.write_bytes(lines[0] + tail)  # the second episode's record is lost
    with caplog.at_level(logging.WARNING, "toolmaze_gym"):
        summary = _resume(tmp_path)
    assert summary.skipped == 1 and summary.episodes == 1 and summary.recorded == 2
    assert len(_lines(path)) == 2 and path.read_bytes().startswith(lines[0])
    said = [r.getMessage() for r in caplog.records if "last line" in r.getMessage()]
    assert len(said) == 1 and "\n" not in said[0] and str(path) in said[0]


def test_a_record_that_is_not_utf8_inside_a_file_is_one_line_not_a_traceback(tmp_path):
    path = _recorded(tmp_path)
    lines = _lines(path)
    path.write_bytes(b"\xff oops\n" + lines[0] + lines[1])
    with pytest.raises(RunError, match=r"records.jsonl:1: not UTF-8"):
        _resume(tmp_path)


def test_a_deeply_nested_line_inside_a_file_is_one_line_not_a_traceback(tmp_path):
    path = _recorded(tmp_path)
    lines = _lines(path)
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n" + lines[0] + lines[1])
    with pytest.raises(RunError, match=r"records.jsonl:1: nested too deeply"):
        _resume(tmp_path)


# ---------------------------------------------------------------- item 7: shardings


@pytest.mark.parametrize(("first", "second"), [((0, 1), (0, 2)), ((0, 2), (0, 3)),
                                               ((1, 2), (0, 1))])
def test_a_second_incompatible_sharding_into_one_run_is_refused(tmp_path, first, second):
    run(RunConfig("oracle", selection=TWO, shard=first), tmp_path, progress=False)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(RunError, match=r"sharded .* ways") as err:
        run(RunConfig("oracle", selection=TWO, shard=second), tmp_path, progress=False,
            resume=True)
    assert "\n" not in str(err.value) and f"{second[1]}" in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_the_shards_of_one_sharding_fill_one_run(tmp_path):
    for i in range(2):
        run(RunConfig("oracle", selection=TWO, shard=(i, 2)), tmp_path, progress=False)
    assert len(read_records(tmp_path)) == 2
