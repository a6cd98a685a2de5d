"""Reports over evaluation runs: the paper's tables, figures and a trajectory viewer.

``build_report(["runs/a", "runs/b"], "runs/report")`` writes results.md and results.csv
(``tables``), scores.csv and summary.json (``downloads``), three PNG figures (``plots``)
and viewer/index.html (``viewer``); one row per (agent, prompt) found in the runs
(``runs``). ``compare`` sets two runs side by side, episode by episode. Every grade is
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


def _header(stats: list[RowStats], sources: Sequence[str | Path],
            graded: Regraded | None = None) -> list[str]:
    runs = ", ".join(f"`{s}`" for s in sources)
    n = sum(st.n for st in stats)
    return ["# ToolMaze-Gym results", "",
            f"Runs: {runs}. {len(stats)} rows, {n} trajectories. "
            f"Written {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
            "Values in %; n/a: undefined (no exposure, or a cell that was not run).",
            *(graded.lines() if graded else [])]


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
                 max_pages: int | None = None) -> Report:
    """Load the runs, compute every row's figures, and write the report to ``out``.
    The viewer gets a page for every episode unless ``max_pages`` caps them."""
    if viewer:
        _viewer_ready()
    rows, graded = load_graded(list(sources))
    return write_report(rows, graded, sources, out, resamples, seed, plots, viewer, max_pages)


def write_report(rows: list[Row], graded: Regraded, sources: Sequence[str | Path],
                 out: str | Path, resamples: int = 1000, seed: int = 0, plots: bool = True,
                 viewer: bool = True, max_pages: int | None = None) -> Report:
    """The report of rows already loaded: tables, downloads, figures and viewer."""
    from toolmaze_gym.report.downloads import links_line, write_downloads

    if viewer:
        _viewer_ready()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    stats = [compute(r, resamples, seed) for r in rows]
    rep = Report(out, out / "results.md", out / "results.csv", stats=stats, regrade=graded)
    header = [*_header(stats, sources, graded), "", links_line()]
    rep.markdown.write_text(markdown(stats, header), encoding="utf-8")
    rep.csv.write_text(csv_text(stats), encoding="utf-8")
    rep.downloads = write_downloads(stats, [str(s) for s in sources], out)
    if plots:
        from toolmaze_gym.report.plots import write_plots

        rep.plots = write_plots(stats, out)
    if viewer:
        from toolmaze_gym.report.viewer import write_viewer

        rep.viewer = write_viewer(rows, out / "viewer", max_pages)
    return rep
