"""One writer per records file: an advisory lock held for as long as a run writes.

Two ``toolmaze eval`` processes appending to one records file would both skip the
same finished episodes on ``--resume``, then play and record every other one twice.
So a run holds ``fcntl.flock`` on a lock file beside its records file
(``.records.jsonl.lock``), written with who holds it, and a second process is
refused at once with the holder's pid, host and start time. Shards write their own
records files, so they lock separately and still fill one run directory side by side.

Why ``flock`` and not a lock library or a PID file: the kernel drops the lock when
the process dies (a run killed with SIGKILL leaves no stale lock to clean up), the
file is never deleted (deleting a lock file lets two processes lock two different
files), and the holder's details live in the locked file itself (``filelock``
truncates the file on every attempt, which would erase them). Platforms without
``fcntl`` (Windows) run unlocked.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class LockHeld(Exception):
    """Another live process writes this records file; the message names it."""


def lock_path(records: Path) -> Path:
    return records.with_name(f".{records.name}.lock")


def _holder(fd: int) -> str:
    """Who holds the lock, as the holder wrote it (or as much as can be said)."""
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {info['pid']} on {info['host']}, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that is just starting"


def _refusal(records: Path, fd: int) -> LockHeld:
    return LockHeld(f"another toolmaze eval ({_holder(fd)}) is writing {records}; wait for "
                    "it to end (then --resume) or choose another --out")


def check_free(records: Path) -> None:
    """Raise :class:`LockHeld` when a live process holds ``records``' lock; writes
    nothing (a run checks this before it loads a model or creates its directory)."""
    path = lock_path(records)
    if fcntl is None or not path.is_file():
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _refusal(records, fd) from None
    finally:
        os.close(fd)  # also releases the probe's shared lock


def _lock(fd: int, records: Path, tries: int = 5) -> None:
    """Take the exclusive lock, or raise :class:`LockHeld`. A few quick retries ride
    out another process's :func:`check_free`, which holds a shared lock for an instant."""
    for attempt in range(tries):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if attempt == tries - 1:
                raise _refusal(records, fd) from None
            time.sleep(0.02)


@contextmanager
def run_lock(records: Path) -> Iterator[None]:
    """Hold the lock of ``records`` (creating its directory) for the ``with`` block;
    raise :class:`LockHeld` at once when another process holds it."""
    records.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path(records), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            _lock(fd, records)
        info = {"pid": os.getpid(), "host": platform.node(),
                "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode("utf-8"), 0)
        yield
    finally:
        os.close(fd)  # releases the lock
