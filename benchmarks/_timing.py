"""Shared timing helper: best-of-N time, so noisy machines report stable ratios.

The clock is this process's CPU time: the benchmarks that use it run in one thread,
and on a machine other jobs load, wall time also counts their turns on the cores
(it swung 2x between two runs of the same code, issue 32). On an idle machine the
two agree; ``clock=time.perf_counter`` gives wall time.

Every benchmark times with the cyclic garbage collector running, as a real process
runs (a trainer's, a server's, ``toolmaze grade``'s): the collections a workload's
allocations cause are part of its cost (15 % of grading, issue 32). Only the garbage
left from the previous run is collected first, so it lands in no run's figure.
``bench_env`` once paused the collector, as ``timeit`` does, and so left that share
out of the env's figures that the others counted.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 5,
            clock: Callable[[], float] = time.process_time) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds of ``clock``."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best
