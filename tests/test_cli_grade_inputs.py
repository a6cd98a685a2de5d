"""``toolmaze grade`` reads what ``report`` reads (a run directory or a records file),
grades it by the same code, and meets every input it cannot read with one line and
exit 2 (non-UTF-8 bytes once gave a traceback, a run directory "no such file")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from toolmaze_gym.cli import main
from toolmaze_gym.runner import RunConfig, Selection, run


@pytest.fixture(scope="module")
def naive_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("grade") / "naive"
    run(RunConfig("naive", selection=Selection(levels=["C1"], limit=2)), out, progress=False)
    return out


@pytest.fixture()
def run_copy(naive_run, tmp_path) -> Path:
    return Path(shutil.copytree(naive_run, tmp_path / "naive"))


def _error(capsys, *argv: str) -> str:
    assert main(["grade", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolmaze grade: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_run_directory_is_graded_like_its_records_file(run_copy, capsys):
    assert main(["grade", str(run_copy), "--json"]) == 0
    from_dir = capsys.readouterr()
    assert main(["grade", str(run_copy / "records.jsonl"), "--json"]) == 0
    from_file = capsys.readouterr()
    assert json.loads(from_dir.out) == json.loads(from_file.out)
    assert "0 grades changed (0 of 10 stored grades disagreed with the trajectories)" \
        in from_dir.err


def test_hand_edited_grades_are_counted(run_copy, capsys):
    path = run_copy / "records.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for r in records:
        r["grade"]["success"] = True
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["grade", str(run_copy), "--json"]) == 0
    std = capsys.readouterr()
    tsr = json.loads(std.out)["naive/standard"]["per_mode"]["P1"]["TSR"]
    assert tsr == 0.0  # naive never recovers from an explicit fault, whatever the file says
    assert "of 10 stored grades disagreed" in std.err and "0 of 10 stored" not in std.err


def test_non_utf8_bytes_name_their_line(run_copy, capsys):
    path = run_copy / "records.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"mode"', b'"mo\xe9de"')
    path.write_bytes(b"".join(lines))
    for source in (path, run_copy):
        err = _error(capsys, str(source))
        assert f"{path}:3: not UTF-8 text (byte 0xe9" in err


def test_a_grade_missing_a_field_is_one_line(run_copy, capsys):
    path = run_copy / "records.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    del records[0]["grade"]["exposed"]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    err = _error(capsys, str(path))
    assert f"{path}:1: its grade lacks the field 'exposed'" in err


def test_a_truncated_last_line_is_one_line(run_copy, capsys):
    path = run_copy / "records.jsonl"
    data = path.read_bytes()
    path.write_bytes(data[:-100])
    err = _error(capsys, str(path))
    assert f"{path}:10: the last record is cut short" in err


def test_an_empty_or_missing_run_directory_is_one_line(tmp_path, capsys):
    assert "no such file or run directory" in _error(capsys, str(tmp_path / "gone"))
    (tmp_path / "empty").mkdir()
    assert "holds no trajectory records" in _error(capsys, str(tmp_path / "empty"))
