"""The before/after of a training run: a paired TSR lift with a bootstrap interval.

Why paired: base and trained models play the same held-out episodes (same task,
mode, prompt and repeat: the record ``key``), so the per-episode differences carry
the comparison and the task-to-task spread cancels; an unpaired interval of two
TSRs would be wider and could hide a real lift. Episodes only one run played are
left out and counted. The interval is a percentile bootstrap over episode pairs,
drawn with a seeded numpy ``Generator``, so a seed gives one interval.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
