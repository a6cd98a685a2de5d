"""``toolmaze grade RUN_DIR`` grades a run over a task file against the tasks the run
kept (``tasks.jsonl``), as ``toolmaze report`` does; it used to look them up in the
shipped suite and refuse every record ("not in toolmaze-v3 (pass --tasks)")."""

from __future__ import annotations

from toolmaze_gym.cli.app import main
from toolmaze_gym.runner import TASKS_FILE, RunConfig, Selection, run
from toolmaze_gym.tasks.suite import generate_split


def test_grade_reads_the_tasks_a_run_directory_kept(tmp_path, capsys):
    tasks = tmp_path / "dev.jsonl"
    tasks.write_text("".join(t.to_json() + "\n" for t in generate_split("dev", 1,
                                                                         levels=["C1"])))
    run_dir = tmp_path / "run"
    run(RunConfig("oracle", selection=Selection(tasks=str(tasks), levels=["C1"],
                                                modes=["P0", "P2"])), run_dir, progress=False)
    tasks.unlink()  # the run folder alone travels; its tasks.jsonl still has them
    assert (run_dir / TASKS_FILE).is_file()
    assert main(["grade", str(run_dir)]) == 0
    out, err = capsys.readouterr()
    assert "2 trajectories" in out
    assert "0 grades changed" in err, err


def test_an_explicit_tasks_option_still_wins(tmp_path, capsys):
    tasks = tmp_path / "dev.jsonl"
    tasks.write_text("".join(t.to_json() + "\n" for t in generate_split("dev", 1,
                                                                         levels=["C1"])))
    run_dir = tmp_path / "run"
    run(RunConfig("oracle", selection=Selection(tasks=str(tasks), levels=["C1"],
                                                modes=["P0"])), run_dir, progress=False)
    assert main(["grade", str(run_dir), "--tasks", "toolmaze-v3"]) == 2
    assert "is not in toolmaze-v3" in capsys.readouterr().err
