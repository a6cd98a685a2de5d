"""``toolmaze serve --workers N``: N server processes on one machine, one run directory.

A step is pure Python, so one server process runs one at a time (the GIL) however many
sessions it holds; a machine with cores to spare serves more by processes. Each worker
is a whole server (its own event loop, sessions and envs) listening on its own port, and
a session lives in the worker that opened it: the client stays with that worker by its
URL. A trainer is given every worker's URL and spreads its sessions over them
(``grpo_recovery --openenv-url URL,URL,...``), as it spreads them over replicas on
other machines. One shared port would not do: OpenEnv's client opens a session over
HTTP and then attaches a WebSocket to it, two connections the kernel could hand to two
different workers.

The parent holds the run directory (its lock, the repeat indices, the tasks file) and
writes every record: a worker sends each ended episode's record over a queue
(:class:`ForwardingRecorder`) and the parent stores it with
:meth:`ServeRecorder.store`, so ``toolmaze report DIR`` reads one run whatever the
number of workers. Sessions that choose no task walk the level interleaved (worker
``k`` of ``n`` takes every ``n``-th task from the ``k``-th on). Ctrl-C or SIGTERM to
the parent stops every worker the way it stops one server: open episodes that made a
call are recorded, then the parent writes what is left and exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import time
from typing import Any

from toolmaze_gym.serving.recorder import ServeRecorder, task_to_keep
from toolmaze_gym.serving.session import Session

# seconds the parent waits for a worker to start (import, corpus, bind) or to stop
START_S, STOP_S = 120.0, 60.0


class ForwardingRecorder:
    """A worker's recorder: what :class:`~toolmaze_gym.serving.store.SessionStore`
    asks of a :class:`ServeRecorder`, with the records sent to the parent, which
    writes them (see the module docstring)."""

    def __init__(self, out: str, agent: str, suite: str, played: frozenset[str],
                 outbox: Any) -> None:
        self.out, self.agent, self.suite = out, agent, suite
        self._played, self._outbox = played, outbox
        self.written = 0

    def played(self, task_id: str, mode: str, prompt: str) -> bool:
        """Whether the run directory held an episode of it when the workers started."""
        return f"{task_id}/{mode}/{prompt}" in self._played

    def write(self, session: Session) -> None:
        self._outbox.put(("record", session.record(self.agent), session.wall_s,
                          task_to_keep(session, self.suite)))
        self.written += 1

    def flush(self) -> None:
        """Nothing waits here: the parent flushes the records it writes."""

    def close(self) -> None:
        """The parent closes the run directory."""


def _worker(ns: argparse.Namespace, index: int, played: frozenset[str], outbox: Any) -> None:
    """One worker process: a whole server over a :class:`ForwardingRecorder`; says
    ``ready`` with its URL once it listens, ``done`` with its count when it stops."""
    from toolmaze_gym.cli import serve
    from toolmaze_gym.cli.common import UsageError
    from toolmaze_gym.serving.store import SessionStore

    recorder = ForwardingRecorder(ns.out, ns.agent, ns.suite, played, outbox)
    store = SessionStore(recorder, ns.suite, ns.base, frozenset(ns.fixed), ns.idle_timeout,
                         ns.max_sessions, ns.max_steps, calling=ns.calling,
                         walk=(index, ns.workers))
    serve.stop_on_sigterm()
    try:
        serve.serve_http(ns, store, lambda url: outbox.put(("ready", index, url)))
    except UsageError as exc:  # e.g. its port is taken: the parent says it, once
        outbox.put(("failed", index, str(exc)))
    except KeyboardInterrupt:  # stopped while starting, or by a signal uvicorn re-raised
        pass
    finally:  # nothing may interrupt the last records and the queue's flush
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        store.shutdown()
        outbox.put(("done", index, recorder.written))


def serve_workers(ns: argparse.Namespace, recorder: ServeRecorder, base: Any,
                  fixed: frozenset[str]) -> int:
    """Run ``ns.workers`` workers on ports ``ns.port``, ``ns.port + 1``, ... (any free
    ports for ``--port 0``), writing their records with ``recorder`` until stopped."""
    ctx = multiprocessing.get_context("spawn")  # a clean interpreter: no copied threads
    outbox = ctx.Queue()
    procs = []
    played = recorder.played_keys()
    for k in range(ns.workers):
        worker_ns = argparse.Namespace(**{**vars(ns), "func": None, "base": base,
                                          "fixed": sorted(fixed),
                                          "port": ns.port + k if ns.port else 0})
        procs.append(ctx.Process(target=_worker, args=(worker_ns, k, played, outbox),
                                 name=f"toolmaze-serve-{k}", daemon=False))
    urls: dict[int, str] = {}
    failures: dict[int, str] = {}
    done: set[int] = set()
    stopping = False

    def stop_all() -> None:
        for p in procs:
            if p.is_alive() and p.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p.pid, signal.SIGTERM)

    def handle(message: tuple) -> None:
        if message[0] == "record":
            recorder.store(*message[1:])
        elif message[0] == "ready":
            urls[message[1]] = message[2]
        elif message[0] == "done":
            done.add(message[1])
        elif message[0] == "failed":
            failures[message[1]] = message[2]

    for p in procs:
        p.start()
    started = time.monotonic()
    deadline: float | None = None
    announced = False
    while len(done) < len(procs):
        try:
            with contextlib.suppress(queue.Empty):
                handle(outbox.get(timeout=0.2))
            if not announced and len(urls) == len(procs):
                print(f"toolmaze serve: {ns.protocol}, {len(procs)} workers on "
                      f"{' '.join(urls[k] for k in sorted(urls))}; records to {ns.out} "
                      "(Ctrl-C stops)", file=sys.stderr, flush=True)
                announced = True
            dead = [k for k, p in enumerate(procs) if not p.is_alive() and k not in done]
            if (dead or failures) and not stopping:  # a worker failed: stop the others
                stopping, deadline = True, time.monotonic() + STOP_S
                stop_all()
            if not announced and time.monotonic() - started > START_S and not stopping:
                stopping, deadline = True, time.monotonic() + STOP_S
                stop_all()
            if deadline is not None and time.monotonic() > deadline:
                break
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM to the parent: stop every worker
            if not stopping:
                stopping, deadline = True, time.monotonic() + STOP_S
                stop_all()
    for p in procs:
        p.join(timeout=STOP_S)
    with contextlib.suppress(queue.Empty):  # what a worker sent as it stopped
        while True:
            handle(outbox.get(timeout=0.5))
    failed = sorted({k for k, p in enumerate(procs) if p.exitcode not in (0, None)}
                    | set(failures))
    if not announced:
        if failures:
            raise RuntimeError("; ".join(f"worker {k} could not start: {why}"
                                         for k, why in sorted(failures.items())))
        raise RuntimeError(f"{len(procs) - len(urls)} of {len(procs)} workers did not "
                           f"start within {START_S:g} s")
    print(f"toolmaze serve: {recorder.written} episodes recorded in {ns.out}"
          + (f"; worker(s) {', '.join(map(str, failed))} failed" if failed else ""),
          file=sys.stderr)
    return 1 if failed else 0
