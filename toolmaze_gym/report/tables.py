"""The paper's tables from report rows: results.md and results.csv.

Layouts follow the paper: Table 2 (per P, macro-averaged over C, with the composite
Avg.), Table 20 (per C) and Table 21 (full C×P). Every figure comes from
``toolmaze_gym.metrics`` (the same code as ``toolmaze grade``); this module only lays
it out. Two averages differ on purpose, as in the paper: Table 2's TSR "Avg" is over
P1–P4, while per-C TSR and the composite use NP too. An undefined value (PRR or RC
without exposure, a cell with no run) prints "n/a"; every table states its grading
version.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym import metrics
from toolmaze_gym.grading import LABELS
from toolmaze_gym.report.calls import valid_call_rate
from toolmaze_gym.report.runs import Row

MODES, FAULT_MODES, LEVELS = metrics.MODES, metrics.FAULT_MODES, metrics.LEVELS
MODE_LABEL = {"P0": "NP"}
CUTS = ("context", "loop", "error")


@dataclass
class RowStats:
    """Everything the tables show about one row."""

    row: Row
    table: dict[str, Any]
    ci: dict[str, Any]
    labels: Counter = field(default_factory=Counter)
    cuts: Counter = field(default_factory=Counter)
    truncated: int = 0
    usage: dict[str, float] = field(default_factory=dict)
    valid_calls: float | None = None  # share of actions that were valid tool calls
    pass_k: dict[int, float | None] = field(default_factory=dict)
    met: dict[str, tuple[int, int]] = field(default_factory=dict)  # see metrics.faults_met

    @property
    def n(self) -> int:
        return len(self.row.records)


def mean(xs: Sequence[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


def compute(row: Row, resamples: int = 1000, seed: int = 0) -> RowStats:
    recs = row.records
    stats = RowStats(row, metrics.table(recs),
                     metrics.bootstrap_table(recs, n=resamples, seed=seed) if resamples else {})
    for r in recs:
        stats.labels.update(r["grade"].get("labels", []))
        if r.get("cut"):
            stats.cuts[r["cut"]] += 1
        stats.truncated += bool(r.get("truncated")) and not r.get("cut")
    usage = [r.get("usage") or {} for r in recs]
    stats.usage = {
        "turns": mean([u.get("turns") for u in usage]) or 0.0,
        "shared_turns": mean([u.get("shared_turns", 0) for u in usage]) or 0.0,
        "prompt_tokens": mean([u.get("prompt_tokens") for u in usage]) or 0.0,
        "completion_tokens": mean([u.get("completion_tokens") for u in usage]) or 0.0,
        "wall_s": mean([r.get("wall_s") for r in recs]) or 0.0}
    stats.usage["tokens"] = stats.usage["prompt_tokens"] + stats.usage["completion_tokens"]
    stats.valid_calls = valid_call_rate(recs)
    stats.met = metrics.faults_met(recs)
    repeats = max(int(r.get("repeat", 0)) for r in recs) + 1
    if repeats > 1:
        stats.pass_k = {k: metrics.pass_hat_k_records(recs, k) for k in range(1, repeats + 1)}
    return stats


# ---------------------------------------------------------------- values


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}"


def per_mode(st: RowStats, metric: str, mode: str) -> float | None:
    return st.table["per_mode"].get(mode, {}).get(metric)


def per_level(st: RowStats, metric: str, level: str) -> float | None:
    return st.table["per_level"].get(level, {}).get(metric)


def cell(st: RowStats, metric: str, level: str, mode: str) -> float | None:
    return st.table["cells"].get(f"{level}/{mode}", {}).get(metric)


def table2_values(st: RowStats) -> list[float | None]:
    """TSR NP,P1–P4,Avg(P1–P4) | PRR P1–P4,Avg | RC P1–P4,Avg | composite."""
    tsr = [per_mode(st, "TSR", m) for m in MODES]
    prr = [per_mode(st, "PRR", m) for m in FAULT_MODES]
    rc = [per_mode(st, "RC", m) for m in FAULT_MODES]
    return [*tsr, mean(tsr[1:]), *prr, mean(prr), *rc, mean(rc), st.table["composite"]]


def table20_values(st: RowStats) -> list[float | None]:
    """TSR C1–C4,Avg | PRR C1–C4,Avg | RC C1–C4,Avg | composite."""
    out: list[float | None] = []
    for metric in ("TSR", "PRR", "RC"):
        vals = [per_level(st, metric, lv) for lv in LEVELS]
        out += [*vals, mean(vals)]
    return [*out, st.table["composite"]]


def table21_values(st: RowStats, level: str | None) -> list[float | None]:
    """TSR NP,P1–P4 | PRR P1–P4 | RC P1–P4 for one level (None: the Avg row)."""
    def get(metric: str, mode: str) -> float | None:
        return per_mode(st, metric, mode) if level is None else cell(st, metric, level, mode)

    return ([get("TSR", m) for m in MODES] + [get("PRR", m) for m in FAULT_MODES]
            + [get("RC", m) for m in FAULT_MODES])


# ---------------------------------------------------------------- markdown


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(r) + " |" for r in rows)]


def _ci(lo_hi: Sequence[float] | None) -> str:
    return "n/a" if not lo_hi else f"{100 * lo_hi[0]:.1f}–{100 * lo_hi[1]:.1f}"


def levels_run(st: RowStats) -> list[str]:
    return [lv for lv in LEVELS if any(k.startswith(f"{lv}/") for k in st.table["cells"])]


def modes_run(st: RowStats, among: Sequence[str] = MODES) -> list[str]:
    return [m for m in among if any(k.endswith(f"/{m}") for k in st.table["cells"])]


def _only(value: float | None, over: Sequence[str]) -> str:
    """An average's value, saying so when it averages a single level, mode or cell
    (then it is that one figure, not an average over the grid)."""
    shown = pct(value)
    return f"{shown} ({over[0].replace('P0', 'NP')} only)" \
        if value is not None and len(over) == 1 else shown


def averaged_over(stats: list[RowStats], get, full: Sequence[str]) -> str:
    """What the tables' averages run over: the full grid, the part every row ran, or
    each row's own part (the Coverage table says which)."""
    from toolmaze_gym.report.basis import span

    runs = {tuple(get(st)) for st in stats}
    if runs == {tuple(full)}:
        return span(full)
    if len(runs) == 1:
        return f"{span(next(iter(runs)))} only, not {span(full)}"
    return "each row's own part (see Coverage), not the same for every row"


