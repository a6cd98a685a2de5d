"""``toolmaze report`` grades the trajectories itself: a stored grade is a cache that is
checked, never trusted, and every input it cannot read is one line and exit 2.

Hand-edited grades once gave a TSR of 100 with exit 0; non-UTF-8 records and a grade
missing a field gave tracebacks.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from toolmaze_gym.cli import main
from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.report import build_report
from toolmaze_gym.tasks.suite import SUITE_NAME


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture()
def run_copy(run_dirs, tmp_path) -> Path:
    """A private copy of the naive run (naive fails every explicit fault)."""
    return Path(shutil.copytree(run_dirs["naive"], tmp_path / "naive"))


def _summary_tsr(report) -> list[str]:
    text = report.markdown.read_text()
    line = next(ln for ln in text.split("## Summary")[1].splitlines()
                if ln.startswith("| naive (standard) |"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_hand_edited_grades_are_re_derived_and_counted(run_copy, tmp_path):
    honest = build_report([run_copy], tmp_path / "honest", resamples=0, plots=False,
                          viewer=False)
    records = _lines(run_copy / "records.jsonl")
    edited = 0
    for r in records:
        if not r["grade"]["success"]:
            r["grade"].update(success=True, recovered=True, c_rec=0.0)
            edited += 1
    assert edited > 0
    _write(run_copy / "records.jsonl", records)
    rep = build_report([run_copy], tmp_path / "edited", resamples=0, plots=False,
                       viewer=False)
    assert _summary_tsr(rep) == _summary_tsr(honest)
    text = rep.markdown.read_text()
    assert f"{edited} of {len(records)} stored grades disagreed" in text
    assert f"re-derived from the trajectories under grading version {GRADING_VERSION}" in text
    assert rep.regrade.disagreed == edited


def test_grades_of_another_version_are_re_derived_and_said_so(run_copy, tmp_path):
    records = _lines(run_copy / "records.jsonl")
    for r in records[:3]:
        r["grading_version"] = r["grade"]["version"] = "3"
    del records[3]["grade"]  # a record written before grading existed
    _write(run_copy / "records.jsonl", records)
    rep = build_report([run_copy], tmp_path / "rep", resamples=0, plots=False, viewer=False)
    text = rep.markdown.read_text()
    assert "3 were stored under grading version 3" in text
    assert "1 had no stored grade" in text
    assert "0 of" in text and "stored grades disagreed" in text  # the rules gave the same


def test_the_command_prints_the_count_and_exits_0(run_copy, tmp_path, capsys):
    records = _lines(run_copy / "records.jsonl")
    failed = next(r for r in records if not r["grade"]["success"])
    failed["grade"]["success"] = True
    _write(run_copy / "records.jsonl", records)
    argv = ["report", str(run_copy), "--out", str(tmp_path / "r"), "--quiet", "--no-plots",
            "--no-viewer", "--resamples", "0"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"1 of {len(records)} stored grades disagreed with the trajectories" in err


def _first_line_edit(path: Path, edit) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    lines[1] = edit(lines[1])
    path.write_bytes(b"".join(lines))


def _json_edit(fn):
    def edit(line: bytes) -> bytes:
        rec = json.loads(line)
        fn(rec)
        return json.dumps(rec).encode() + b"\n"
    return edit


BAD_INPUTS = {
    "non-UTF-8": (lambda line: line.replace(b'"task_id"', b'"task\xff_id"'),
                  "records.jsonl:2: not UTF-8 text"),
    "no steps": (_json_edit(lambda r: r.pop("steps")), "the field steps is missing"),
    "no task id": (_json_edit(lambda r: r.pop("task_id")), "not a trajectory record"),
    "task id a list": (_json_edit(lambda r: r.update(task_id=["a"])),
                       "its task_id is not a string"),
    "repeat not a number": (_json_edit(lambda r: r.update(repeat="first")),
                            "not a trajectory record"),
    "prompt an object": (_json_edit(lambda r: r.update(prompt={"a": 1})),
                         "its prompt is not a string"),
    "usage a list": (_json_edit(lambda r: r.update(usage=[1])), "its usage is not a JSON object"),
    "steps not a list": (_json_edit(lambda r: r.update(steps={"a": 1})),
                         "its steps are not a list"),
    "grade without success": (_json_edit(lambda r: r["grade"].pop("success")),
                              "its grade lacks the field 'success'"),
    "grade not an object": (_json_edit(lambda r: r.update(grade=[1])),
                            "its grade is not a JSON object"),
    "unknown task": (_json_edit(lambda r: r.update(task_id="no-such-task")),
                     f"task 'no-such-task' is not in {SUITE_NAME}"),
    "unknown suite": (_json_edit(lambda r: r.update(suite="no-such-suite")),
                      "its suite 'no-such-suite' is not a shipped suite"),
    "unknown mode": (_json_edit(lambda r: r.update(mode="P9")), "malformed record"),
    "status a string": (_json_edit(lambda r: r["steps"][0].update(status="200")),
                        "step 1: its status is not a number"),
    "arguments a list": (_json_edit(lambda r: r["steps"][0]["action"].update(arguments=[1])),
                         "step 1: its action's arguments has the wrong type"),
    "step without action": (_json_edit(lambda r: r["steps"][0].pop("action")),
                            "malformed record"),
}


def _report_error(capsys, *runs: Path | str, out: Path) -> str:
    argv = ["report", *map(str, runs), "--out", str(out), "--quiet", "--no-plots",
            "--no-viewer", "--resamples", "0"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolmaze report: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_a_bad_record_in_a_run_dir_is_one_line(run_copy, tmp_path, capsys, case):
    edit, words = BAD_INPUTS[case]
    _first_line_edit(run_copy / "records.jsonl", edit)
    err = _report_error(capsys, run_copy, out=tmp_path / "r")
    assert words in err and str(run_copy) in err


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_a_bad_record_in_a_records_file_is_one_line(run_copy, tmp_path, capsys, case):
    edit, words = BAD_INPUTS[case]
    src = run_copy / "records.jsonl"
    _first_line_edit(src, edit)
    err = _report_error(capsys, src, out=tmp_path / "r")
    assert words in err and str(src) in err


def test_a_fault_event_the_env_never_writes_is_one_line(run_copy, tmp_path, capsys):
    path = run_copy / "records.jsonl"
    records = _lines(path)
    faulted = next(r for r in records if any(s["fault"] for s in r["steps"]))
    next(s for s in faulted["steps"] if s["fault"])["fault"].pop("victim")
    _write(path, records)
    err = _report_error(capsys, run_copy, out=tmp_path / "r")
    assert "malformed record (its steps cannot be graded: KeyError 'victim')" in err


def test_a_truncated_last_line_is_one_line(run_copy, tmp_path, capsys):
    src = run_copy / "records.jsonl"
    data = src.read_bytes()
    src.write_bytes(data[: len(data) - 200])  # a kill in the middle of the last record
    n = len(data.splitlines())
    for source in (run_copy, src):
        err = _report_error(capsys, source, out=tmp_path / "r")
        assert f"records.jsonl:{n}: the last record is cut short" in err
        assert "--resume" in err


def test_an_empty_or_missing_run_dir_is_one_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    err = _report_error(capsys, tmp_path / "empty", out=tmp_path / "r")
    assert "holds no trajectory records" in err
    err = _report_error(capsys, tmp_path / "gone", out=tmp_path / "r")
    assert "no such run directory" in err
    (tmp_path / "blank.jsonl").write_text("\n\n")
    err = _report_error(capsys, tmp_path / "blank.jsonl", out=tmp_path / "r")
    assert "holds no trajectory records" in err
