"""CPU threading for local models, set up before torch is imported.

On a shared CPU, OpenMP's default busy-wait made torch decoding 6–9× slower
(idle threads spin and steal the cores the working ones need); the passive wait
policy fixes it, but OpenMP reads it only once, when torch loads its runtime. So
every entry point that loads a model calls :func:`configure_cpu_threads` first.
"""

from __future__ import annotations

import os
import sys
import warnings

THREADS_ENV = "TOOLMAZE_THREADS"


def cpu_count() -> int:
    """Cores this process may run on (the affinity mask, not the machine's total)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def configure_cpu_threads(threads: int | None = None) -> int:
    """Set ``OMP_WAIT_POLICY=PASSIVE`` (unless the user set it) and torch's thread
    count; returns the thread count.

    ``threads`` defaults to ``$TOOLMAZE_THREADS``, else ``$OMP_NUM_THREADS``, else the
    usable cores. Called after torch was imported, the thread count still applies
    but the wait policy cannot change any more, and a warning says so.

    Raises:
        ValueError: ``threads`` (or ``$TOOLMAZE_THREADS``) is not a positive integer.
    """
    n = _requested(threads)
    if sys.modules.get("torch") is not None:  # imported (None: blocked, as if absent)
        if os.environ.get("OMP_WAIT_POLICY") is None:
            warnings.warn("configure_cpu_threads() was called after torch was imported: "
                          "OMP_WAIT_POLICY=PASSIVE no longer takes effect; call it first",
                          RuntimeWarning, stacklevel=2)
        import torch

        torch.set_num_threads(n)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ["OMP_NUM_THREADS"] = str(n)
    return n


def _requested(threads: int | None) -> int:
    if threads is not None:
        source, value = "threads", str(threads)
    elif os.environ.get(THREADS_ENV):
        source, value = f"${THREADS_ENV}", os.environ[THREADS_ENV]
    elif os.environ.get("OMP_NUM_THREADS", "").strip().isdigit():
        source, value = "$OMP_NUM_THREADS", os.environ["OMP_NUM_THREADS"].strip()
    else:
        return cpu_count()
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"{source} must be a positive integer, got {value!r}")
    return n
