"""Grades → tables: TSR, PRR, RC per (C, P) cell, averages, composite, CIs.

TSR = mean(success); PRR = Σ recovered·exposed / Σ exposed (recovery counts
whether or not the task succeeded); RC = mean(exposed · C_rec) over all
trajectories of a cell (the paper's Eq. 1–4). PRR and RC are undefined (None) in a
cell where no trajectory was exposed: an RC of 0 there would read as the best
recovery cost of a model that never met a fault. The composite is (mean TSR over
NP,P1–P4 + mean PRR over P1–P4 + (1 − mean RC over P1–P4)) / 3, with per-mode
values macro-averaged over the C levels; it is None where PRR is undefined.
docs/grading.md explains the metrics for users.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from math import comb
from typing import Any

import numpy as np

MODES = ("P0", "P1", "P2", "P3", "P4")
FAULT_MODES = MODES[1:]
LEVELS = ("C1", "C2", "C3", "C4")


def _arrays(grades: Sequence[Mapping[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray]:
    s = np.array([bool(g["success"]) for g in grades], dtype=float)
    e = np.array([bool(g["exposed"]) for g in grades], dtype=float)
    r = np.array([bool(g["recovered"]) for g in grades], dtype=float)
    c = np.array([float(g["c_rec"]) for g in grades], dtype=float)
    return s, e, r, c


def cell_metrics(grades: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """TSR, PRR and RC (both None with no exposure), in [0, 1], and the counts behind
    them."""
    if not grades:
        return {"n": 0, "exposed": 0, "TSR": None, "PRR": None, "RC": None}
    s, e, r, c = _arrays(grades)
    exposed = float(e.sum())
    return {"n": len(grades), "exposed": int(exposed), "TSR": float(s.mean()),
            "PRR": float((r * e).sum() / exposed) if exposed else None,
            "RC": float((e * c).mean()) if exposed else None}


def by_cell(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], list[dict]]:
    cells: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for rec in records:
        cells[(rec["level"], rec["mode"])].append(rec["grade"])
    return dict(cells)


def _mean(xs: Iterable[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


def table(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Full C×P table, per-P and per-C averages, composite and implicit–explicit gaps."""
    cells = {k: cell_metrics(v) for k, v in by_cell(records).items()}
    levels = [lv for lv in LEVELS if any(k[0] == lv for k in cells)]
    modes = [m for m in MODES if any(k[1] == m for k in cells)]
    per_mode = {m: {x: _mean(cells[(lv, m)][x] for lv in levels if (lv, m) in cells)
                    for x in ("TSR", "PRR", "RC")} for m in modes}
    per_level = {lv: {"TSR": _mean(cells[(lv, m)]["TSR"] for m in modes if (lv, m) in cells),
                      **{x: _mean(cells[(lv, m)][x] for m in FAULT_MODES if (lv, m) in cells)
                         for x in ("PRR", "RC")}} for lv in levels}
    gaps = {}
    for a, b in (("P1", "P3"), ("P2", "P4")):
        if a in per_mode and b in per_mode and None not in (per_mode[a]["PRR"],
                                                            per_mode[b]["PRR"]):
            gaps[f"PRR({a})-PRR({b})"] = per_mode[a]["PRR"] - per_mode[b]["PRR"]
    return {"cells": {f"{lv}/{m}": v for (lv, m), v in sorted(cells.items())},
            "per_mode": per_mode, "per_level": per_level, "composite": composite(per_mode),
            "gaps": gaps}


# The share of fault-mode episodes that met their fault the play-test aims at (issue
# 28): below it, faults sit where careful agents do not go and PRR measures little.
FAULTS_MET_GOAL = 0.95


