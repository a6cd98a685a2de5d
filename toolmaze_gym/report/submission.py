"""submission.json: a report's results in the shape a leaderboard takes.

Why: summary.json is everything a report computed, for re-analysis; a leaderboard
needs less, fixed and self-describing: which model, how it called tools, which suite
and grading rules, when it ran, and each (C, P) cell's scores with their intervals, so
an entry can be checked against others (same suite, same grading version) without
reading our tables. Every field comes from the runs (the date is the run's start in
run.json, never the time the report was written), so the same runs always give the
same file. Fields are documented in docs/reports.md.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym import metrics
from toolmaze_gym.report.tables import MODE_LABEL, RowStats

FORMAT = "toolmaze-submission/1"
METRICS = ("TSR", "PRR", "RC")


def _scored(value: float | None, ci: Any) -> dict[str, Any]:
    return {"value": value, "ci95": list(ci) if ci else None}


def _cells(st: RowStats, resamples: int, seed: int) -> dict[str, Any]:
    """Each cell's n, exposed count and TSR/PRR/RC with a percentile bootstrap interval
    (trajectories of the cell resampled; null without resamples or exposure)."""
    grades = metrics.by_cell(st.row.records)
    out = {}
    for key, cell in st.table["cells"].items():
        level, mode = key.split("/")
        got = grades[(level, mode)]
        out[f"{level}/{MODE_LABEL.get(mode, mode)}"] = {
            "n": cell["n"], "exposed": cell["exposed"],
            **{m: _scored(cell[m], metrics.bootstrap_ci(got, m, resamples, seed)
                          if resamples and cell[m] is not None else None)
               for m in METRICS}}
    return out


def _per_mode(st: RowStats) -> dict[str, Any]:
    cis = st.ci.get("per_mode", {}) if st.ci else {}
    return {MODE_LABEL.get(mode, mode): {m: _scored(vals.get(m), cis.get(mode, {}).get(m))
                                         for m in METRICS}
            for mode, vals in st.table["per_mode"].items()}


def entry(st: RowStats, resamples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """One row of the report as a leaderboard entry."""
    from toolmaze_gym.report.basis import basis

    b = basis(st.row)
    return {"name": st.row.name, "model": b.model, "agent": st.row.agent,
            "prompt": st.row.prompt, "convention": b.convention, "tool_docs": b.tool_docs,
            "endpoint": b.endpoint, "sampling": b.sampling, "date": b.date,
            "toolmaze_version": b.toolmaze_version, "suite": b.suite,
            "recorded_grading_version": b.grading,
            "covers": {"levels": list(b.coverage.levels),
                       "modes": [MODE_LABEL.get(m, m) for m in b.coverage.modes],
                       "cells": len(st.table["cells"]), "tasks": b.coverage.tasks,
                       "n": b.coverage.n,
                       "full_grid": len(st.table["cells"]) == len(metrics.LEVELS)
                       * len(metrics.MODES)},
            "composite": _scored(st.table["composite"], st.ci.get("composite")
                                 if st.ci else None),
            "per_mode": _per_mode(st), "cells": _cells(st, resamples, seed)}


def submission(stats: list[RowStats], mixed: list[str] | None = None, resamples: int = 1000,
               seed: int = 0) -> dict[str, Any]:
    """The whole file: versions, how intervals were made, one entry per report row."""
    from toolmaze_gym.grading import GRADING_VERSION
    from toolmaze_gym.report.downloads import suite_info

    return {"format": FORMAT, "benchmark": "ToolMaze-Gym",
            "grading_version": GRADING_VERSION,
            "suites": [suite_info(s) for s in sorted({st.row.suite for st in stats})],
            "values": "fractions in [0, 1]; null: undefined (nothing exposed, or not run)",
            "intervals": {"kind": "percentile bootstrap, 95%", "resamples": resamples,
                          "seed": seed, "resampled": "trajectories within each (C, P) cell"},
            "comparable": not mixed, "mixed": list(mixed or []),
            "entries": [entry(st, resamples, seed) for st in stats]}
