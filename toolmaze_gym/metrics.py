"""Grades → tables: TSR, PRR, RC per (C, P) cell, averages, composite, CIs.

TSR = mean(success); PRR = Σ recovered·exposed / Σ exposed; RC = mean(exposed ·
C_rec) over all trajectories of a cell (the paper's Eq. 1–4). The composite is
(mean TSR over NP,P1–P4 + mean PRR over P1–P4 + (1 − mean RC over P1–P4)) / 3,
with per-mode values macro-averaged over the C levels.
"""

from __future__ import annotations

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
    """TSR, PRR (None with no exposure), RC, in [0, 1], and the counts behind them."""
    if not grades:
        return {"n": 0, "exposed": 0, "TSR": None, "PRR": None, "RC": None}
    s, e, r, c = _arrays(grades)
    exposed = float(e.sum())
    return {"n": len(grades), "exposed": int(exposed), "TSR": float(s.mean()),
            "PRR": float((r * e).sum() / exposed) if exposed else None,
            "RC": float((e * c).mean())}


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


def composite(per_mode: Mapping[str, Mapping[str, float | None]]) -> float | None:
    """The paper's Avg.: (mean TSR over all modes + mean PRR + 1 − mean RC over P1–P4) / 3."""
    tsr = _mean(per_mode[m]["TSR"] for m in MODES if m in per_mode)
    prr = _mean(per_mode[m]["PRR"] for m in FAULT_MODES if m in per_mode)
    rc = _mean(per_mode[m]["RC"] for m in FAULT_MODES if m in per_mode)
    if tsr is None or prr is None or rc is None:
        return tsr
    return (tsr + prr + (1 - rc)) / 3


def composite_from_rows(tsr: Sequence[float], prr: Sequence[float], rc: Sequence[float]) -> float:
    """The composite from per-mode values (TSR for NP,P1–P4; PRR, RC for P1–P4), in %."""
    per_mode = {m: {"TSR": t, "PRR": None, "RC": None} for m, t in zip(MODES, tsr, strict=True)}
    for m, p, r in zip(FAULT_MODES, prr, rc, strict=True):
        per_mode[m]["PRR"], per_mode[m]["RC"] = p, r
    return ((_mean(tsr) or 0) + (_mean(prr) or 0) + (100 - (_mean(rc) or 0))) / 3


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
    elif metric == "RC":
        stats = (e * c)[idx].mean(axis=1)
    elif metric == "PRR":
        ex = e[idx].sum(axis=1)
        keep = ex > 0
        if not keep.any():
            return None
        stats = (r * e)[idx].sum(axis=1)[keep] / ex[keep]
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
