"""One rule for duplicate records, shared by ``grade`` and ``report``: records of one
(agent, task, mode, prompt, repeat) are one episode; the first finished one is kept
(a record cut for a policy error gives way to a later run of the episode, as on
``--resume``) and the user is told how many were dropped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolmaze_gym.cli import main
from toolmaze_gym.report import load_rows
from toolmaze_gym.runner import RunConfig, Selection, read_records, run

SEL = Selection(levels=["C1"], limit=2, modes=["P0", "P2"])  # 4 episodes


def _rec(task: str, agent: str = "a", repeat: int = 0, **extra) -> dict:
    return {"task_id": task, "mode": "P0", "prompt": "standard", "repeat": repeat,
            "agent": agent, **extra}


def test_the_first_finished_record_of_an_episode_is_kept_and_duplicates_are_counted():
    from toolmaze_gym.runner import unique_records

    recs = [_rec("t1", n=1), _rec("t1", n=2), _rec("t2", cut="error", n=3), _rec("t2", n=4),
            _rec("t2", n=5), _rec("t1", agent="b", n=6), _rec("t1", repeat=1, n=7)]
    kept, dropped = unique_records(recs)
    assert [r["n"] for r in kept] == [1, 4, 6, 7]
    assert dropped == 2  # t1 n=2 and t2 n=5; the error cut is a rerun, not a duplicate


@pytest.fixture(scope="module")
def doubled(tmp_path_factory) -> Path:
    """A run directory whose records file holds every episode twice (two writers)."""
    out = tmp_path_factory.mktemp("doubled")
    run(RunConfig("oracle", selection=SEL), out, progress=False)
    path = out / "records.jsonl"
    path.write_text(path.read_text() * 2)
    return out


def test_grade_counts_each_episode_once_and_says_how_many_duplicates_it_dropped(doubled,
                                                                               capsys):
    assert main(["grade", str(doubled / "records.jsonl"), "--json"]) == 0
    out, err = capsys.readouterr()
    table = json.loads(out)["oracle/standard"]
    assert "pass^k" not in table  # no pass^2 from a run without repeats
    assert "4 duplicate records" in err
    assert "re-graded 4 records" in err


def test_report_and_grade_keep_the_same_records(doubled, capsys):
    rows = load_rows([doubled / "records.jsonl"]) + load_rows([doubled])
    assert [len(r.records) for r in rows] == [4, 4]
    assert main(["report", str(doubled), "--out", str(doubled / "rep"), "--resamples", "0",
                 "--no-plots", "--no-viewer", "--quiet"]) == 0
    assert "4 duplicate records" in capsys.readouterr().err
    assert len(read_records(doubled)) == 4
