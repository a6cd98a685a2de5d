"""Runs over a task file (``toolmaze eval --tasks``): a procedural dev split or a suite
directory is selected, played, resumed and reported exactly like a shipped suite."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from toolmaze_gym.cli import main
from toolmaze_gym.report import build_report
from toolmaze_gym.report.viewer import page_name
from toolmaze_gym.runner import RunConfig, RunError, Selection, read_records, record_key, run
from toolmaze_gym.tasks.suite import sha256

PROMPTS = ["standard", "failure_aware"]


@pytest.fixture(scope="module")
def dev_file(tmp_path_factory) -> Path:
    """Eight dev-split tasks (two per level), as `toolmaze generate` writes them."""
    path = tmp_path_factory.mktemp("dev") / "dev.jsonl"
    assert main(["generate", "--split", "dev", "--n", "8", "--out", str(path), "--quiet"]) == 0
    return path


def _sel(tasks: Path, **kw) -> Selection:
    return Selection(tasks=str(tasks), **{"limit": 1, "prompts": PROMPTS, **kw})


def _comparable(records: list[dict]) -> dict[str, dict]:
    return {record_key(r): {k: v for k, v in r.items() if k != "wall_s"} for r in records}


@pytest.fixture(scope="module")
def reference(dev_file, tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    out = tmp_path_factory.mktemp("ref") / "run"
    run(RunConfig("oracle", selection=_sel(dev_file)), out, progress=False)
    return out, _comparable(read_records(out))


def test_a_dev_file_run_covers_every_cell_with_the_files_tasks(dev_file, reference):
    out, records = reference
    ids = {json.loads(line)["id"] for line in dev_file.read_text().splitlines()}
    recs = list(records.values())
    # 4 levels x (NP once + P1-P4 under both prompts) = 36 episodes, one task per cell
    assert len(recs) == 36
    assert {(r["level"], r["mode"]) for r in recs} == {
        (f"C{c}", m) for c in range(1, 5) for m in ("P0", "P1", "P2", "P3", "P4")}
    assert {r["task_id"] for r in recs} <= ids
    assert all(r["grade"]["success"] for r in recs)  # the oracle solves what it is given
    # faults really fired: the profiles were built for the file's tasks
    assert any(s.get("fault") for r in recs if r["mode"] != "P0" for s in r["steps"])
    cfg = json.loads((out / "run.json").read_text())
    assert cfg["tasks"] == str(dev_file.resolve()) and cfg["task_digest"]
    kept = [json.loads(line)["id"] for line in (out / "tasks.jsonl").read_text().splitlines()]
    assert sorted(kept) == sorted({r["task_id"] for r in recs})


def test_fault_profiles_are_deterministic_across_runs(dev_file, reference, tmp_path):
    run(RunConfig("oracle", selection=_sel(dev_file)), tmp_path / "again", progress=False)
    assert _comparable(read_records(tmp_path / "again")) == reference[1]


def test_selection_flags_apply_to_a_task_file(dev_file):
    from toolmaze_gym.runner import select

    specs = select(_sel(dev_file, levels=["C2"], modes=["P1"], limit=None, repeats=2))
    assert {s.level for s in specs} == {"C2"} and {s.mode for s in specs} == {"P1"}
    assert len(specs) == 2 * 2 * 2  # two C2 tasks x both prompts x two repeats
    c3 = [json.loads(line)["id"] for line in dev_file.read_text().splitlines()
          if json.loads(line)["level"] == "C3"]
    one = select(_sel(dev_file, task_ids=[c3[1]], limit=None))
    assert {s.task_id for s in one} == {c3[1]}
    with pytest.raises(RunError, match="no task 'nope' in"):
        select(_sel(dev_file, task_ids=["nope"]))


def test_an_interrupted_run_resumes_to_the_same_records(dev_file, reference, tmp_path):
    out = tmp_path / "run"
    run(RunConfig("oracle", selection=_sel(dev_file)), out, progress=False)
    lines = (out / "records.jsonl").read_text().splitlines(keepends=True)
    (out / "records.jsonl").write_text("".join(lines[:10]) + lines[10][:25])  # killed
    summary = run(RunConfig("oracle", selection=_sel(dev_file)), out, resume=True,
                  progress=False)
    assert (summary.skipped, summary.episodes) == (10, 26)
    assert _comparable(read_records(out)) == reference[1]


def test_resume_follows_the_tasks_not_the_path(dev_file, reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference[0], out)
    moved = tmp_path / "moved.jsonl"
    shutil.copy(dev_file, moved)
    summary = run(RunConfig("oracle", selection=_sel(moved)), out, resume=True, progress=False)
    assert summary.skipped == 36 and summary.episodes == 0

    lines = dev_file.read_text().splitlines()
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines[:-1]) + "\n")  # one task fewer: another source
    with pytest.raises(RunError, match="holds a run over other tasks"):
        run(RunConfig("oracle", selection=_sel(edited)), out, resume=True, progress=False)
    with pytest.raises(RunError, match="holds a run over other tasks"):  # nor the suite
        run(RunConfig("oracle", selection=Selection(limit=1)), out, resume=True,
            progress=False)


def test_a_suite_directory_is_a_task_source(dev_file, tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    c1_lines = [line for line in dev_file.read_text().splitlines()
                if json.loads(line)["level"] == "C1"]
    c1 = "".join(line + "\n" for line in c1_lines)
    (suite / "C1.jsonl").write_text(c1)
    (suite / "manifest.json").write_text(json.dumps(
        {"files": {"C1.jsonl": sha256(c1.encode())}}))
    run(RunConfig("oracle", selection=Selection(tasks=str(suite), levels=["C1"], modes=["P2"])),
        tmp_path / "run", progress=False)
    assert {r["task_id"] for r in read_records(tmp_path / "run")} == {
        json.loads(line)["id"] for line in c1_lines}
    assert len(c1_lines) == 2


def test_duplicate_task_ids_are_refused(dev_file, tmp_path):
    first = dev_file.read_text().splitlines()[0]
    twice = tmp_path / "twice.jsonl"
    twice.write_text(f"{first}\n{first}\n")
    with pytest.raises(RunError, match="appears twice"):
        run(RunConfig("oracle", selection=_sel(twice)), tmp_path / "run", progress=False)


def test_the_report_shows_the_files_tasks_even_after_the_file_is_gone(dev_file, tmp_path):
    src = tmp_path / "dev.jsonl"
    shutil.copy(dev_file, src)
    out = tmp_path / "run"
    run(RunConfig("naive", selection=_sel(src, levels=["C1"], modes=["P2"])), out,
        progress=False)
    src.unlink()
    rep = build_report([out], tmp_path / "report", resamples=0, plots=False)
    task = json.loads(dev_file.read_text().splitlines()[0])
    assert read_records(out)[0]["task_id"] == task["id"]
    page = tmp_path / "report" / "viewer" / page_name(task["id"], "P2")
    html = page.read_text()
    assert "task not found" not in html and "Tool DAG" in html
    assert rep.viewer is not None


def _error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_cli_runs_a_task_file_and_resumes(dev_file, tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["eval", "--agent", "oracle", "--tasks", str(dev_file), "--limit", "1",
            "--mode", "NP,P3", "--out", str(out), "--no-report", "--quiet"]
    assert main(argv) == 0
    assert "8 episodes run (0 already done)" in capsys.readouterr().err
    assert main([*argv, "--resume"]) == 0
    assert "nothing left to run: 8 episodes already recorded" in capsys.readouterr().err


@pytest.mark.parametrize("content,message", [
    (None, "no such task file or suite directory"),
    ("{not json\n", "bad.jsonl:1:2: not valid JSON"),
    ('{"id": "x"}\n', "bad.jsonl:1: not a task"),
    ("\n", "holds no tasks"),
])
def test_a_missing_or_broken_task_file_is_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    err = _error(capsys, ["eval", "--agent", "oracle", "--tasks", str(path),
                          "--out", str(tmp_path / "run")])
    assert message in err
    assert not (tmp_path / "run").exists()  # a refused run leaves nothing behind


def test_tasks_and_suite_are_exclusive(dev_file, tmp_path, capsys):
    err = _error(capsys, ["eval", "--agent", "oracle", "--tasks", str(dev_file),
                          "--suite", "toolmaze-v1", "--out", str(tmp_path / "run")])
    assert "give one task source" in err
