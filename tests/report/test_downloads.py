"""Downloads beside the tables: the task × mode × row score matrix and the summary
with the versions a reader needs to trust (or reproduce) the figures."""

from __future__ import annotations

import csv
import json

import pytest

from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.report import build_report
from toolmaze_gym.tasks.suite import SUITE_NAME, manifest


@pytest.fixture(scope="module")
def report(run_dirs, tmp_path_factory):
    return build_report([run_dirs["validator"], run_dirs["naive"]],
                        tmp_path_factory.mktemp("dl"), resamples=50, plots=False,
                        viewer=False)


def test_the_score_matrix_has_every_episode_and_every_row(report, records):
    with (report.out / "scores.csv").open(encoding="utf-8") as fh:
        lines = list(csv.DictReader(fh))
    # what made each column comes first, on lines read as comments (pandas: comment="#")
    assert [ln["task_id"] for ln in lines[:5]] == ["#model", "#endpoint", "#convention",
                                                   "#tool_docs", "#sampling"]
    lines = lines[5:]
    names = [st.row.name for st in report.stats]
    assert list(lines[0])[3:] == names
    episodes = {(r["task_id"], r["mode"]) for recs in records.values() for r in recs}
    assert len(lines) == len(episodes)
    by_key = {(ln["task_id"], "P0" if ln["P"] == "NP" else ln["P"]): ln for ln in lines}
    for agent, recs in records.items():
        for r in recs:
            prompt = "failure-aware" if r.get("prompt") == "failure_aware" else "standard"
            got = by_key[(r["task_id"], r["mode"])][f"{agent} ({prompt})"]
            assert got == str(int(r["grade"]["success"]))
    # NP runs with the standard prompt only: the failure-aware row borrows it
    np_line = next(ln for ln in lines if ln["P"] == "NP")
    assert np_line["naive (failure-aware)"] == np_line["naive (standard)"]


def test_the_summary_names_its_versions_and_holds_the_tables(report):
    data = json.loads((report.out / "summary.json").read_text(encoding="utf-8"))
    assert data["grading_version"] == GRADING_VERSION
    suite = data["suites"][0]
    assert suite["name"] == SUITE_NAME
    assert suite["generator"] == manifest(SUITE_NAME)["generator"]
    assert data["agents"] == ["naive", "validator"]
    for row, st in zip(data["rows"], report.stats, strict=True):
        assert row["name"] == st.row.name
        assert row["metrics"]["composite"] == pytest.approx(st.table["composite"])
        assert row["metrics"]["per_mode"]["P0"]["RC"] is None  # nothing exposed in NP
    md = report.markdown.read_text(encoding="utf-8")
    assert "[scores.csv](scores.csv)" in md and "[summary.json](summary.json)" in md
