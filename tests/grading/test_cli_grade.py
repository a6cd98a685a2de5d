"""``toolmaze grade RUN.jsonl``: re-grading records written by rollout()."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.agents import make_scripted
from toolmaze_gym.cli import main
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite

FIRST = load_suite()[0].id  # any task of the default suite


@pytest.fixture(scope="module")
def records(sim):
    tasks = [t for lv in ("C1", "C2", "C3", "C4")
             for t in [t for t in load_suite() if t.level == lv][:2]]
    return [rollout(t, m, make_scripted(a, sim), sim)
            for a in ("naive", "validator") for t in tasks for m in MODE_NAMES]


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_round_trip_keeps_every_grade(tmp_path, records, capsys):
    run = _write(tmp_path / "run.jsonl", records)
    out = tmp_path / "regraded.jsonl"
    assert main(["grade", str(run), "--out", str(out)]) == 0
    std = capsys.readouterr()
    assert "== naive/standard: 40 trajectories" in std.out
    assert "== validator/standard: 40 trajectories" in std.out
    assert "composite Avg:" in std.out and "PRR(P1)-PRR(P3)" in std.out
    assert f"re-graded 80 records with grading version {GRADING_VERSION}; 0 grades changed" \
        in std.err
    regraded = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["grade"] for r in regraded] == [r["grade"] for r in records]
    assert all(r["grading_version"] == GRADING_VERSION for r in regraded)
    assert [r["steps"] for r in regraded] == [r["steps"] for r in records]


def test_stale_grades_are_replaced(tmp_path, records, capsys):
    stale = [json.loads(json.dumps(r)) for r in records]
    for r in stale[:3]:
        r["grade"] = {**r["grade"], "success": not r["grade"]["success"], "version": "0"}
        r["grading_version"] = "0"
    del stale[3]["grade"]  # a record written before grading existed
    run = _write(tmp_path / "run.jsonl", stale)
    out = tmp_path / "regraded.jsonl"
    assert main(["grade", str(run), "--out", str(out)]) == 0
    assert "4 grades changed" in capsys.readouterr().err
    regraded = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["grade"] for r in regraded] == [r["grade"] for r in records]
    assert {r["grading_version"] for r in regraded} == {GRADING_VERSION}


def test_table_as_json(tmp_path, records, capsys):
    run = _write(tmp_path / "run.jsonl", records)
    assert main(["grade", str(run), "--json", "--ci", "--resamples", "50"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"naive/standard", "validator/standard"}
    naive = report["naive/standard"]
    assert naive["per_mode"]["P0"]["TSR"] == 1.0 and naive["per_mode"]["P1"]["TSR"] == 0.0
    assert naive["ci"]["composite"][0] <= naive["composite"] <= naive["ci"]["composite"][1]


def test_pass_k_when_runs_repeat(tmp_path, records, capsys):
    naive = [r for r in records if r["agent"] == "naive"]
    # three runs of each episode, as `toolmaze eval --repeats 3` keys them
    run = _write(tmp_path / "run.jsonl", [{**r, "repeat": k} for k in range(3) for r in naive])
    assert main(["grade", str(run)]) == 0
    assert "pass^k: k=1 20.00, k=2 20.00, k=3 20.00" in capsys.readouterr().out


def test_copies_of_one_episode_are_not_repeats(tmp_path, records, capsys):
    run = _write(tmp_path / "run.jsonl", [r for r in records if r["agent"] == "naive"] * 3)
    assert main(["grade", str(run)]) == 0
    out, err = capsys.readouterr()
    assert "== naive/standard: 40 trajectories" in out and "pass^k" not in out
    assert "80 duplicate records" in err


def test_tasks_from_a_file(tmp_path, records, capsys):
    ids = {r["task_id"] for r in records}
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(t.to_json() + "\n" for t in load_suite() if t.id in ids))
    run = _write(tmp_path / "run.jsonl", records)
    assert main(["grade", str(run), "--tasks", str(tasks)]) == 0
    assert "0 grades changed" in capsys.readouterr().err


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ('{"task_id": "x", "mode": "P0", "steps": []}\n{oops\n', ":2:2: not valid JSON"),
    ("[1, 2]\n", ":1: a record must be a JSON object"),
    (json.dumps({"task_id": FIRST, "mode": "P0"}) + "\n",
     ":1: not a trajectory record (the field steps is missing)"),
    ('{"task_id": "nope", "mode": "P0", "steps": []}\n',
     f":1: task 'nope' is not in {SUITE_NAME}"),
    (json.dumps({"task_id": FIRST, "mode": "P9", "steps": []}) + "\n", ":1: malformed record"),
    (json.dumps({"task_id": FIRST, "mode": "P0", "steps": [{"raw": 1}]}) + "\n",
     ":1: malformed record"),
    ("\n", "holds no trajectory records"),
])
def test_user_mistakes_end_in_one_line(tmp_path, capsys, content, message):
    run = tmp_path / "run.jsonl"
    if content is not None:
        run.write_text(content)
    assert main(["grade", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolmaze grade: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_output_directory(tmp_path, records, capsys):
    run = _write(tmp_path / "run.jsonl", records[:1])
    assert main(["grade", str(run), "--out", str(tmp_path / "no" / "x.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
