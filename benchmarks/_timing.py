"""Shared timing helper: best-of-N time, so noisy machines report stable ratios.

The clock is this process's CPU time: the benchmarks that use it run in one thread,
and on a machine other jobs load, wall time also counts their turns on the cores
(it swung 2x between two runs of the same code, issue 32). On an idle machine the
two agree; ``clock=time.perf_counter`` gives wall time.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 5,
            clock: Callable[[], float] = time.process_time) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds of ``clock``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best
