"""Strict and free decoding of one model are two rows, named apart, in every report
output: results.csv, results.md and the viewer."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from toolmaze_gym.report import build_report


def _as_hf_run(src: Path, dst: Path, label: str, options: dict) -> Path:
    """A copy of a scripted run dressed as an ``hf`` run with ``options`` (the report
    reads only the records and run.json: what made the steps does not matter)."""
    shutil.copytree(src, dst)
    cfg = json.loads((dst / "run.json").read_text())
    cfg.update(agent="hf", label=label, agent_options=options, model="smollm2-135m-instruct")
    (dst / "run.json").write_text(json.dumps(cfg))
    lines = []
    for line in (dst / "records.jsonl").read_text().splitlines():
        rec = json.loads(line)
        rec.update(agent=label, agent_options=options)
        lines.append(json.dumps(rec))
    (dst / "records.jsonl").write_text("\n".join(lines) + "\n")
    return dst


@pytest.fixture(scope="module")
def report(run_dirs, tmp_path_factory):
    root = tmp_path_factory.mktemp("strict")
    free = _as_hf_run(run_dirs["validator"], root / "free", "smollm2-135m",
                      {"compact_tools": True})
    strict = _as_hf_run(run_dirs["naive"], root / "strict", "smollm2-135m",
                        {"compact_tools": True, "strict_calls": True})
    build_report([free, strict], root / "report", resamples=0, plots=False)
    return root / "report"


def test_results_csv_has_a_strict_row_beside_the_free_one(report):
    with (report / "results.csv").open() as f:
        agents = {row["agent"] for row in csv.DictReader(f)}
    assert {"smollm2-135m", "smollm2-135m (strict)"} <= agents
    assert not any("[" in a for a in agents)  # told apart by the label, not by folder


def test_results_md_and_the_viewer_name_the_strict_row(report):
    assert "smollm2-135m (strict)" in (report / "results.md").read_text()
    index = (report / "viewer" / "index.html").read_text()
    assert '<option value="smollm2-135m (strict)">' in index
    assert '<option value="smollm2-135m">' in index


def test_a_label_already_saying_strict_is_not_doubled(run_dirs, tmp_path):
    run = _as_hf_run(run_dirs["naive"], tmp_path / "s", "tiny (strict)",
                     {"strict_calls": True})
    build_report([run], tmp_path / "report", resamples=0, plots=False, viewer=False)
    with (tmp_path / "report" / "results.csv").open() as f:
        assert {row["agent"] for row in csv.DictReader(f)} == {"tiny (strict)"}
