"""PNG figures like the paper's Figures 3, 4 and 6.

Figure 3: TSR, PRR and RC against the complexity level C1–C4. Figure 4: the same
against the perturbation mode. Figure 6: PRR under explicit vs implicit faults
(transient P1 vs P3, permanent P2 vs P4), whose gap shows over-trust in silently
wrong outputs. As in the paper, solid lines are the failure-aware prompt and dashed
lines the standard one; one colour per agent.

Figures are built on ``matplotlib.figure.Figure`` with the Agg canvas, never through
pyplot, so a report never touches a display or global plotting state.
"""

from __future__ import annotations

from pathlib import Path

from toolmaze_gym.report.tables import FAULT_MODES, LEVELS, MODES, RowStats, per_level, per_mode

FILES = {"vs_c": "fig3_metrics_vs_C.png", "vs_p": "fig4_metrics_vs_P.png",
         "gap": "fig6_implicit_explicit_gap.png"}
METRICS = (("TSR", "TSR (%) ↑"), ("PRR", "PRR (%) ↑"), ("RC", "RC (%) ↓"))


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def colours(labels: list[str]) -> dict[str, tuple[float, ...]]:
    """One distinct colour per label, the same whatever order the runs were given in:
    labels sorted, tab20's 20 colours (dark shades first), then evenly spaced hues."""
    from matplotlib import colormaps
    from matplotlib.colors import hsv_to_rgb

    names = sorted(set(labels))
    tab = colormaps["tab20"].colors
    palette = [tab[k] for k in (*range(0, 20, 2), *range(1, 20, 2))]
    extra = len(names) - len(palette)
    palette += [tuple(hsv_to_rgb((k / extra, 0.8, 0.7))) for k in range(max(extra, 0))]
    return {name: tuple(palette[k]) for k, name in enumerate(names)}


def _style(stats: list[RowStats]) -> dict[str, dict]:
    colour = colours([st.row.agent for st in stats])
    return {st.row.name: {"color": colour[st.row.agent], "marker": "o",
                          "linestyle": "-" if st.row.prompt == "failure_aware" else "--",
                          "label": st.row.name} for st in stats}


def _pct(x: float | None) -> float:
    return float("nan") if x is None else 100 * x


def _panels(stats: list[RowStats], panels: list[tuple[str, list[str], list[str], object]],
            title: str, path: Path) -> Path:
    """One line chart per (metric, x values, x labels, getter), side by side."""
    fig = _figure(12, 3.8)
    style = _style(stats)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (metric, xs, names, get) in zip(axes, panels, strict=True):
        for st in stats:
            ax.plot(names, [_pct(get(st, metric, x)) for x in xs], **style[st.row.name])
        ax.set_ylabel(dict(METRICS)[metric])
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="best")
    fig.suptitle(title)
    fig.savefig(path)
    return path


def plot_vs_c(stats: list[RowStats], path: Path) -> Path:
    """Figure 3: TSR (over NP,P1–P4), PRR and RC (over P1–P4) per complexity level."""
    levels = list(LEVELS)
    return _panels(stats, [(m, levels, levels, per_level) for m, _ in METRICS],
                   "Metrics across complexity levels", path)


def plot_vs_p(stats: list[RowStats], path: Path) -> Path:
    """Figure 4: TSR, PRR and RC per perturbation mode (averaged over C1–C4)."""
    def names(modes):
        return ["NP" if m == "P0" else m for m in modes]

    def get(st, metric, mode):
        return per_mode(st, metric, mode)

    panels = [("TSR", list(MODES), names(MODES), get)]
    panels += [(m, list(FAULT_MODES), names(FAULT_MODES), get) for m in ("PRR", "RC")]
    return _panels(stats, panels, "Metrics across perturbation modes (averaged over C1–C4)",
                   path)


def plot_gap(stats: list[RowStats], path: Path) -> Path:
    fig = _figure(max(6, 1.6 * len(stats) + 3), 4.2)
    axes = fig.subplots(1, 2, sharey=True)
    names = [st.row.name for st in stats]
    for ax, (explicit, implicit, kind) in zip(
            axes, (("P1", "P3", "transient"), ("P2", "P4", "permanent")), strict=True):
        xs = range(len(stats))
        ex = [_pct(per_mode(st, "PRR", explicit)) for st in stats]
        im = [_pct(per_mode(st, "PRR", implicit)) for st in stats]
        ax.bar([x - 0.2 for x in xs], ex, width=0.4, label=f"explicit ({explicit})",
               color="#4c72b0")
        ax.bar([x + 0.2 for x in xs], im, width=0.4, label=f"implicit ({implicit})",
               color="#dd8452")
        for x, e, i in zip(xs, ex, im, strict=True):
            if e == e and i == i:  # both defined (not NaN)
                ax.annotate(f"{e - i:+.0f}", (x, max(e, i) + 2), ha="center", fontsize=8)
        ax.set_xticks(list(xs), names, rotation=30, ha="right", fontsize=7)
        ax.set_title(f"{kind}: PRR gap (points)")
        ax.set_ylim(0, 110)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("PRR (%) ↑")
    fig.suptitle("Implicit vs explicit perturbations")
    fig.savefig(path)
    return path


def write_plots(stats: list[RowStats], out_dir: Path) -> list[Path]:
    """The three figures as PNG files in ``out_dir``."""
    return [plot_vs_c(stats, out_dir / FILES["vs_c"]), plot_vs_p(stats, out_dir / FILES["vs_p"]),
            plot_gap(stats, out_dir / FILES["gap"])]
