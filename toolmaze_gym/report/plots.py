"""PNG figures like the paper's Figures 3, 4 and 6.

Figure 3: TSR, PRR and RC against the complexity level C1–C4. Figure 4: the same
against the perturbation mode. Figure 6: PRR under explicit vs implicit faults
(transient P1 vs P3, permanent P2 vs P4), whose gap shows over-trust in silently
wrong outputs.

Unlike the paper's line charts, C and P are drawn as categories: one marker per run
and category, runs set side by side so that equal values stay visible, never joined
by lines. Every run has its own colour and marker; its interval whisker takes the
paper's line style (solid: failure-aware prompt, dashed: standard). Undefined values
(PRR or RC where nothing was exposed) are written "n/a", never drawn at 0. The
legend sits below the panels, and every title states the grading version.

Figures are built on ``matplotlib.figure.Figure`` with the Agg canvas, never through
pyplot, so a report never touches a display or global plotting state.
"""

from __future__ import annotations

from pathlib import Path

from toolmaze_gym.report.tables import (
    FAULT_MODES,
    LEVELS,
    MODES,
    RowStats,
    averaged_over,
    levels_run,
    per_level,
    per_mode,
)

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


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*", "h", "p")
# failure-aware solid, standard dashed (the paper's convention), the rest after them
LINESTYLES = {"failure_aware": "-", "standard": "--"}
EXTRA_LINESTYLES = ("-.", ":", (0, (5, 1, 1, 1)), (0, (1, 3)))
NA = "n/a"


def styles(stats: list[RowStats]) -> dict[str, dict]:
    """One (colour, marker, line style) per row, no two rows alike in colour or marker:
    the colour and marker follow the row's name in sorted order (the same whatever
    order the runs were given in), the line style its prompt as in the paper."""
    names = sorted({st.row.name for st in stats})
    colour = colours(names)
    out = {}
    for st in stats:
        k = names.index(st.row.name)
        prompt = st.row.prompt
        ls = LINESTYLES.get(prompt) or EXTRA_LINESTYLES[k % len(EXTRA_LINESTYLES)]
        out[st.row.name] = {"color": colour[st.row.name], "marker": MARKERS[k % len(MARKERS)],
                            "linestyle": ls, "label": st.row.name}
    return out


def _pct(x: float | None) -> float:
    return float("nan") if x is None else 100 * x


def _offsets(n: int, width: float = 0.7) -> list[float]:
    """x offsets that set ``n`` runs side by side within a category, so that equal
    values (oracle and validator at 100) stay visible instead of covering each other."""
    if n == 1:
        return [0.0]
    return [-width / 2 + width * k / (n - 1) for k in range(n)]


def _series(ax, xs: list[float], ys: list[float], ci: list, style: dict) -> None:
    """One run on a categorical axis: markers (never joined lines), its interval as a
    whisker in the run's line style, and "n/a" where the value is undefined."""
    yerr = None
    if any(c for c in ci):
        lo = [y - 100 * c[0] if c and y == y else 0.0 for y, c in zip(ys, ci, strict=True)]
        hi = [100 * c[1] - y if c and y == y else 0.0 for y, c in zip(ys, ci, strict=True)]
        yerr = [lo, hi]
    eb = ax.errorbar(xs, ys, yerr=yerr, fmt=style["marker"], color=style["color"],
                     markersize=6, capsize=2, elinewidth=1.2, label=style["label"])
    for col in eb[2]:
        col.set_linestyle(style["linestyle"])
    for x, y in zip(xs, ys, strict=True):
        if y != y:  # NaN: undefined, said in words at the floor of the axis
            ax.text(x, 2, NA, rotation=90, ha="center", va="bottom", fontsize=6,
                    color=style["color"], gid="n/a")


def _version() -> str:
    from toolmaze_gym.grading import GRADING_VERSION

    return f"grading version {GRADING_VERSION}"