def faults_met(records: Iterable[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
    """Per fault mode run, (episodes whose fault fired, episodes): pooled over levels,
    since the question is how often an agent met the fault at all. An episode that
    never met its fault is graded as not exposed and tells nothing about recovery."""
    out: dict[str, list[int]] = {}
    for rec in records:
        if rec["mode"] in FAULT_MODES:
            met_n = out.setdefault(rec["mode"], [0, 0])
            met_n[0] += bool(rec["grade"]["exposed"])
            met_n[1] += 1
    return {m: (out[m][0], out[m][1]) for m in FAULT_MODES if m in out}


def composite(per_mode: Mapping[str, Mapping[str, float | None]]) -> float | None:
    """The paper's Avg.: (mean TSR over all modes + mean PRR + 1 − mean RC over P1–P4) / 3.

    One formula, always: where PRR is undefined for every fault mode (no trajectory
    met a fault, or no fault mode was run) the composite is undefined too (None,
    printed "n/a"), never a TSR mean on another scale.
    """
    tsr = _mean(per_mode[m]["TSR"] for m in MODES if m in per_mode)
    prr = _mean(per_mode[m]["PRR"] for m in FAULT_MODES if m in per_mode)
    rc = _mean(per_mode[m]["RC"] for m in FAULT_MODES if m in per_mode)
    if tsr is None or prr is None or rc is None:
        return None
    return (tsr + prr + (1 - rc)) / 3


def composite_from_rows(tsr: Sequence[float], prr: Sequence[float], rc: Sequence[float]) -> float:
    """The composite from one row of per-mode values in % (the paper's Table 2).

    ``tsr`` holds NP, P1–P4 (five values); ``prr`` and ``rc`` hold P1–P4 (four each).
    """
    if (len(tsr), len(prr), len(rc)) != (len(MODES), len(FAULT_MODES), len(FAULT_MODES)):
        raise ValueError("need TSR for NP,P1-P4 and PRR, RC for P1-P4")
    return (sum(tsr) / len(tsr) + sum(prr) / len(prr) + (100 - sum(rc) / len(rc))) / 3


def bootstrap_ci(grades: Sequence[Mapping[str, Any]], metric: str, n: int = 1000,
                 seed: int = 0, alpha: float = 0.05) -> tuple[float, float] | None:
    """Percentile bootstrap CI of a cell metric (resampling trajectories)."""
    if not grades:
        return None
    rng = np.random.default_rng(seed)
    s, e, r, c = _arrays(grades)
    idx = rng.integers(0, len(grades), size=(n, len(grades)))
    if metric == "TSR":
        stats = s[idx].mean(axis=1)
    elif metric in ("PRR", "RC"):
        ex = e[idx].sum(axis=1)
        keep = ex > 0  # a replicate without exposure has no PRR or RC
        if not keep.any():
            return None
        stats = ((r * e)[idx].sum(axis=1)[keep] / ex[keep] if metric == "PRR"
                 else (e * c)[idx].mean(axis=1)[keep])
    else:
        raise ValueError(f"unknown metric {metric!r}")
    lo, hi = np.quantile(stats, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def pass_hat_k(successes_per_task: Mapping[str, Sequence[bool]], k: int) -> float | None:
    """pass^k: the chance that k runs of a task all succeed, averaged over tasks."""
    vals = []
    for runs in successes_per_task.values():
        n, c = len(runs), sum(bool(x) for x in runs)
        if n >= k:
            vals.append(comb(c, k) / comb(n, k))
    return sum(vals) / len(vals) if vals else None


def pass_hat_k_records(records: Iterable[Mapping[str, Any]], k: int) -> float | None:
    """pass^k over trajectory records, grouping repeated runs by (task, mode)."""
    runs: dict[str, list[bool]] = defaultdict(list)
    for rec in records:
        runs[f"{rec['task_id']}/{rec['mode']}"].append(bool(rec["grade"]["success"]))
    return pass_hat_k(runs, k)


def _cell_reps(grades: Sequence[Mapping[str, Any]], idx: np.ndarray) -> dict[str, np.ndarray]:
    """Bootstrap replicates of one cell's TSR, PRR and RC for resample indices ``idx``
    (one row per replicate); NaN where a replicate has no exposure."""
    s, e, r, c = _arrays(grades)
    ex = e[idx].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        prr = np.where(ex > 0, (r * e)[idx].sum(axis=1) / np.maximum(ex, 1), np.nan)
    rc = np.where(ex > 0, (e * c)[idx].mean(axis=1), np.nan)
    return {"TSR": s[idx].mean(axis=1), "PRR": prr, "RC": rc}


def _nanmean(arrays: list[np.ndarray]) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN: no exposure
        return np.nanmean(np.stack(arrays), axis=0)


def _aggregate(reps: Mapping[tuple[str, str], Mapping[str, np.ndarray]]) -> dict[str, Any]:
    """Replicates of the per-mode, per-level and composite values, aggregated from the
    cells' replicates exactly as ``table`` aggregates the cells (NaN: undefined)."""
    modes = [m for m in MODES if any(k[1] == m for k in reps)]
    per_mode = {m: {x: _nanmean([v[x] for k, v in reps.items() if k[1] == m])
                    for x in ("TSR", "PRR", "RC")} for m in modes}
    faulty = [m for m in FAULT_MODES if m in per_mode]
    comp = None
    if faulty:
        tsr = _nanmean([per_mode[m]["TSR"] for m in modes])
        prr = _nanmean([per_mode[m]["PRR"] for m in faulty])
        rc = _nanmean([per_mode[m]["RC"] for m in faulty])
        comp = (tsr + prr + (1 - rc)) / 3
    return {"per_mode": per_mode, "per_level": _per_level(reps), "composite": comp}


def _per_level(reps: Mapping[tuple[str, str], Mapping[str, np.ndarray]]
               ) -> dict[str, dict[str, np.ndarray]]:
    """Bootstrap replicates of the per-level values, aggregated as ``table`` does: TSR
    over every mode of the level, PRR and RC over its fault modes (NaN: undefined)."""
    size = len(next(iter(reps.values()))["TSR"]) if reps else 0
    out: dict[str, dict[str, np.ndarray]] = {}
    for lv in [lv for lv in LEVELS if any(k[0] == lv for k in reps)]:
        out[lv] = {}
        for x in ("TSR", "PRR", "RC"):
            rows = [v[x] for k, v in reps.items()
                    if k[0] == lv and (x == "TSR" or k[1] in FAULT_MODES)]
            out[lv][x] = _nanmean(rows) if rows else np.full(size, np.nan)
    return out


def _interval(a: np.ndarray | None, alpha: float) -> tuple[float, float] | None:
    """The percentile interval of the defined replicates (None: none is defined)."""
    if a is None:
        return None
    a = a[~np.isnan(a)]
    if not a.size:
        return None
    lo, hi = np.quantile(a, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def _intervals(agg: Mapping[str, Any], alpha: float) -> dict[str, Any]:
    return {scope: {key: {x: _interval(v, alpha) for x, v in per.items()}
                    for key, per in agg[scope].items()} for scope in ("per_mode", "per_level")
            } | {"composite": _interval(agg["composite"], alpha)}


def bootstrap_table(records: Iterable[Mapping[str, Any]], n: int = 1000, seed: int = 0,
                    alpha: float = 0.05) -> dict[str, Any]:
    """Percentile bootstrap CIs of the per-mode and per-level TSR/PRR/RC and of the
    composite.

    Trajectories are resampled within each (C, P) cell, and every replicate is
    aggregated exactly like ``table`` (cells → per-mode macro-average → composite).
    """
    rng = np.random.default_rng(seed)
    reps: dict[tuple[str, str], dict[str, np.ndarray]] = {}
    for key, grades in sorted(by_cell(records).items()):
        reps[key] = _cell_reps(grades, rng.integers(0, len(grades), size=(n, len(grades))))
    return _intervals(_aggregate(reps), alpha)


def paired_bootstrap(pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
                     n: int = 1000, seed: int = 0, alpha: float = 0.05) -> dict[str, Any]:
    """Percentile CIs of B − A for every cell, per-mode and per-level metric and the
    composite, from ``pairs`` of records (A's and B's run of one episode).

    Why paired: both runs played the same episodes, so resampling an episode takes
    both its trajectories (one index drawn per pair, within its (C, P) cell). The
    per-task difficulty they share then cancels, and the interval is much narrower
    than two independent intervals would suggest.
    """
    rng = np.random.default_rng(seed)
    cells: dict[tuple[str, str], list[tuple[Mapping, Mapping]]] = defaultdict(list)
    for a, b in pairs:
        cells[(a["level"], a["mode"])].append((a["grade"], b["grade"]))
    reps_a, reps_b = {}, {}
    for key, gs in sorted(cells.items()):
        idx = rng.integers(0, len(gs), size=(n, len(gs)))
        reps_a[key] = _cell_reps([g for g, _ in gs], idx)
        reps_b[key] = _cell_reps([g for _, g in gs], idx)
    agg_a, agg_b = _aggregate(reps_a), _aggregate(reps_b)
    delta: dict[str, Any] = {
        scope: {key: {x: agg_b[scope][key][x] - agg_a[scope][key][x] for x in per}
                for key, per in agg_a[scope].items()} for scope in ("per_mode", "per_level")}
    both = agg_a["composite"] is not None and agg_b["composite"] is not None
    delta["composite"] = agg_b["composite"] - agg_a["composite"] if both else None
    out = _intervals(delta, alpha)
    out["cells"] = {f"{lv}/{m}": {x: _interval(reps_b[(lv, m)][x] - reps_a[(lv, m)][x], alpha)
                                  for x in ("TSR", "PRR", "RC")}
                    for lv, m in sorted(reps_a)}
    return out


def table_delta(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """B − A of two ``table`` results, value by value (None where either is undefined)."""
    def minus(x: float | None, y: float | None) -> float | None:
        return None if x is None or y is None else y - x

    def scope(name: str) -> dict[str, dict[str, float | None]]:
        keys = [k for k in a[name] if k in b[name]]
        return {k: {x: minus(a[name][k].get(x), b[name][k].get(x))
                    for x in ("TSR", "PRR", "RC")} for k in keys}

    return {"cells": scope("cells"), "per_mode": scope("per_mode"),
            "per_level": scope("per_level"), "composite": minus(a["composite"], b["composite"])}


def _pct(x: float | None, width: int = 7) -> str:
    return f"{'-':>{width}}" if x is None else f"{100 * x:>{width}.2f}"


def format_table(tbl: Mapping[str, Any]) -> str:
    """The C×P table in the paper's layout (Appendix D), values in %."""
    cells = tbl["cells"]
    levels = list(tbl["per_level"])
    modes = list(tbl["per_mode"])
    faulty = [m for m in modes if m in FAULT_MODES]
    label = {"P0": "NP"}
    sep = "  |"
    head = (f"{'':6}" + "".join(f"{label.get(m, m):>7}" for m in modes) + sep
            + "".join(f"{m:>7}" for m in faulty) + sep + "".join(f"{m:>7}" for m in faulty))
    title = (f"{'':6}{'TSR (%)':>{7 * len(modes)}}{sep}{'PRR (%)':>{7 * len(faulty)}}{sep}"
             f"{'RC (%)':>{7 * len(faulty)}}")
    rows = [title.rstrip(), head, "-" * len(head)]

    def row(name: str, get) -> str:
        return (f"{name:<6}" + "".join(_pct(get(m, "TSR")) for m in modes) + sep
                + "".join(_pct(get(m, "PRR")) for m in faulty) + sep
                + "".join(_pct(get(m, "RC")) for m in faulty))

    for lv in levels:
        rows.append(row(lv, lambda m, x, lv=lv: cells.get(f"{lv}/{m}", {}).get(x)))
    rows.append(row("Avg", lambda m, x: tbl["per_mode"][m][x]))
    rows.append("-" * len(head))
    avg = "n/a" if tbl["composite"] is None else _pct(tbl["composite"], 0).strip()
    tail = [f"composite Avg: {avg}"]
    tail += [f"{k}: {_pct(v, 0).strip()}" for k, v in tbl["gaps"].items()]
    rows.append("   ".join(tail))
    return "\n".join(rows)
