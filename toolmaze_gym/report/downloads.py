"""Machine-readable downloads beside a report's tables: the per-task score matrix
(scores.csv), the summary (summary.json) and the leaderboard entry (submission.json,
``submission``).

Why: the tables are for reading; a researcher who wants to re-analyse a run (a
significance test of their own, a plot of one task family) needs the numbers per task
and the versions they came from, without parsing markdown. The score matrix has one
line per (task, mode) and one column per report row (agent and prompt); the summary
holds every row's metrics and intervals with the grading version and the suite's
name and manifest version, so two downloads can be told apart years later; both say
what made each row (model, endpoint host, calling convention, sampling, coverage).
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from toolmaze_gym.report.tables import MODE_LABEL, RowStats

FILES = {"scores": "scores.csv", "summary": "summary.json", "submission": "submission.json"}
MATRIX_HEAD = ["task_id", "C", "P"]


def score_matrix(stats: list[RowStats]) -> tuple[list[str], list[list[str]]]:
    """Columns and lines of the task × mode × row matrix: each value is the row's
    success share over its repeats of that episode (1 or 0 without repeats), empty
    where the row did not run it."""
    names = [st.row.name for st in stats]
    scores: dict[tuple[str, str, str], dict[str, list[bool]]] = defaultdict(
        lambda: defaultdict(list))
    for st in stats:
        for rec in st.row.records:
            key = (rec["task_id"], rec["level"], rec["mode"])
            scores[key][st.row.name].append(bool(rec["grade"]["success"]))
    lines = []
    for (task_id, level, mode), per in sorted(scores.items(),
                                              key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
        cells = [f"{sum(per[n]) / len(per[n]):.4g}" if per.get(n) else "" for n in names]
        lines.append([task_id, level, MODE_LABEL.get(mode, mode), *cells])
    return [*MATRIX_HEAD, *names], lines


# Lines under the matrix's header that say what made each column (their task_id starts
# with "#": ``pandas.read_csv(path, comment="#")`` reads the bare matrix)
META_LINES = ("model", "endpoint", "convention", "tool_docs", "sampling")


def meta_lines(stats: list[RowStats]) -> list[list[str]]:
    """``#model``, ``#endpoint``... lines: each column's value, empty where not
    applicable (a scripted agent), ``sampling`` as JSON."""
    from toolmaze_gym.report.basis import basis

    bases = [basis(st.row) for st in stats]
    out = []
    for name in META_LINES:
        vals = [getattr(b, name) for b in bases]
        out.append([f"#{name}", "", "", *("" if v is None else json.dumps(v, sort_keys=True)
                                          if isinstance(v, dict) else str(v) for v in vals)])
    return out


def matrix_csv(stats: list[RowStats]) -> str:
    head, lines = score_matrix(stats)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(head)
    w.writerows(meta_lines(stats))
    w.writerows(lines)
    return buf.getvalue()


def suite_info(name: str) -> dict[str, Any]:
    """A suite's name and the version fields of its manifest; a run over a task file
    (no shipped suite) says so."""
    from toolmaze_gym.tasks.suite import SuiteError, manifest

    if not name:
        return {"name": None, "note": "a task file, not a shipped suite"}
    try:
        m = manifest(name)
    except (SuiteError, FileNotFoundError, OSError):
        return {"name": name, "note": "not a shipped suite here"}
    return {"name": name, **{k: m[k] for k in ("generator", "scenarios", "seed", "per_level")
                             if k in m}}


def row_facts(st: RowStats) -> dict[str, Any]:
    """What produced a row: model, endpoint host, calling convention, tool docs,
    sampling, and what it ran (levels, modes, tasks, n)."""
    from toolmaze_gym.report.basis import basis

    b = basis(st.row)
    return {"model": b.model, "endpoint": b.endpoint, "convention": b.convention,
            "tool_docs": b.tool_docs, "sampling": b.sampling,
            "covers": {"levels": list(b.coverage.levels), "modes": list(b.coverage.modes),
                       "tasks": b.coverage.tasks, "n": b.coverage.n}}


def _row_summary(st: RowStats) -> dict[str, Any]:
    return {"name": st.row.name, "agent": st.row.agent, "prompt": st.row.prompt,
            **row_facts(st),
            "trajectories": st.n, "suite": st.row.suite or None, "sources": st.row.sources,
            "metrics": st.table, "ci95": st.ci or None, "valid_call_rate": st.valid_calls,
            "labels": dict(sorted(st.labels.items())), "cuts": dict(sorted(st.cuts.items())),
            "usage_per_episode": st.usage,
            "pass_k": {str(k): v for k, v in st.pass_k.items()} or None}


def summary(stats: list[RowStats], sources: list[str],
            mixed: list[str] | None = None) -> dict[str, Any]:
    """The report as data: versions first, then every row (values in [0, 1], null
    where undefined); ``mixed`` lists how the rows differ (reported with
    --allow-mixed; empty when they are comparable)."""
    from toolmaze_gym.grading import GRADING_VERSION

    suites = sorted({st.row.suite for st in stats})
    return {"grading_version": GRADING_VERSION,
            "suites": [suite_info(s) for s in suites],
            "sources": [str(s) for s in sources],
            "mixed": list(mixed or []),
            "agents": sorted({st.row.agent for st in stats}),
            "values": "fractions in [0, 1]; null: undefined (nothing exposed, or not run)",
            "rows": [_row_summary(st) for st in stats]}


def write_downloads(stats: list[RowStats], sources: list[str], out: Path,
                    mixed: list[str] | None = None, resamples: int = 1000,
                    seed: int = 0) -> list[Path]:
    """scores.csv, summary.json and submission.json in ``out``."""
    from toolmaze_gym.report.submission import submission

    scores, summ = out / FILES["scores"], out / FILES["summary"]
    sub = out / FILES["submission"]
    scores.write_text(matrix_csv(stats), encoding="utf-8")
    summ.write_text(json.dumps(summary(stats, sources, mixed), indent=1, sort_keys=False)
                    + "\n", encoding="utf-8")
    sub.write_text(json.dumps(submission(stats, mixed, resamples, seed), indent=1) + "\n",
                   encoding="utf-8")
    return [scores, summ, sub]


def links_line() -> str:
    """The markdown line that points at the downloads, under the report's header."""
    return (f"Downloads: [{FILES['scores']}]({FILES['scores']}) (success per task × mode × "
            f"row, over repeats), [{FILES['summary']}]({FILES['summary']}) (every figure "
            "with the grading and suite versions), "
            f"[{FILES['submission']}]({FILES['submission']}) (per-cell scores with "
            "intervals, for a leaderboard), results.csv (the tables).")
