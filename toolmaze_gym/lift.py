"""The before/after of a training run: a paired TSR lift with a bootstrap interval.

Why paired: base and trained models play the same held-out episodes (same task,
mode, prompt and repeat: the record ``key``), so the per-episode differences carry
the comparison and the task-to-task spread cancels; an unpaired interval of two
TSRs would be wider and could hide a real lift. Episodes only one run played are
left out and counted. The interval is a percentile bootstrap over episode pairs,
drawn with a seeded numpy ``Generator``, so a seed gives one interval.
:func:`run_figures` gives the rest of a before/after table for one run (valid calls,
TSR, PRR and path progress with intervals, RC, loops cut), and :func:`cell_table`
the same runs split by level and mode.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Lift:
    """The paired comparison of two runs on one metric (values as shares, 0..1)."""

    pairs: int
    unpaired: int
    before: float
    after: float
    ci: tuple[float, float]

    @property
    def lift(self) -> float:
        return self.after - self.before

    def excludes_zero(self) -> bool:
        """Whether the interval rules out "no change"."""
        return self.ci[0] > 0 or self.ci[1] < 0

    def line(self, what: str = "TSR") -> str:
        return (f"{what} {100 * self.before:.1f} % -> {100 * self.after:.1f} %: lift "
                f"{100 * self.lift:+.1f} points, 95 % CI [{100 * self.ci[0]:+.1f}, "
                f"{100 * self.ci[1]:+.1f}] over {self.pairs} paired episodes"
                + (f" ({self.unpaired} unpaired left out)" if self.unpaired else ""))


def _by_key(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    return {str(r["key"]): float(bool(r["grade"]["success"])) for r in records}


def paired_lift(before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]],
                n: int = 2000, seed: int = 0, alpha: float = 0.05) -> Lift:
    """TSR of ``after`` minus TSR of ``before`` over the episodes both played."""
    return paired_difference(_by_key(before), _by_key(after), n, seed, alpha)


def paired_difference(before: Mapping[str, float], after: Mapping[str, float],
                      n: int = 2000, seed: int = 0, alpha: float = 0.05) -> Lift:
    """The mean of a per-episode value (success, path progress) in ``after`` minus
    ``before``, over the episode keys both have, with a paired bootstrap interval."""
    b, a = before, after
    keys = sorted(set(b) & set(a))
    if not keys:
        raise ValueError("the two runs share no episode (compare runs of the same tasks, "
                         "modes and prompts)")
    diff = np.array([a[k] - b[k] for k in keys], dtype=float)
    idx = np.random.default_rng(seed).integers(0, len(keys), size=(n, len(keys)))
    lo, hi = np.quantile(diff[idx].mean(axis=1), [alpha / 2, 1 - alpha / 2])
    return Lift(pairs=len(keys), unpaired=len(set(b) ^ set(a)),
                before=float(np.mean([b[k] for k in keys])),
                after=float(np.mean([a[k] for k in keys])), ci=(float(lo), float(hi)))


def ratio_ci(numerators: Sequence[float], denominators: Sequence[float], n: int = 2000,
             seed: int = 0, alpha: float = 0.05) -> tuple[float, float] | None:
    """Percentile bootstrap interval of sum(numerators) / sum(denominators), resampling
    episodes: a rate over actions (valid calls) whose episodes differ in length, so an
    episode is the unit drawn (its actions are not independent) and the rate stays
    pooled as the table's point value is. None when there is nothing to divide."""
    num, den = np.asarray(numerators, dtype=float), np.asarray(denominators, dtype=float)
    if not len(den) or den.sum() == 0:
        return None
    idx = np.random.default_rng(seed).integers(0, len(den), size=(n, len(den)))
    total = den[idx].sum(axis=1)
    rates = num[idx].sum(axis=1)[total > 0] / total[total > 0]
    lo, hi = np.quantile(rates, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


@dataclass(frozen=True)
class RunFigures:
    """What a before/after table shows of one evaluated run, pooled over its episodes
    (shares 0..1; intervals: percentile bootstrap over episodes, seeded)."""

    episodes: int
    valid_calls: float | None
    tsr: float
    tsr_ci: tuple[float, float]
    exposed: int
    prr: float | None
    prr_ci: tuple[float, float] | None
    rc: float | None
    loops_cut: int
    turns: float
    progress: float | None = None
    named_calls: float | None = None
    valid_calls_ci: tuple[float, float] | None = None
    progress_ci: tuple[float, float] | None = None

    def cells(self) -> list[str]:
        """The table cells, in the order of :data:`FIGURE_HEAD`."""
        def pct(x: float | None) -> str:
            return "n/a" if x is None else f"{100 * x:.1f}"

        def ci(lo_hi: tuple[float, float] | None) -> str:
            return "" if lo_hi is None else f" [{pct(lo_hi[0])}, {pct(lo_hi[1])}]"

        return [str(self.episodes), pct(self.named_calls),
                pct(self.valid_calls) + ci(self.valid_calls_ci),
                pct(self.tsr) + ci(self.tsr_ci),
                str(self.exposed), pct(self.prr) + ci(self.prr_ci), pct(self.rc),
                str(self.loops_cut), f"{self.turns:.1f}",
                pct(self.progress) + ci(self.progress_ci)]


FIGURE_HEAD = ["episodes", "shown tool named %", "valid calls % [95 % CI]", "TSR % [95 % CI]",
               "exposed", "PRR % [95 % CI]", "RC %", "loops cut", "actions / ep.",
               "progress % [95 % CI]"]


def run_figures(records: Sequence[Mapping[str, Any]], n: int = 2000, seed: int = 0,
                progress: Sequence[float] | None = None) -> RunFigures:
    """The figures of one run's records (grades as stored in them: pass regraded ones);
    ``progress``: each record's :func:`episode_progress`, whose mean is shown.

    Pooled, not macro-averaged over cells: a training run is judged on the episodes
    it played, and a cell with a handful of episodes would otherwise weigh as much as
    a full one. RC is the paper's Eq. 4 over the pooled episodes (an unexposed one
    counts 0), n/a when nothing was exposed; "loops cut" counts episodes the runner
    ended for repeating one action (``--loop-guard``); "shown tool named" is the share
    of actions calling a shown tool whatever the arguments (finish/abort not counted),
    "valid calls" the share with valid arguments (finish/abort counted, as in the
    report)."""
    from toolmaze_gym import metrics
    from toolmaze_gym.report.calls import is_valid_call, named_call_rate, valid_call_rate

    if not records:
        raise ValueError("the run has no episodes")
    grades = [r["grade"] for r in records]
    cell = metrics.cell_metrics(grades)
    prr_ci = metrics.bootstrap_ci(grades, "PRR", n, seed) if cell["exposed"] else None
    valid = [sum(map(is_valid_call, r.get("steps", ()))) for r in records]
    actions = [len(r.get("steps", ())) for r in records]
    return RunFigures(
        episodes=len(records), valid_calls=valid_call_rate(records), tsr=cell["TSR"],
        tsr_ci=metrics.bootstrap_ci(grades, "TSR", n, seed), exposed=cell["exposed"],
        prr=cell["PRR"], prr_ci=prr_ci, rc=cell["RC"],
        loops_cut=sum(r.get("cut") == "loop" for r in records),
        turns=float(np.mean([len(r.get("steps", ())) for r in records])),
        progress=float(np.mean(progress)) if progress else None,
        named_calls=named_call_rate(records),
        valid_calls_ci=ratio_ci(valid, actions, n, seed),
        progress_ci=ratio_ci(progress, [1.0] * len(progress), n, seed) if progress else None)


def episode_progress(record: Mapping[str, Any], task: Any, sim: Any) -> float:
    """How far the episode's calls got along a valid path, 0..1 (the GRPO partial
    credit's progress term, ``reward.path_progress``; the closing finish is success's
    to pay for, so a finished C1 task scores about 0.85): a learning curve moves here
    before it moves TSR, since one correct call more is progress but no success."""
    from toolmaze_gym.episode import Step
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.reward import path_progress

    steps = [Step.from_dict(s) for s in record["steps"]]
    return path_progress(sim.corpus, task, profile_for(task, record["mode"], sim), steps)


def cell_table(names: Sequence[str], runs: Sequence[Sequence[Mapping[str, Any]]]) -> str:
    """Each run's successes and valid-call rate per (level, mode) cell, as Markdown:
    a pooled TSR of a few per cent says nothing about where it came from, and a lift
    that only one cell carries (C1 P0, say) is another finding than one spread over
    the modes; the cells are small, so counts are shown, not intervals."""
    cells = sorted({(str(r["level"]), str(r["mode"])) for recs in runs for r in recs})
    head = ["level", "mode", *(f"{name}: TSR, valid calls %" for name in names)]
    rows = []
    for level, mode in cells:
        cell_runs = [[r for r in recs if (r["level"], r["mode"]) == (level, mode)]
                     for recs in runs]
        rows.append([level, mode, *map(_cell_figures, cell_runs)])
    return "\n".join("| " + " | ".join(r) + " |"
                     for r in [head, ["---"] * len(head), *rows])


def _cell_figures(records: Sequence[Mapping[str, Any]]) -> str:
    from toolmaze_gym.report.calls import valid_call_rate

    if not records:
        return "-"
    won = sum(bool(r["grade"]["success"]) for r in records)
    valid = valid_call_rate(records)
    return f"{won}/{len(records)}, " + ("n/a" if valid is None else f"{100 * valid:.0f}")