def table2_md(stats: list[RowStats]) -> list[str]:
    head = (["Model"] + [f"TSR {MODE_LABEL.get(m, m)}" for m in MODES] + ["TSR Avg"]
            + [f"PRR {m}" for m in FAULT_MODES] + ["PRR Avg"]
            + [f"RC {m}" for m in FAULT_MODES] + ["RC Avg", "Avg.", "Avg. 95% CI"])
    rows = []
    for st in stats:
        v = [pct(x) for x in table2_values(st)]
        faults = modes_run(st, FAULT_MODES)
        cells = list(st.table["cells"])
        for i in (5, 10, 15):  # the averages over P1–P4
            v[i] = _only(table2_values(st)[i], faults)
        v[16] = _only(st.table["composite"], cells)
        rows.append([st.row.name, *v, _ci(st.ci.get("composite"))])
    levels = averaged_over(stats, levels_run, LEVELS)
    faults = averaged_over(stats, lambda st: modes_run(st, FAULT_MODES), FAULT_MODES)
    return [f"## Table 2: per perturbation mode (%, macro-averaged over {levels})", "",
            f"TSR Avg is over the fault modes run: {faults}; the composite Avg. = (mean TSR "
            "over the modes run + mean PRR + (100 − mean RC)) / 3. An average over a single "
            "mode or cell says \"only\". TSR, PRR: higher is better; RC: lower is better.",
            RC_NOTE, "",
            *_md_table(head, rows)]


def table20_md(stats: list[RowStats]) -> list[str]:
    head = ["Model"]
    for metric in ("TSR", "PRR", "RC"):
        head += [f"{metric} {lv}" for lv in LEVELS] + [f"{metric} Avg"]
    head.append("Avg.")
    rows = []
    for st in stats:
        vals = table20_values(st)
        v = [pct(x) for x in vals]
        for i in (4, 9, 14):  # the averages over C1–C4
            v[i] = _only(vals[i], levels_run(st))
        v[15] = _only(vals[15], list(st.table["cells"]))
        rows.append([st.row.name, *v])
    levels = averaged_over(stats, levels_run, LEVELS)
    return ["## Table 20: per complexity level (%)", "",
            "TSR per C averages NP and P1–P4; PRR and RC average P1–P4 (the modes run); "
            f"each Avg is over {levels}.", RC_NOTE, "",
            *_md_table(head, rows)]


