"""Every command-line mistake ends in one line on stderr and a non-zero exit.

These run the real ``toolmaze`` console script, as a newcomer would, so the
entry point, argument parsing and error handling are all covered.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOOLMAZE = Path(sys.executable).with_name("toolmaze")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(TOOLMAZE), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False)


def one_line_error(proc: subprocess.CompletedProcess, command: str, *words: str) -> str:
    """Assert a one-line ``toolmaze COMMAND: error: ...`` and a non-zero exit."""
    assert proc.returncode != 0, proc
    err = proc.stderr
    assert "Traceback" not in err, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    prefix = f"toolmaze {command}" if command else "toolmaze"
    assert err.startswith(f"{prefix}: error: "), err
    for w in words:
        assert w in err, err
    return err


@pytest.fixture()
def records(tmp_path) -> Path:
    path = tmp_path / "run.jsonl"
    path.write_text('{"task_id": "tmz-v1-c1-0000", "mode": "P0", "steps": []}\n')
    return path


def _out_cases(tmp: Path, records: Path) -> dict[str, list[str]]:
    return {
        "baselines": ["baselines", "--agents", "oracle", "--quiet", "--out"],
        "grade": ["grade", str(records), "--out"],
        "generate": ["generate", "--n", "2", "--quiet", "--out"],
        "build-suite": ["build-suite", "--per-level", "1", "--quiet", "--out"],
    }


@pytest.mark.parametrize("command", ["baselines", "grade", "generate", "build-suite"])
def test_out_into_a_missing_directory(tmp_path, records, command):
    args = _out_cases(tmp_path, records)[command]
    missing = tmp_path / "no" / "such" / "out"
    one_line_error(run(*args, str(missing)), command, "does not exist")
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("command", ["baselines", "grade", "generate"])
def test_out_onto_a_directory(tmp_path, records, command):
    args = _out_cases(tmp_path, records)[command]
    one_line_error(run(*args, str(tmp_path)), command, "is a directory")


def test_build_suite_out_onto_a_file(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("keep me")
    one_line_error(run("build-suite", "--out", str(target), "--quiet"), "build-suite",
                   "not a directory")
    assert target.read_text() == "keep me"


@pytest.mark.parametrize("n", ["0", "-1"])
def test_build_suite_needs_a_positive_size(tmp_path, n):
    one_line_error(run("build-suite", "--out", str(tmp_path / "s"), "--per-level", n),
                   "build-suite", "--per-level must be a positive number")
    assert not (tmp_path / "s").exists()


def test_generate_refuses_an_unknown_tool_to_exclude(tmp_path):
    out = tmp_path / "t.jsonl"
    one_line_error(run("generate", "--n", "2", "--exclude-tool", "no_such_tool", "--out",
                       str(out)), "generate", "'no_such_tool'", "toolmaze corpus --list")
    assert not out.exists()


@pytest.mark.parametrize("flag", ["--n", "--jobs"])
def test_generate_needs_positive_numbers(tmp_path, flag):
    one_line_error(run("generate", flag, "0", "--out", str(tmp_path / "t.jsonl")), "generate",
                   f"{flag} must be a positive number")


def test_stats_on_an_empty_file(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    one_line_error(run("stats", str(empty)), "stats", "holds no tasks")


def test_json_errors_keep_line_and_column(tmp_path):
    from toolmaze_gym.tasks.suite import load_suite

    bad = tmp_path / "bad.jsonl"
    bad.write_text(load_suite()[0].to_json() + '\n{"id": 2,, "level": "C1"}\n')
    one_line_error(run("stats", str(bad)), "stats", f"{bad}:2:10: not valid JSON")
    rec = tmp_path / "run.jsonl"
    rec.write_text('\n  {"task_id": oops}\n')
    one_line_error(run("grade", str(rec)), "grade", f"{rec}:2:15: not valid JSON")


def test_a_task_file_that_is_not_utf8_names_its_line(tmp_path):
    from toolmaze_gym.tasks.suite import load_suite

    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(load_suite()[0].to_json().encode() + b'\n{"id": "caf\xe9"}\n')
    one_line_error(run("stats", str(bad)), "stats", f"{bad}:2: not UTF-8 text")


def test_a_record_that_is_not_a_task_is_explained(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    err = one_line_error(run("show", "x", "--suite", str(bad)), "show", f"{bad}:1: not a task")
    assert "KeyError" not in err and "('" not in err


def test_a_directory_that_is_not_a_suite(tmp_path):
    one_line_error(run("stats", str(tmp_path)), "stats", "without a manifest.json")


@pytest.mark.parametrize("args, command, words", [
    (["stats", "--bogus"], "", ["unrecognized arguments: --bogus"]),
    (["generate"], "generate", ["--out"]),
    (["baselines", "--agents", "oracle,genius"], "baselines", ["'genius'", "validator"]),
    (["show", "tmz-v1-c9-9999"], "show", ["no task"]),
    (["stats", "no-such-suite"], "stats", ["unknown suite"]),
    (["corpus", "--show", "no_such_tool"], "corpus", ["no tool named"]),
])
def test_other_mistakes(args, command, words):
    one_line_error(run(*args), command, *words)


def test_no_command_is_one_line_too():
    proc = run()
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("toolmaze: error: ")
