"""``toolmaze eval`` / ``toolmaze report`` from the command line: a run writes records, a
run.json and a report; every mistake a user can make ends in one line and exit 2."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.cli import main

SMALL = ["--level", "C1", "--mode", "NP,P2", "--limit", "1"]


def _error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_eval_writes_records_run_json_and_a_report(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["eval", "--agent", "validator", *SMALL, "--out", str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "2 episodes run (0 already done)" in err
    assert f"report: {out / 'report' / 'results.md'}" in err
    assert len((out / "records.jsonl").read_text().splitlines()) == 2
    assert json.loads((out / "run.json").read_text())["modes"] == ["P0", "P2"]
    for name in ("results.md", "results.csv", "fig3_metrics_vs_C.png", "viewer/index.html"):
        assert (out / "report" / name).is_file(), name

    assert main(["eval", "--agent", "validator", *SMALL, "--out", str(out), "--resume",
                 "--no-report", "--quiet"]) == 0
    assert "nothing left to run: 2 episodes already recorded" in capsys.readouterr().err


def test_report_prints_the_main_table_and_compares_runs(tmp_path, capsys):
    for agent in ("oracle", "naive"):
        assert main(["eval", "--agent", agent, *SMALL, "--out", str(tmp_path / agent),
                     "--no-report", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(tmp_path / "oracle"), str(tmp_path / "naive"), "--out",
                 str(tmp_path / "rep"), "--resamples", "50", "--no-viewer"]) == 0
    printed = capsys.readouterr().out
    assert "## Table 2" in printed and "| oracle (standard) |" in printed
    assert "| naive (standard) |" in printed
    assert not (tmp_path / "rep" / "viewer").exists()


@pytest.mark.parametrize("argv, message", [
    (["--level", "C9"], "unknown level 'C9'"),
    (["--mode", "P9"], "P9"),
    (["--prompt", "polite"], "unknown prompt 'polite'"),
    (["--limit", "0"], "--limit"),
    (["--repeats", "0"], "--repeats"),
    (["--task-id", "tmz-v1-c9-9999"], "no task 'tmz-v1-c9-9999'"),
    (["--shard", "4/2"], "bad shard 4/2"),
    (["--shard", "half"], "bad --shard 'half'"),
    (["--max-steps", "0"], "--max-steps"),
    (["--batch", "0"], "--batch"),
    (["--base-url", "http://x"], "--base-url does not apply to the oracle agent"),
    (["--option", "speed"], "bad --option 'speed'"),
    (["--option", "speed=3"], "takes no option(s) speed"),
    (["--suite", "nope-v9"], "nope-v9"),
])
def test_eval_errors_are_one_line(tmp_path, capsys, argv, message):
    err = _error(capsys, ["eval", "--agent", "oracle", "--out", str(tmp_path / "r"), *argv])
    assert err.startswith("toolmaze eval: error: ") and message in err
    assert not (tmp_path / "r" / "run.json").exists()  # a refused run leaves nothing


def test_eval_refuses_a_used_run_directory(tmp_path, capsys):
    out = str(tmp_path / "r")
    assert main(["eval", "--agent", "oracle", *SMALL, "--out", out, "--no-report",
                 "--quiet"]) == 0
    capsys.readouterr()
    assert "--resume" in _error(capsys, ["eval", "--agent", "oracle", *SMALL, "--out", out])
    assert "another agent" in _error(capsys, ["eval", "--agent", "naive", *SMALL, "--out",
                                              out, "--resume"])
    (tmp_path / "file").write_text("x")
    assert "not a directory" in _error(capsys, ["eval", "--agent", "oracle", *SMALL, "--out",
                                                str(tmp_path / "file")])


def test_report_errors_are_one_line(tmp_path, capsys):
    assert "no such run directory" in _error(capsys, ["report", str(tmp_path / "none")])
    (tmp_path / "empty").mkdir()
    assert "holds no trajectory records" in _error(capsys, ["report", str(tmp_path / "empty")])
    assert "--out" in _error(capsys, ["report", str(tmp_path), str(tmp_path)])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "x"}\n')
    assert "bad.jsonl:1: not a trajectory record" in _error(capsys, ["report", str(bad)])
    assert "--resamples" in _error(capsys, ["report", str(tmp_path), "--resamples", "-1"])


def test_resuming_a_finished_run_prints_its_real_summary(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["eval", "--agent", "oracle", *SMALL, "--out", str(out), "--no-report", "--quiet"]
    assert main(argv) == 0
    assert "TSR 100.0%" in capsys.readouterr().err
    assert main([*argv, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "nothing left to run: 2 episodes already recorded; TSR 100.0%" in err, err


def test_resuming_a_partial_run_prints_the_tsr_of_every_recorded_episode(tmp_path, capsys):
    from tests.runner._policies import Replying
    from toolmaze_gym.runner import RunConfig, Selection, run

    out = tmp_path / "run"
    sel = Selection(levels=["C1"], limit=1, modes=["P0", "P2"])
    run(RunConfig("oracle", selection=sel), out, progress=False, policy=Replying("I give up"))
    path = out / "records.jsonl"
    path.write_text(path.read_text().splitlines(keepends=True)[0])  # one failed episode left
    assert main(["eval", "--agent", "oracle", "--level", "C1", "--limit", "1", "--mode",
                 "NP,P2", "--out", str(out), "--no-report", "--quiet", "--resume"]) == 0
    err = capsys.readouterr().err
    assert "1 episodes run (1 already done)" in err
    assert "TSR 50.0% over the 2 episodes recorded" in err, err