def table21_md(stats: list[RowStats]) -> list[str]:
    head = (["Model", "C", "n"] + [f"TSR {MODE_LABEL.get(m, m)}" for m in MODES]
            + [f"PRR {m}" for m in FAULT_MODES] + [f"RC {m}" for m in FAULT_MODES])
    rows = []
    for st in stats:
        for k, level in enumerate([*LEVELS, None]):
            n = sum(c["n"] for key, c in st.table["cells"].items()
                    if level is None or key.startswith(f"{level}/"))
            ran = levels_run(st)
            avg = f"Avg ({ran[0]} only)" if len(ran) == 1 else "Avg"
            rows.append([st.row.name if k == 0 else "", level or avg, str(n),
                         *map(pct, table21_values(st, level))])
    return ["## Table 21: full C×P results (%)", "", RC_NOTE, "", *_md_table(head, rows)]


def sampling_said(sampling: dict[str, Any] | None) -> str:
    """``temperature=0, max_tokens=48``: the settings sent (None ones are not)."""
    if not sampling:
        return "—"
    return ", ".join(f"{k}={v}" for k, v in sampling.items() if v is not None) or "defaults"


def coverage_md(stats: list[RowStats]) -> list[str]:
    """What each row is (model, endpoint, convention, documentation, sampling) and what
    it ran (levels, modes, tasks, trajectories): the conditions behind its figures."""
    from toolmaze_gym.report.basis import basis, span

    head = ["Model", "model", "endpoint", "convention", "tool docs", "sampling", "suite",
            "recorded under grading", "levels", "modes", "tasks", "n"]
    rows = []
    for st in stats:
        b = basis(st.row)
        c = b.coverage
        rows.append([st.row.name, b.model or "—", b.endpoint or "—", b.convention or "—",
                     b.tool_docs or "—", sampling_said(b.sampling), b.suite, b.grading,
                     span(c.levels), span(c.modes), str(c.tasks), str(c.n)])
    return ["## Coverage: what each row is and ran", "",
            "Averages are over what a row ran; rows that ran other episodes, suites, tool "
            "documentation, calling conventions or grading versions are not comparable "
            "(report refuses them together unless --allow-mixed). —: not applicable (a "
            "scripted agent reads no prompt).", "", *_md_table(head, rows)]


def summary_md(stats: list[RowStats]) -> list[str]:
    """The before/after view of a fine-tune: can the model play at all (valid calls),
    how well (TSR, PRR, RC, composite), and at what cost (tokens per episode)."""
    head = ["Model", "trajectories", "valid calls", "TSR", "PRR", "RC", "Avg.",
            "tokens / ep."]
    rows = []
    for st in stats:
        t2 = table2_values(st)
        rows.append([st.row.name, str(st.n), pct(st.valid_calls), pct(mean(t2[:5])),
                     pct(t2[10]), pct(t2[15]), _only(t2[16], list(st.table["cells"])),
                     f"{st.usage['tokens']:.0f}"])
    return ["## Summary (%)", "",
            "Valid calls: share of the agent's actions that parsed as a call to a shown tool "
            "with schema-valid arguments (finish/abort included). TSR averages NP and P1–P4; "
            "PRR, RC average P1–P4; Avg. is the composite; tokens: prompt + completion per "
            "episode.", "", *_md_table(head, rows)]


def ci_md(stats: list[RowStats]) -> list[str]:
    if not any(st.ci for st in stats):
        return []
    head = (["Model"] + [f"TSR {MODE_LABEL.get(m, m)}" for m in MODES]
            + [f"PRR {m}" for m in FAULT_MODES] + [f"RC {m}" for m in FAULT_MODES])
    rows = []
    for st in stats:
        pm = st.ci.get("per_mode", {})
        rows.append([st.row.name] + [_ci(pm.get(m, {}).get("TSR")) for m in MODES]
                    + [_ci(pm.get(m, {}).get(x)) for x in ("PRR", "RC") for m in FAULT_MODES])
    return ["## Bootstrap 95% confidence intervals (%, per mode)", "",
            "Percentile bootstrap, trajectories resampled within each (C, P) cell.", "",
            *_md_table(head, rows)]


