"""Careless input to the ``toolmaze`` commands (issue 29, item 7): each mistake ends in
one clear line and a non-zero exit status that the command's ``--help`` lists, never a
traceback, a silent success, a write outside the run folder, or a device read to OOM."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolmaze_gym.cli import main

TOOLMAZE = Path(sys.executable).with_name("toolmaze")
SMALL = ["--agent", "naive", "--level", "C1", "--mode", "NP", "--limit", "1", "--quiet",
         "--no-report"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([str(TOOLMAZE), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False, env=env, errors="backslashreplace")


def one_line(capsys, argv: list[str], code: int = 2) -> str:
    """Run in-process; assert the exit status and one ``toolmaze CMD: error:`` line."""
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"toolmaze {argv[0]}: error: "), err
    return err


def help_text(command: str) -> str:
    proc = run(command, "--help")
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())


# ---------------------------------------------------------------- corpus, stats, scenarios


def test_corpus_show_of_an_empty_name_is_an_error(capsys):
    err = one_line(capsys, ["corpus", "--show", ""])
    assert "no tool named ''" in err


def test_stats_of_a_device_says_it_is_not_a_regular_file(capsys):
    err = one_line(capsys, ["stats", "/dev/null"])
    assert "not a regular file" in err and "no such file" not in err


@pytest.mark.parametrize("tries", ["-1", "0"])
def test_scenarios_check_needs_a_positive_number_of_tries(capsys, tries):
    err = one_line(capsys, ["scenarios", "check", "--tries", tries])
    assert "--tries must be a positive number" in err


# ---------------------------------------------------------------- play


def test_play_refuses_a_device_as_record_file_before_reading_it(tmp_path):
    actions = tmp_path / "a.txt"
    actions.write_text("finish done\n")
    proc = run("play", "--level", "C1", "--actions", str(actions), "--record", "/dev/full")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "--record /dev/full is not a regular file" in proc.stderr


@pytest.mark.parametrize("line", [
    r'"\ud800"',
    r'{"name": "finish", "arguments": {"answer": "\ud800"}}',
    r'finish {"answer": "x\udfff"}',
    r'<tool_call>{"name": "finish", "arguments": {"answer": "\ud800"}}</tool_call>',
])
def test_play_refuses_a_lone_surrogate_in_one_line_and_records_the_episode(tmp_path, line):
    actions = tmp_path / "a.txt"
    actions.write_text(f"{line}\nfinish done\n")
    record = tmp_path / "plays.jsonl"
    proc = run("play", "--level", "C1", "--actions", str(actions), "--record", str(record))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    assert f"{actions}:1: " in proc.stderr and "lone surrogate" in proc.stderr, proc.stderr
    rec = json.loads(record.read_text(encoding="utf-8"))
    assert len(rec["steps"]) == 1  # the refused line cost no step


def test_play_takes_a_surrogate_pair_and_a_literal_backslash_u():
    from toolmaze_gym.play import PlaySession
    from toolmaze_gym.tasks.suite import load_suite

    task = load_suite(levels=["C1"])[0]
    for line in (r'raw smile \ud800 as six characters', r'finish {"answer": "\ud83d\ude00"}'):
        session = PlaySession(task)
        assert not session.handle(line).error
        assert len(session.steps) == 1 and session.done


# ---------------------------------------------------------------- eval


def test_eval_checks_run_json_before_running(tmp_path, capsys):
    out = tmp_path / "run"
    (out / "run.json").mkdir(parents=True)
    err = one_line(capsys, ["eval", *SMALL, "--out", str(out)])
    assert "run.json is not a regular file" in err
    assert not (out / "records.jsonl").exists()  # nothing ran


@pytest.mark.parametrize("label", ["../../escape", "a/b", "..", ".", "", "a\\b"])
def test_a_label_cannot_name_a_path(tmp_path, capsys, label):
    work = tmp_path / "deep" / "work"
    work.mkdir(parents=True)
    cwd = Path.cwd()
    os.chdir(work)
    try:
        err = one_line(capsys, ["eval", *SMALL, "--label", label])
    finally:
        os.chdir(cwd)
    assert "--label" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["deep", "work"]


def test_a_full_disk_names_the_run_and_has_a_documented_status(tmp_path, capsys,
                                                              monkeypatch):
    import toolmaze_gym.runner as runner

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(runner.os, "fsync", full)
    out = tmp_path / "run"
    err = one_line(capsys, ["eval", *SMALL, "--out", str(out)], code=1)
    assert f"error: {out}: No space left on device" in err, err
    assert "error::" not in err
    assert "1 a file could not be written" in help_text("eval")


@pytest.mark.parametrize("command", [["grade"], ["report"], ["play"], ["serve"], ["corpus"],
                                     ["eval"], ["scenarios", "check"], ["stats"], []])
def test_every_command_of_the_issue_documents_its_exit_status(capsys, command):
    """Each command item 7 names says in its --help what its non-zero exits mean (the
    one-line errors above are 2, a file the OS refused 1); so does ``toolmaze --help``
    for every command."""
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split()).lower()
    assert "exit status: 0 " in text and "2 " in text.split("exit status: 0 ", 1)[1]


def test_eval_help_lists_every_exit_status():
    text = help_text("eval")
    for status in ("0 the run is done", "1 a file could not be written", "2 bad input",
                   "3 the endpoint failed", "130 interrupted"):
        assert status in text, status


# ---------------------------------------------------------------- grade, report


@pytest.mark.parametrize("command", ["grade", "report"])
@pytest.mark.parametrize("as_dir", [False, True])
def test_a_record_nested_100000_deep_is_one_line(tmp_path, capsys, command, as_dir):
    deep = "[" * 100_000 + "]" * 100_000
    line = f'{{"task_id": "tmz-v3-c1-0000", "mode": "P0", "steps": [], "x": {deep}}}\n'
    source = tmp_path / "run" if as_dir else tmp_path / "run.jsonl"
    if as_dir:
        source.mkdir()
        (source / "records.jsonl").write_text(line)
    else:
        source.write_text(line)
    argv = [command, str(source), "--out", str(tmp_path / "out")]
    if command == "grade":
        argv[-1] = str(tmp_path / "out.jsonl")
    err = one_line(capsys, argv)
    assert "nested too deeply to be a trajectory record" in err


@pytest.mark.parametrize(("text", "words"), [("-1", "out of range 0..65535"),
                                             ("99999", "out of range 0..65535"),
                                             ("http", "not a port number")])
def test_a_port_out_of_range_is_an_argparse_error(text, words):
    from toolmaze_gym.cli.common import port_number

    with pytest.raises(Exception, match=words) as caught:
        port_number(text)
    assert type(caught.value).__name__ == "ArgumentTypeError"
    assert port_number("8765") == 8765 and port_number("0") == 0
