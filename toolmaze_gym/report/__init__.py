"""Reports over evaluation runs: the paper's tables, figures and a trajectory viewer.

``build_report(["runs/a", "runs/b"], "runs/report")`` writes results.md and results.csv
(``tables``), scores.csv, summary.json and submission.json (``downloads``,
``submission``), three PNG figures (``plots``)
and viewer/index.html (``viewer``); one row per (agent, prompt) found in the runs
(``runs``), refused together when they were measured under different conditions
(``basis``). ``compare`` sets two runs side by side, episode by episode. Every grade is
derived again from its trajectory (``regrade``); the header says how many stored
grades disagreed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toolmaze_gym.report.regrade import Regraded
from toolmaze_gym.report.runs import Row, load_graded, load_rows
from toolmaze_gym.report.tables import RowStats, compute, csv_text, markdown
from toolmaze_gym.runner import RunError

__all__ = ["Regraded", "Report", "Row", "RowStats", "build_report", "compute", "load_graded",
           "load_rows", "write_report"]


@dataclass
class Report:
    """Where a report was written."""

    out: Path
    markdown: Path
    csv: Path
    plots: list[Path] = field(default_factory=list)
    downloads: list[Path] = field(default_factory=list)  # scores.csv, summary.json
    viewer: Path | None = None
    stats: list[RowStats] = field(default_factory=list)
    regrade: Regraded = field(default_factory=Regraded)  # how the stored grades compared
    mixed: list[str] = field(default_factory=list)  # how rows differ (--allow-mixed)


def _header(stats: list[RowStats], sources: Sequence[str | Path],
            graded: Regraded | None = None, mixed: Sequence[str] = ()) -> list[str]:
    runs = ", ".join(f"`{s}`" for s in sources)
    n = sum(st.n for st in stats)
    return ["# ToolMaze-Gym results", "",
            f"Runs: {runs}. {len(stats)} row{'s' * (len(stats) != 1)}, {n} trajectories. "
            f"Written {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
            "Values in %; n/a: undefined (no exposure, or a cell that was not run).",
            *(graded.lines() if graded else []),
            *([f"**Mixed runs (--allow-mixed): the rows are not comparable as they stand;** "
               f"they differ in {'; '.join(mixed)}."] if mixed else [])]


def _viewer_ready() -> None:
    """The viewer's DAG layout needs grandalf, a required dependency newer than the rest:
    an environment installed before it gets this one line before any run is read, not
    a traceback after the tables."""
    try:
        import grandalf.layouts  # noqa: F401
    except ImportError:
        raise RunError("the trajectory viewer needs grandalf: pip install 'grandalf==0.8' "
                       "(or pip install -e . again), or pass --no-viewer") from None


def build_report(sources: Sequence[str | Path], out: str | Path, resamples: int = 1000,
                 seed: int = 0, plots: bool = True, viewer: bool = True,
                 max_pages: int | None = None, allow_mixed: bool = False) -> Report:
    """Load the runs, compute every row's figures, and write the report to ``out``.
    The viewer gets a page for every episode unless ``max_pages`` caps them. Rows that
    differ in suite, tool documentation, calling convention, grading version or
    coverage raise :class:`~toolmaze_gym.report.basis.MixedRuns` (a ``RunError``)
    before anything is written, unless ``allow_mixed``: then the report says so."""
    from toolmaze_gym.report.basis import check

    if viewer:
        _viewer_ready()
    rows, graded = load_graded(list(sources))
    mixed = check(rows, allow_mixed)
    return write_report(rows, graded, sources, out, resamples, seed, plots, viewer, max_pages,
                        mixed)


def write_report(rows: list[Row], graded: Regraded, sources: Sequence[str | Path],
                 out: str | Path, resamples: int = 1000, seed: int = 0, plots: bool = True,
                 viewer: bool = True, max_pages: int | None = None,
                 mixed: Sequence[str] = ()) -> Report:
    """The report of rows already loaded: tables, downloads, figures and viewer;
    ``mixed`` (how the rows differ) goes into the header and the downloads."""
    from toolmaze_gym.report.downloads import links_line, write_downloads

    if viewer:
        _viewer_ready()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    stats = [compute(r, resamples, seed) for r in rows]
    rep = Report(out, out / "results.md", out / "results.csv", stats=stats, regrade=graded,
                 mixed=list(mixed))
    header = [*_header(stats, sources, graded, mixed), "", links_line()]
    rep.markdown.write_text(markdown(stats, header), encoding="utf-8")
    rep.csv.write_text(csv_text(stats), encoding="utf-8")
    rep.downloads = write_downloads(stats, [str(s) for s in sources], out, list(mixed),
                                    resamples, seed)
    if plots:
        from toolmaze_gym.report.plots import write_plots

        rep.plots = write_plots(stats, out)
    if viewer:
        from toolmaze_gym.report.viewer import write_viewer

        rep.viewer = write_viewer(rows, out / "viewer", max_pages)
    return rep