def labels_md(stats: list[RowStats]) -> list[str]:
    head = (["Model", "trajectories"] + [lb.replace("_", " ") for lb in LABELS]
            + ["truncated"] + [f"cut: {c}" for c in CUTS])

    def share(k: int, n: int) -> str:
        return f"{k} ({100 * k / n:.0f}%)" if n else "0"

    rows = [[st.row.name, str(st.n), *(share(st.labels[lb], st.n) for lb in LABELS),
             share(st.truncated, st.n), *(str(st.cuts[c]) for c in CUTS)] for st in stats]
    return ["## Behaviour labels (trajectories carrying each label)", "",
            "Labels as the grader assigns them (docs/grading.md). Cuts: episodes ended by the "
            "runner (context overflow, a loop of identical actions, a policy error), graded "
            "as truncations.", "", *_md_table(head, rows)]


def usage_md(stats: list[RowStats]) -> list[str]:
    head = ["Model", "trajectories", "turns / ep.", "shared turns / ep.", "prompt tokens / ep.",
            "completion tokens / ep.", "wall s / ep."]
    u = [[st.row.name, str(st.n), f"{st.usage['turns']:.1f}", f"{st.usage['shared_turns']:.1f}",
          f"{st.usage['prompt_tokens']:.0f}", f"{st.usage['completion_tokens']:.0f}",
          f"{st.usage['wall_s']:.2f}"] for st in stats]
    out = ["## Cost", "", "Tokens count what the model processed: a shared turn (a greedy "
           "reply reused for an identical conversation in another mode) costs none.", "",
           *_md_table(head, u)]
    if any(st.pass_k for st in stats):
        ks = sorted({k for st in stats for k in st.pass_k})
        out += ["", "## pass^k (all k repeats of a (task, mode) succeed, %)", "",
                *_md_table(["Model", *(f"k={k}" for k in ks)],
                           [[st.row.name, *(pct(st.pass_k.get(k)) for k in ks)]
                            for st in stats])]
    return out


def met_share(met: tuple[int, int] | None) -> str:
    """``47/50 (94.0%)``; n/a where the mode was not run."""
    if not met or not met[1]:
        return "n/a"
    return f"{met[0]}/{met[1]} ({100 * met[0] / met[1]:.1f}%)"


def faults_met_md(stats: list[RowStats]) -> list[str]:
    """How many fault-mode episodes met their fault: a fault the agent never met tests
    nothing, so a low share says the faults sit where agents do not go."""
    if not any(st.met for st in stats):
        return []
    head = ["Model", *FAULT_MODES, "P1–P4"]
    rows = []
    for st in stats:
        total = (sum(k for k, _ in st.met.values()), sum(n for _, n in st.met.values()))
        rows.append([st.row.name, *(met_share(st.met.get(m)) for m in FAULT_MODES),
                     met_share(total)])
    goal = f"{100 * metrics.FAULTS_MET_GOAL:.0f}"
    return ["## Faults met (fault-mode episodes whose fault fired)", "",
            "Episodes of a fault mode in which the agent met the planted fault (graded "
            f"exposed), over all levels run. A careful agent should meet it in at least "
            f"{goal}% of them; PRR and RC count only the episodes that did.", "",
            *_md_table(head, rows)]


def gaps_md(stats: list[RowStats]) -> list[str]:
    head = ["Model", "PRR(P1) − PRR(P3)", "PRR(P2) − PRR(P4)"]
    rows = [[st.row.name, pct(st.table["gaps"].get("PRR(P1)-PRR(P3)")),
             pct(st.table["gaps"].get("PRR(P2)-PRR(P4)"))] for st in stats]
    return ["## Implicit–explicit PRR gap (percentage points; > 0: implicit faults are "
            "harder)", "", *_md_table(head, rows)]


RC_NOTE = ("RC follows the paper's Eq. 4 (the mean over all trajectories of a cell, an "
           "unexposed one counting 0), except where no trajectory of a cell was exposed: "
           "there it is n/a, where the paper's convention would print 0, the best score.")


