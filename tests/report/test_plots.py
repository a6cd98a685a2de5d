"""Figures: every compared run keeps its own colour, marker and line style; categories
are drawn as categories; undefined values are written n/a, never drawn at 0."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer

from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.report import Row, compute, load_rows
from toolmaze_gym.report.plots import colours, figure_gap, figure_vs_c, figure_vs_p
from toolmaze_gym.report.tables import markdown


def test_each_label_gets_its_own_colour_whatever_the_order():
    labels = ["base", "trained", "oracle", "naive", "retry", "validator", "random",
              *(f"run{k}" for k in range(30))]
    got = colours(labels)
    assert len(set(got.values())) == len(set(labels))
    assert colours(list(reversed(labels))) == got
    assert colours(["trained", "base"]) == colours(["base", "trained"])
    assert colours(["base", "trained"])["base"] != colours(["base", "trained"])["trained"]


# ---------------------------------------------------------------- what the figures show

NEVER = "never-exposed"


def _never_exposed(row: Row) -> Row:
    """A row whose trajectories never met a fault: PRR and RC are undefined."""
    recs = copy.deepcopy(row.records)
    for r in recs:
        r["grade"].update(exposed=False, recovered=None, c_rec=0.0)
    return Row(NEVER, "standard", recs, row.sources, row.suite)


@pytest.fixture(scope="module")
def stats(run_dirs):
    """validator and naive (both prompts), a twin of validator with identical values
    (as oracle's would be), and a row that was never exposed."""
    rows = load_rows([run_dirs["validator"], run_dirs["naive"]])
    std = next(r for r in rows if r.agent == "validator" and r.prompt == "standard")
    twin = Row("validator-twin", "standard", std.records, std.sources, std.suite)
    rows += [twin, _never_exposed(std)]
    return [compute(r, resamples=100) for r in rows]


def _series(ax) -> dict[str, ErrorbarContainer]:
    return {c.get_label(): c for c in ax.containers if isinstance(c, ErrorbarContainer)}


def _style(c: ErrorbarContainer) -> tuple:
    """(colour, marker, whisker dashes: None when solid, "none" without an interval
    to draw) as drawn."""
    line, _, whiskers = c.lines
    if not whiskers:
        return str(line.get_color()), line.get_marker(), "none"
    dashes = whiskers[0].get_linestyle()[0][1]
    return (str(line.get_color()), line.get_marker(), None if dashes is None else
            tuple(dashes))


@pytest.mark.parametrize("make", [figure_vs_c, figure_vs_p])
def test_every_run_has_its_own_colour_marker_and_line_style(stats, make):
    fig = make(stats)
    for ax in fig.axes:
        series = _series(ax)
        assert set(series) == {st.row.name for st in stats}
        colours = [_style(c)[0] for c in series.values()]
        markers = [_style(c)[1] for c in series.values()]
        assert len(set(colours)) == len(stats) and len(set(markers)) == len(stats)
        drawn = {n: _style(c)[2] for n, c in series.items() if _style(c)[2] != "none"}
        assert {n for n, d in drawn.items() if d is None} == \
            {st.row.name for st in stats if st.row.prompt == "failure_aware"} & set(drawn)
        assert len(drawn) >= len(stats) - 1  # only the never-exposed row may lack one


@pytest.mark.parametrize("make", [figure_vs_c, figure_vs_p])
def test_categories_are_markers_side_by_side_never_joined(stats, make):
    fig = make(stats)
    for ax in fig.axes:
        series = _series(ax)
        for c in series.values():
            assert c.lines[0].get_linestyle() == "None"  # markers, no joining line
        a, b = series["validator (standard)"].lines[0], series["validator-twin (standard)"]\
            .lines[0]
        assert np.array_equal(np.asarray(a.get_ydata(), float), np.asarray(b.get_ydata(), float),
                              equal_nan=True)  # the same ...
        assert all(x != y for x, y in zip(a.get_xdata(), b.get_xdata(), strict=True))  # apart
        names = [t.get_text() for t in ax.get_xticklabels()]
        assert names in (["C1", "C2", "C3", "C4"], ["NP", "P1", "P2", "P3", "P4"],
                         ["P1", "P2", "P3", "P4"])
        assert ax.get_xlabel() and ax.get_legend() is None
    assert fig.legends, "the legend sits outside the panels"
    assert f"grading version {GRADING_VERSION}" in fig.get_suptitle()


def _legend_clear_of_axes(fig) -> bool:
    fig.canvas.draw()
    box = fig.legends[0].get_window_extent()
    return not any(box.overlaps(ax.get_window_extent()) for ax in fig.axes)


def test_the_legend_covers_no_panel(stats):
    assert _legend_clear_of_axes(figure_vs_p(stats))
    assert _legend_clear_of_axes(figure_gap(stats))


def test_undefined_values_are_written_na_never_plotted_at_zero(stats):
    fig = figure_vs_p(stats)
    rc_ax = next(ax for ax in fig.axes if ax.get_ylabel().startswith("RC"))
    never = _series(rc_ax)[f"{NEVER} (standard)"].lines[0]
    ys = list(never.get_ydata())
    assert ys and all(math.isnan(y) for y in ys)  # not 0, the best RC
    na = [t for t in rc_ax.texts if t.get_text() == "n/a"]
    assert sorted(round(t.get_position()[0], 6) for t in na) == \
        sorted(round(x, 6) for x in never.get_xdata())
    gap = figure_gap(stats)
    for ax in gap.axes:
        assert sum(t.get_text() == "n/a" for t in ax.texts) == 2  # explicit and implicit


def test_tables_print_undefined_rc_as_na_beside_the_papers_convention(stats):
    text = markdown(stats, ["# t"])
    line = next(ln for ln in text.splitlines() if ln.startswith(f"| {NEVER} (standard) |"))
    cells = line.strip("|").split("|")
    rc = cells[11:16]  # RC P1..P4 and Avg in Table 2
    assert [c.strip() for c in rc] == ["n/a"] * 5
    assert "the paper's convention would print 0" in text
    assert text.count(f"_Grading version {GRADING_VERSION}") >= 6
