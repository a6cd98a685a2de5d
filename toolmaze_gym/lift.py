"""The before/after of a training run: a paired TSR lift with a bootstrap interval.

Why paired: base and trained models play the same held-out episodes (same task,
mode, prompt and repeat: the record ``key``), so the per-episode differences carry
the comparison and the task-to-task spread cancels; an unpaired interval of two
TSRs would be wider and could hide a real lift. Episodes only one run played are
left out and counted. The interval is a percentile bootstrap over episode pairs,
drawn with a seeded numpy ``Generator``, so a seed gives one interval.
:func:`run_figures` gives the rest of a before/after table for one run (valid calls,
TSR and PRR with intervals, RC, loops cut).
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


def _by_key(records: Iterable[Mapping[str, Any]]) -> dict[str, bool]:
    return {str(r["key"]): bool(r["grade"]["success"]) for r in records}


def paired_lift(before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]],
                n: int = 2000, seed: int = 0, alpha: float = 0.05) -> Lift:
    """TSR of ``after`` minus TSR of ``before`` over the episodes both played."""
    b, a = _by_key(before), _by_key(after)
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

    def cells(self) -> list[str]:
        """The table cells, in the order of :data:`FIGURE_HEAD`."""
        def pct(x: float | None) -> str:
            return "n/a" if x is None else f"{100 * x:.1f}"

        def ci(lo_hi: tuple[float, float] | None) -> str:
            return "" if lo_hi is None else f" [{pct(lo_hi[0])}, {pct(lo_hi[1])}]"

        return [str(self.episodes), pct(self.named_calls), pct(self.valid_calls),
                pct(self.tsr) + ci(self.tsr_ci),
                str(self.exposed), pct(self.prr) + ci(self.prr_ci), pct(self.rc),
                str(self.loops_cut), f"{self.turns:.1f}", pct(self.progress)]


FIGURE_HEAD = ["episodes", "shown tool named %", "valid calls %", "TSR % [95 % CI]",
               "exposed", "PRR % [95 % CI]", "RC %", "loops cut", "actions / ep.", "progress %"]


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
    from toolmaze_gym.report.calls import named_call_rate, valid_call_rate

    if not records:
        raise ValueError("the run has no episodes")
    grades = [r["grade"] for r in records]
    cell = metrics.cell_metrics(grades)
    prr_ci = metrics.bootstrap_ci(grades, "PRR", n, seed) if cell["exposed"] else None
    return RunFigures(
        episodes=len(records), valid_calls=valid_call_rate(records), tsr=cell["TSR"],
        tsr_ci=metrics.bootstrap_ci(grades, "TSR", n, seed), exposed=cell["exposed"],
        prr=cell["PRR"], prr_ci=prr_ci, rc=cell["RC"],
        loops_cut=sum(r.get("cut") == "loop" for r in records),
        turns=float(np.mean([len(r.get("steps", ())) for r in records])),
        progress=float(np.mean(progress)) if progress else None,
        named_calls=named_call_rate(records))


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