def version_line() -> str:
    """The grading rules a table's figures come from, stated under every table."""
    from toolmaze_gym.grading import GRADING_VERSION

    return f"_Grading version {GRADING_VERSION} (docs/grading.md)._"


def _versioned(part: list[str]) -> list[str]:
    """A section with the grading version under its heading."""
    if part and part[0].startswith("## "):
        return [part[0], "", version_line(), *part[1:]]
    return part


def markdown(stats: list[RowStats], header: list[str]) -> str:
    parts = [header, table2_md(stats), coverage_md(stats), summary_md(stats),
             table20_md(stats), table21_md(stats), faults_met_md(stats), gaps_md(stats),
             ci_md(stats),
             labels_md(stats), usage_md(stats)]
    return "\n\n".join("\n".join(_versioned(p)) for p in parts if p) + "\n"


# ---------------------------------------------------------------- csv


# What produced a row's figures, on every line of results.csv (see ``meta_values``)
META_HEAD = ["model", "endpoint", "convention", "tool_docs", "temperature", "top_p",
             "max_tokens", "seed", "sampling", "suite", "levels", "modes", "tasks"]
CSV_HEAD = (["agent", "prompt", "C", "n"] + [f"TSR_{MODE_LABEL.get(m, m)}" for m in MODES]
            + [f"PRR_{m}" for m in FAULT_MODES] + [f"RC_{m}" for m in FAULT_MODES]
            + ["TSR_mean_all", "TSR_mean_P1-P4", "PRR_mean", "RC_mean", "composite",
               "composite_ci_lo", "composite_ci_hi", "valid_call_rate", "tokens_per_episode",
               "grading_version", *META_HEAD])


def _num(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.4f}"


def meta_values(st: RowStats) -> list[str]:
    """``META_HEAD``'s values of a row: empty where not applicable (a scripted agent has
    no model) or not sent (an endpoint's default sampling); ``sampling`` holds every
    setting as JSON (max_completion_tokens, extra body...), the named columns the usual
    ones; levels and modes as ``C1 C3`` and ``P0 P1``."""
    import json

    from toolmaze_gym.report.basis import basis

    b = basis(st.row)
    smp = b.sampling or {}
    max_tokens = next((smp[k] for k in ("max_tokens", "max_completion_tokens",
                                        "max_new_tokens") if smp.get(k) is not None), None)
    return ["" if v is None else str(v) for v in (
        b.model, b.endpoint, b.convention, b.tool_docs, smp.get("temperature"),
        smp.get("top_p"), max_tokens, smp.get("seed"),
        json.dumps(b.sampling, sort_keys=True) if b.sampling else None, b.suite,
        " ".join(b.coverage.levels), " ".join(b.coverage.modes), b.coverage.tasks)]


def csv_text(stats: list[RowStats]) -> str:
    """Table 21's layout, one line per (row, C) plus an Avg line per row that carries
    Table 2's averages, the composite, the valid-call rate (%) and tokens per episode;
    values in %, empty where undefined."""
    from toolmaze_gym.grading import GRADING_VERSION

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEAD)
    for st in stats:
        meta = meta_values(st)
        for level in [*LEVELS, None]:
            n = sum(c["n"] for key, c in st.table["cells"].items()
                    if level is None or key.startswith(f"{level}/"))
            vals = table21_values(st, level)
            if level is None:
                t2 = table2_values(st)
                means = [mean(vals[:5]), t2[5], t2[10], t2[15]]
                comp = st.table["composite"]
                lo_hi = st.ci.get("composite") or (None, None)
                extra = [_num(st.valid_calls), f"{st.usage['tokens']:.1f}"]
            else:
                means = [per_level(st, "TSR", level), mean(vals[1:5]),
                         per_level(st, "PRR", level), per_level(st, "RC", level)]
                comp, lo_hi = None, (None, None)
                extra = ["", ""]
            w.writerow([st.row.agent, st.row.prompt, level or "Avg", n, *map(_num, vals),
                        *map(_num, means), _num(comp), _num(lo_hi[0]), _num(lo_hi[1]), *extra,
                        GRADING_VERSION, *meta])
    return buf.getvalue()
