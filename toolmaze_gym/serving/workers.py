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

Nothing one process suffers may skew the others (issue 32). Each worker has a pipe of
its own to the parent, written by a thread of its own, so a worker killed in mid-send
leaves no lock held and no half message in anyone else's way: the parent reads every
whole record it sent, then sees the pipe close. A worker that dies once it served is
started again on its port, said on stderr (its open episodes died with it; the others'
sessions go on), up to ``RESTARTS`` times; one that dies while starting stops them all
with one line. A worker whose parent is gone (killed outright) stops itself instead of
serving records nobody writes.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection, wait
from typing import Any

from toolmaze_gym.serving.hosting import on_stop_signals
from toolmaze_gym.serving.recorder import ServeRecorder, task_to_keep
from toolmaze_gym.serving.session import Session

# seconds the parent waits for a worker to start (import, corpus, bind) or to stop
START_S, STOP_S = 120.0, 60.0
RESTARTS = 3  # times one worker is started again after dying, before the server stops
PARENT_CHECK_S = 1.0  # how often a worker looks whether its parent is still there


class ForwardingRecorder:
    """A worker's recorder: what :class:`~toolmaze_gym.serving.store.SessionStore`
    asks of a :class:`ServeRecorder`, with the records sent to the parent, which
    writes them (see the module docstring). A thread sends, so the event loop never
    waits on the pipe."""

    def __init__(self, out: str, agent: str, suite: str, played: frozenset[str],
                 pipe: Connection) -> None:
        self.out, self.agent, self.suite, self._played = out, agent, suite, played
        self._outbox: queue.Queue[tuple | None] = queue.Queue()
        self._sender = threading.Thread(target=self._send, args=(pipe,),
                                        name="toolmaze-forward", daemon=True)
        self._sender.start()
        self.written = 0

    def played(self, task_id: str, mode: str, prompt: str) -> bool:
        """Whether the run directory held an episode of it when the worker started."""
        return f"{task_id}/{mode}/{prompt}" in self._played

    def send(self, message: tuple) -> None:
        """Hand ``message`` to the parent, after everything handed before it."""
        self._outbox.put(message)

    def write(self, session: Session) -> None:
        self.send(("record", session.record(self.agent), session.wall_s,
                   task_to_keep(session, self.suite)))
        self.written += 1

    def _send(self, pipe: Connection) -> None:
        with pipe:
            while (message := self._outbox.get()) is not None:
                try:
                    pipe.send(message)
                except OSError:  # the parent is gone: nobody is left to write records
                    return

    def flush(self) -> None:
        """Nothing waits here: the parent flushes the records it writes."""

    def close(self) -> None:
        """Send what is pending and close the pipe (the parent then sees it end)."""
        self._outbox.put(None)
        self._sender.join()