def _panels(stats: list[RowStats], panels: list[tuple[str, list[str], list[str], object,
                                                       object]],
            title: str, xlabel: str):
    """One categorical panel per (metric, x values, x labels, value getter, CI getter),
    side by side, with one legend below them all (never over the data)."""
    fig = _figure(12, 4.2 + 0.22 * ((len(stats) + 2) // 3))
    style = styles(stats)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    offsets = _offsets(len(stats))
    for ax, (metric, xs, names, get, get_ci) in zip(axes, panels, strict=True):
        for st, dx in zip(stats, offsets, strict=True):
            _series(ax, [k + dx for k in range(len(xs))],
                    [_pct(get(st, metric, x)) for x in xs],
                    [get_ci(st, metric, x) for x in xs], style[st.row.name])
        ax.set_xticks(range(len(xs)), names)
        ax.set_xlim(-0.6, len(xs) - 0.4)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(dict(METRICS)[metric])
        ax.set_ylim(-3, 108)
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(3, len(stats)),
               fontsize=7, frameon=False)
    fig.suptitle(f"{title} · {_version()} · n/a: undefined (nothing exposed or not run)",
                 fontsize=10)
    return fig


def _save(fig, path: Path) -> Path:
    fig.savefig(path)
    return path


def _ci(st: RowStats, scope: str, metric: str, key: str):
    return st.ci.get(scope, {}).get(key, {}).get(metric) if st.ci else None


def plot_vs_c(stats: list[RowStats], path: Path) -> Path:
    return _save(figure_vs_c(stats), path)


def plot_vs_p(stats: list[RowStats], path: Path) -> Path:
    return _save(figure_vs_p(stats), path)


def plot_gap(stats: list[RowStats], path: Path) -> Path:
    return _save(figure_gap(stats), path)


def figure_vs_c(stats: list[RowStats]):
    """Figure 3: TSR (over NP,P1–P4), PRR and RC (over P1–P4) per complexity level."""
    levels = list(LEVELS)

    def ci(st, metric, level):
        return _ci(st, "per_level", metric, level)

    return _panels(stats, [(m, levels, levels, per_level, ci) for m, _ in METRICS],
                   "Metrics across complexity levels", "complexity level (C)")


def figure_vs_p(stats: list[RowStats]):
    """Figure 4: TSR, PRR and RC per perturbation mode (averaged over the levels run)."""
    def names(modes):
        return ["NP" if m == "P0" else m for m in modes]

    def get(st, metric, mode):
        return per_mode(st, metric, mode)

    def ci(st, metric, mode):
        return _ci(st, "per_mode", metric, mode)

    panels = [("TSR", list(MODES), names(MODES), get, ci)]
    panels += [(m, list(FAULT_MODES), names(FAULT_MODES), get, ci) for m in ("PRR", "RC")]
    over = averaged_over(stats, levels_run, LEVELS)  # "C1 only, not C1–C4" for a C1-only run
    return _panels(stats, panels, f"Metrics across perturbation modes (averaged over {over})",
                   "perturbation mode (P)")


def _bars(ax, xs: list[float], values: list[float], **kw) -> None:
    """Bars, with "n/a" written where a value is undefined (no bar is not a zero)."""
    ax.bar(xs, [0.0 if v != v else v for v in values], width=0.4, **kw)
    for x, v in zip(xs, values, strict=True):
        if v != v:
            ax.text(x, 2, NA, rotation=90, ha="center", va="bottom", fontsize=7, gid="n/a")


def figure_gap(stats: list[RowStats]):
    """Figure 6: PRR under explicit vs implicit faults per row, the gap annotated."""
    fig = _figure(max(6, 1.6 * len(stats) + 3), 4.6)
    axes = fig.subplots(1, 2, sharey=True)
    names = [st.row.name for st in stats]
    for ax, (explicit, implicit, kind) in zip(
            axes, (("P1", "P3", "transient"), ("P2", "P4", "permanent")), strict=True):
        xs = list(range(len(stats)))
        ex = [_pct(per_mode(st, "PRR", explicit)) for st in stats]
        im = [_pct(per_mode(st, "PRR", implicit)) for st in stats]
        _bars(ax, [x - 0.2 for x in xs], ex, label="explicit (P1, P2)",
              color="#4c72b0")
        _bars(ax, [x + 0.2 for x in xs], im, label="implicit (P3, P4)", color="#dd8452",
              hatch="//")
        for x, e, i in zip(xs, ex, im, strict=True):
            if e == e and i == i:  # both defined (not NaN)
                ax.annotate(f"{e - i:+.0f}", (x, max(e, i) + 2), ha="center", fontsize=8)
        ax.set_xticks(xs, names, rotation=30, ha="right", fontsize=7)
        ax.set_title(f"{kind}: PRR gap (points)")
        ax.set_ylim(0, 112)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("PRR (%) ↑")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center",
               ncols=2, fontsize=8, frameon=False)
    fig.suptitle(f"Implicit vs explicit perturbations · {_version()} · n/a: nothing exposed",
                 fontsize=10)
    return fig


def write_plots(stats: list[RowStats], out_dir: Path) -> list[Path]:
    """The three figures as PNG files in ``out_dir``."""
    return [plot_vs_c(stats, out_dir / FILES["vs_c"]), plot_vs_p(stats, out_dir / FILES["vs_p"]),
            plot_gap(stats, out_dir / FILES["gap"])]
