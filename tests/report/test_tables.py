"""results.md / results.csv show exactly the metrics module's figures for the same records,
one row per (agent, prompt), with NP shared between an agent's two prompt rows."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from toolmaze_gym import metrics
from toolmaze_gym.report import build_report, load_rows
from toolmaze_gym.report.tables import CSV_HEAD

MODES, FAULT, LEVELS = metrics.MODES, metrics.FAULT_MODES, metrics.LEVELS


@pytest.fixture(scope="module")
def report(run_dirs, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return build_report(list(run_dirs.values()), out, resamples=200, viewer=False)


def _row_records(records, agent, prompt):
    return [r for r in records[agent] if r["mode"] == "P0" or r["prompt"] == prompt]


def _csv(report):
    with report.csv.open() as fh:
        return list(csv.DictReader(fh))


def _close(text: str, value: float | None) -> bool:
    return (text == "") if value is None else abs(float(text) - 100 * value) < 1e-3


def test_one_row_per_agent_and_prompt_with_np_shared(run_dirs, records):
    rows = {(r.agent, r.prompt): r for r in load_rows(list(run_dirs.values()))}
    assert set(rows) == {(a, p) for a in records for p in ("standard", "failure_aware")}
    for (agent, prompt), row in rows.items():
        assert sorted(r["key"] for r in row.records) == sorted(
            r["key"] for r in _row_records(records, agent, prompt))
        assert {r["prompt"] for r in row.records if r["mode"] == "P0"} == {"standard"}


def test_csv_cells_equal_the_metrics_module(report, records):
    lines = _csv(report)
    assert list(lines[0]) == CSV_HEAD
    for agent in records:
        for prompt in ("standard", "failure_aware"):
            tbl = metrics.table(_row_records(records, agent, prompt))
            mine = {ln["C"]: ln for ln in lines if ln["agent"] == agent
                    and ln["prompt"] == prompt}
            assert set(mine) == {*LEVELS, "Avg"}
            assert mine["C2"]["TSR_NP"] == "" and mine["C2"]["n"] == "0"  # not run
            for level in ("C1", "C3"):
                for m in MODES:
                    cell = tbl["cells"][f"{level}/{m}"]
                    assert _close(mine[level][f"TSR_{'NP' if m == 'P0' else m}"], cell["TSR"])
                for m in FAULT:
                    cell = tbl["cells"][f"{level}/{m}"]
                    assert _close(mine[level][f"PRR_{m}"], cell["PRR"])
                    assert _close(mine[level][f"RC_{m}"], cell["RC"])
                assert _close(mine[level]["TSR_mean_all"], tbl["per_level"][level]["TSR"])
                assert _close(mine[level]["PRR_mean"], tbl["per_level"][level]["PRR"])
            avg = mine["Avg"]
            for m in FAULT:
                assert _close(avg[f"PRR_{m}"], tbl["per_mode"][m]["PRR"])
                assert _close(avg[f"RC_{m}"], tbl["per_mode"][m]["RC"])
            assert _close(avg["composite"], tbl["composite"])
            ci = metrics.bootstrap_table(_row_records(records, agent, prompt), n=200, seed=0)
            assert _close(avg["composite_ci_lo"], ci["composite"][0])


def test_markdown_table2_row_equals_the_metrics_module(report, records):
    text = report.markdown.read_text()
    tbl = metrics.table(_row_records(records, "naive", "failure_aware"))
    pm = tbl["per_mode"]
    expected = ([pm[m]["TSR"] for m in MODES]
                + [sum(pm[m]["TSR"] for m in FAULT) / 4]
                + [pm[m]["PRR"] for m in FAULT])
    line = next(ln for ln in text.splitlines() if ln.startswith("| naive (failure-aware) |"))
    cells = [c.strip() for c in line.strip("|").split("|")][1:]
    for got, want in zip(cells, expected, strict=False):
        assert got == ("n/a" if want is None else f"{100 * want:.2f}")
    assert cells[-2] == ("n/a" if tbl["composite"] is None else f"{100 * tbl['composite']:.2f}")


def test_behaviour_label_counts_match_the_records(report, records):
    text = report.markdown.read_text()
    recs = _row_records(records, "naive", "standard")
    counts = Counter(lb for r in recs for lb in r["grade"]["labels"])
    section = text.split("## Behaviour labels")[1]
    line = next(ln for ln in section.splitlines() if ln.startswith("| naive (standard) |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1] == str(len(recs))
    from toolmaze_gym.grading import LABELS

    for k, label in enumerate(LABELS):
        assert cells[2 + k].split()[0] == str(counts[label])


def test_undefined_values_print_n_a(tmp_path):
    from toolmaze_gym.runner import RunConfig, Selection, run

    run(RunConfig("oracle", selection=Selection(levels=["C2"], limit=1, modes=["P0"])),
        tmp_path / "np", progress=False)
    rep = build_report([tmp_path / "np"], tmp_path / "rep", resamples=20, plots=False,
                       viewer=False)
    line = next(ln for ln in rep.markdown.read_text().splitlines()
                if ln.startswith("| oracle (standard) |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[2:6] == ["n/a"] * 4 and cells[7:12] == ["n/a"] * 5  # P1–P4 never ran
    row = next(r for r in _csv(rep) if r["C"] == "C2")
    assert row["PRR_P1"] == "" and row["TSR_NP"] != ""


def test_plots_are_png_images(report):
    import matplotlib.image as mpimg

    assert len(report.plots) == 3
    for path in report.plots:
        img = mpimg.imread(path)
        assert img.shape[0] > 200 and img.shape[1] > 400


def test_faults_met_says_how_many_fault_mode_episodes_met_their_fault(report, records):
    """The play-test's figure (issue 28): per fault mode, the episodes whose fault fired."""
    text = report.markdown.read_text()
    section = text.split("## Faults met")[1].split("\n## ")[0]
    recs = _row_records(records, "naive", "standard")
    line = next(ln for ln in section.splitlines() if ln.startswith("| naive (standard) |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    for k, mode in enumerate(FAULT):
        of_mode = [r for r in recs if r["mode"] == mode]
        met = sum(bool(r["grade"]["exposed"]) for r in of_mode)
        assert cells[1 + k].split()[0] == f"{met}/{len(of_mode)}"
    assert metrics.faults_met([{"mode": "P1", "grade": {"exposed": True}},
                               {"mode": "P1", "grade": {"exposed": False}},
                               {"mode": "P0", "grade": {"exposed": False}}]) == {"P1": (1, 2)}