def _watch_parent(parent: int) -> None:
    """Stop this worker (as SIGTERM stops it) once its parent is gone: a parent killed
    outright cannot stop it, and an orphan would hold its port serving episodes whose
    records nobody writes."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="toolmaze-parent-watch", daemon=True).start()


def _worker(ns: argparse.Namespace, index: int, played: frozenset[str], pipe: Connection,
            parent: int) -> None:
    """One worker process: a whole server over a :class:`ForwardingRecorder`; says
    ``ready`` with its URL once it listens, ``done`` with its count when it stops."""
    from toolmaze_gym.cli import serve
    from toolmaze_gym.cli.common import UsageError
    from toolmaze_gym.serving.store import SessionStore

    recorder = ForwardingRecorder(ns.out, ns.agent, ns.suite, played, pipe)
    store = SessionStore(recorder, ns.suite, ns.base, frozenset(ns.fixed), ns.idle_timeout,
                         ns.max_sessions, ns.max_steps, calling=ns.calling,
                         walk=(index, ns.workers))
    serve.stop_on_sigterm()
    _watch_parent(parent)
    try:
        serve.serve_http(ns, store, lambda url: recorder.send(("ready", index, url)))
    except UsageError as exc:  # e.g. its port is taken: the parent says it, once
        recorder.send(("failed", index, str(exc)))
    except KeyboardInterrupt:  # stopped while starting, or by a signal uvicorn re-raised
        pass
    finally:  # nothing may interrupt the last records and the pipe's flush
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        store.shutdown()
        recorder.send(("done", index, recorder.written))
        recorder.close()


def _how_it_ended(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit status {exitcode}"


class _Workers:
    """The parent's side of ``--workers N``: starts the workers, writes what they send,
    starts a dead one again, stops them all; see the module docstring."""

    def __init__(self, ns: argparse.Namespace, recorder: ServeRecorder, base: Any,
                 fixed: frozenset[str]) -> None:
        self.ns, self.recorder, self.base, self.fixed = ns, recorder, base, fixed
        self.ctx = multiprocessing.get_context("spawn")  # a clean interpreter
        self.procs: dict[int, Any] = {}
        self.pipes: dict[int, Connection] = {}
        self.urls: dict[int, str] = {}
        self.failures: dict[int, str] = {}
        self.done: set[int] = set()
        self.restarts = dict.fromkeys(range(ns.workers), 0)
        self.announced = False
        self.failed: list[str] = []  # why the server stopped itself
        self.deadline: float | None = None

    def start(self, k: int, port: int) -> None:
        ns = self.ns
        worker_ns = argparse.Namespace(**{**vars(ns), "func": None, "base": self.base,
                                          "fixed": sorted(self.fixed), "port": port})
        reader, writer = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_worker, name=f"toolmaze-serve-{k}", daemon=False,
                                args=(worker_ns, k, self.recorder.played_keys(), writer,
                                      os.getpid()))
        proc.start()
        writer.close()  # the worker's end only: the pipe ends when the worker does
        self.procs[k], self.pipes[k] = proc, reader
        self.urls.pop(k, None)
        self.done.discard(k)

    def stop_all(self) -> None:
        if self.deadline is None:
            self.deadline = time.monotonic() + STOP_S
        for p in self.procs.values():
            if p.is_alive() and p.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p.pid, signal.SIGTERM)

    def handle(self, message: tuple) -> None:
        kind, k = message[0], message[1] if len(message) > 1 else None
        if kind == "record":
            self.recorder.store(*message[1:])
        elif kind == "ready":
            if self.announced:
                say(f"worker {k} serves again on {message[2]}")
            self.urls[k] = message[2]
        elif kind == "done":
            self.done.add(k)
        elif kind == "failed":
            self.failures[k] = message[2]

    def read(self, timeout: float) -> None:
        """Write what the workers sent; a pipe that ends is a worker that ended."""
        by_pipe = {id(p): k for k, p in self.pipes.items()}
        for pipe in wait(list(self.pipes.values()), timeout=timeout):
            k = by_pipe[id(pipe)]
            try:
                self.handle(pipe.recv())
            except (EOFError, OSError):  # whole messages are all read; it has ended
                pipe.close()
                del self.pipes[k]
                self.ended(k)

    def ended(self, k: int) -> None:
        proc = self.procs[k]
        proc.join(timeout=STOP_S)
        if k in self.done or self.deadline is not None:
            return  # stopped as asked
        how = _how_it_ended(proc.exitcode)
        if k not in self.urls or self.restarts[k] >= RESTARTS:
            why = self.failures.get(k) or (f"worker {k} died while starting ({how})" if
                                           k not in self.urls else
                                           f"worker {k} died {RESTARTS + 1} times ({how})")
            self.failed.append(why)
            say(f"{why}; stopping the other workers")
            self.stop_all()
            return
        self.restarts[k] += 1
        url = self.urls[k]
        say(f"worker {k} ({url}) died ({how}); its open episodes are lost, the other "
            f"workers' sessions go on; starting it again on the same port")
        self.start(k, int(url.rsplit(":", 1)[1]))

    def run(self) -> int:
        ns = self.ns
        for k in range(ns.workers):
            self.start(k, ns.port + k if ns.port else 0)
        started = time.monotonic()
        while self.pipes:
            self.read(0.2)
            if not self.announced and len(self.urls) == ns.workers:
                say(f"{ns.protocol}, {ns.workers} workers on "
                    f"{' '.join(self.urls[k] for k in sorted(self.urls))}; records to "
                    f"{ns.out} (Ctrl-C stops)")
                self.announced = True
            if self.failures and self.deadline is None:  # e.g. a port taken
                self.failed.extend(f"worker {k} could not start: {why}"
                                   for k, why in sorted(self.failures.items()))
                self.stop_all()
            if not self.announced and self.deadline is None \
                    and time.monotonic() - started > START_S:
                self.failed.append(f"{ns.workers - len(self.urls)} of {ns.workers} workers "
                                   f"did not start within {START_S:g} s")
                self.stop_all()
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.kill_the_rest()
        return self.finish()

    def kill_the_rest(self) -> None:
        """Past the stop deadline: whatever still runs is hung; its pipe is dropped."""
        for k in list(self.pipes):
            self.procs[k].kill()
            self.procs[k].join(timeout=10)
            self.pipes.pop(k).close()
            self.failed.append(f"worker {k} did not stop within {STOP_S:g} s (killed)")

    def finish(self) -> int:
        if not self.announced:
            if self.failures:
                raise RuntimeError("; ".join(f"worker {k} could not start: {why}"
                                             for k, why in sorted(self.failures.items())))
            raise RuntimeError("; ".join(self.failed) or "the workers did not start")
        restarted = {k: n for k, n in self.restarts.items() if n}
        print(f"toolmaze serve: {self.recorder.written} episodes recorded in {self.ns.out}"
              + "".join(f"; worker {k} was started again {n} time(s)"
                        for k, n in sorted(restarted.items()))
              + (f"; stopped: {'; '.join(self.failed)}" if self.failed else ""),
              file=sys.stderr)
        return 1 if self.failed else 0


def say(line: str) -> None:
    print(f"toolmaze serve: {line}", file=sys.stderr, flush=True)


def _stop_requests(workers: _Workers) -> Any:
    """Ctrl-C or SIGTERM to the parent asks every worker to stop, as a flag read between
    messages: an exception raised into the middle of storing a record could lose it."""
    return on_stop_signals(workers.stop_all)


def serve_workers(ns: argparse.Namespace, recorder: ServeRecorder, base: Any,
                  fixed: frozenset[str]) -> int:
    """Run ``ns.workers`` workers on ports ``ns.port``, ``ns.port + 1``, ... (any free
    ports for ``--port 0``), writing their records with ``recorder`` until stopped."""
    workers = _Workers(ns, recorder, base, fixed)
    with _stop_requests(workers):
        return workers.run()
