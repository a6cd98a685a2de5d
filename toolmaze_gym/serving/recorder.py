"""Served episodes written as ``toolmaze eval`` writes them.

A serve run directory holds ``run.json`` (who played: the agent label, the suite, the
server, the calling convention) and ``records.jsonl``: one fsync'd line per ended
episode in the runner's record format (:class:`toolmaze_gym.runner.RecordWriter`,
secrets redacted), so ``toolmaze report DIR`` and the viewer read it like any eval
run. Episodes of the same
(task, mode, prompt) get successive ``repeat`` indices, continuing those already on
disk, because reports keep one record per episode key and many clients may play the
same task. One server writes a directory at a time (the runner's lock).

An episode of a task outside the suite (a procedural split, a task a client sent) is
recorded as ``toolmaze eval`` records a run over a task file: its task is kept in the
directory's ``tasks.jsonl`` and the record names that file, so reports find it.

Records are written and fsync'd by a writer thread: a client's last call returns its
grade without waiting for the disk (an fsync costs tens of milliseconds here, more
than the episode's every step), and :meth:`ServeRecorder.close` (or ``flush``) waits
until every record handed over is on disk.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import queue
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from toolmaze_gym.prompts import TEXT
from toolmaze_gym.runlock import LockHeld, run_lock
from toolmaze_gym.runner import (
    RUN_FILE,
    TASKS_FILE,
    RecordWriter,
    _write_json_atomic,
    read_config,
    read_records,
    record_key,
    repair,
)
from toolmaze_gym.serving.session import ServeError, Session
from toolmaze_gym.tasks.suite import SUITE_NAME

log = logging.getLogger(__name__)

RECORDS = "records.jsonl"


class ServeRecorder:
    """Writes each ended session's record to ``out``; see the module docstring.

    Raises:
        ServeError: ``out`` holds a run of another agent label or suite, or another
            process writes it.
    """

    def __init__(self, out: str | Path, agent: str = "served", suite: str = SUITE_NAME,
                 server: str = "mcp", convention: str = TEXT) -> None:
        self.out, self.agent, self.suite, self.server = Path(out), agent, suite, server
        self.convention = convention  # how the tools reached the model, as eval records it
        if self.out.exists() and not self.out.is_dir():
            raise ServeError("bad_request", f"{self.out} exists and is not a directory")
        self._check_identity()
        self._stack = ExitStack()
        try:
            self._stack.enter_context(run_lock(self.out / RECORDS))
        except LockHeld as exc:
            raise ServeError("bad_request", str(exc)) from None
        said = repair(self.out / RECORDS)  # a stopped server's cut last line
        if said:
            log.warning("%s", said)
        self._repeats = self._repeats_on_disk()
        self._tasks = self._tasks_on_disk()
        self._write_config()
        self._writer = RecordWriter(self.out / RECORDS)
        self._lock = threading.Lock()
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._drain, name="toolmaze-records",
                                        daemon=True)
        self.written = self.lost = 0
        self._thread.start()

    def _check_identity(self) -> None:
        old = read_config(self.out) if self.out.is_dir() else None
        if old is None:
            return
        before = {"convention": TEXT}  # a run.json from before conventions were recorded
        for key, mine in (("label", self.agent), ("suite", self.suite),
                          ("convention", self.convention)):
            theirs = old.get(key, before.get(key))
            if theirs != mine:
                raise ServeError("bad_request", f"{self.out} holds a run with another {key} "
                                                f"({theirs!r} vs {mine!r}); use a new "
                                                "--out or the same settings")

    def _repeats_on_disk(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        if (self.out / RECORDS).exists():
            for rec in read_records(self.out):
                base = record_key(rec).rsplit("/", 1)[0]
                counts[base] = max(counts.get(base, 0), int(rec.get("repeat", 0)) + 1)
        return counts

    def played(self, task_id: str, mode: str, prompt: str) -> bool:
        """Whether this directory holds an episode of the task in ``mode`` under
        ``prompt`` (so a server started again on it can walk on past it)."""
        with self._lock:
            return f"{task_id}/{mode}/{prompt}" in self._repeats

    def _tasks_on_disk(self) -> dict[str, str]:
        path = self.out / TASKS_FILE
        if not path.is_file():
            return {}
        return {json.loads(line)["id"]: line.strip() for line in
                path.read_text(encoding="utf-8").splitlines() if line.strip()}

    def _keep_task(self, task: dict[str, Any] | None, rec: dict[str, Any]) -> None:
        """Name the run's task file in a record of a task outside the suite (kept there
        on first sight; ``task`` is None for a suite task). Two different tasks under
        one id cannot both be reported: the second is recorded without the task file
        (and reports skip it)."""
        if task is None:
            return
        line = json.dumps(task, ensure_ascii=False, sort_keys=True)
        known = self._tasks.get(task["id"])
        if known is None:
            with (self.out / TASKS_FILE).open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")
            self._tasks[task["id"]] = known = line
        if known == line:
            rec["tasks"] = str((self.out / TASKS_FILE).resolve())

    def _write_config(self) -> None:
        from toolmaze_gym import __version__

        if (self.out / RUN_FILE).exists():
            return
        self.out.mkdir(parents=True, exist_ok=True)
        _write_json_atomic(self.out / RUN_FILE, {
            "agent": self.agent, "label": self.agent, "agent_options": {}, "suite": self.suite,
            "server": self.server, "convention": self.convention, "toolmaze_version": __version__,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "machine": f"{platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs)"})

    def write(self, session: Session) -> dict[str, Any]:
        """Record ``session``'s ended episode; returns the record."""
        return self.store(session.record(self.agent), session.wall_s,
                          task_to_keep(session, self.suite))

    def store(self, rec: dict[str, Any], wall_s: float, task: dict[str, Any] | None
              ) -> dict[str, Any]:
        """Record an ended episode given as the env's record of it, the session's wall
        time and, for a task outside the suite, the task (:func:`task_to_keep`): what
        :meth:`write` takes from a session here, and what a worker process sends
        (:mod:`toolmaze_gym.serving.workers`)."""
        with self._lock:
            base = f"{rec['task_id']}/{rec['mode']}/{rec['prompt']}"
            repeat = self._repeats.get(base, 0)
            self._repeats[base] = repeat + 1
            steps = rec["steps"]
            rec.update(repeat=repeat, key=f"{base}/{repeat}", agent_options={},
                       suite=self.suite, sampling=None, server=self.server,
                       convention=self.convention,
                       usage={"prompt_tokens": 0, "completion_tokens": 0,
                              "turns": len(steps), "shared_turns": 0},
                       wall_s=wall_s)
            self._keep_task(task, rec)
            self.written += 1
        self._queue.put(rec)
        return rec

    def played_keys(self) -> frozenset[str]:
        """Every ``task/mode/prompt`` this directory holds an episode of."""
        with self._lock:
            return frozenset(self._repeats)

    def _drain(self) -> None:
        """Write records as they come. A record that cannot be written (the disk is
        full, the directory went away) is said in the log and counted in ``lost``, and
        the thread goes on: had it died, every later record would wait in the queue
        for ever and ``flush`` (the server's shutdown) with them."""
        while True:
            rec = self._queue.get()
            try:
                if rec is not None:
                    self._writer.write(rec)
            except Exception as exc:  # any failure: said, never a hang
                self.lost += 1
                log.error("record %s could not be written to %s: %s: %s", rec.get("key"),
                          self.out / RECORDS, type(exc).__name__, exc)
            finally:
                self._queue.task_done()
            if rec is None:
                return

    def flush(self) -> None:
        """Wait until every record handed over so far is written and fsync'd."""
        self._queue.join()

    def close(self) -> None:
        """Write what is pending, then release the directory."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self._writer.close()
        self._stack.close()


def task_to_keep(session: Session, suite: str) -> dict[str, Any] | None:
    """The session's task as a dict when it is outside ``suite`` (the run keeps it in
    its tasks file), else None: turning a task into a dict costs more than a step, so a
    suite task, which reports find by id, is not turned."""
    from toolmaze_gym.tasks.suite import task_index

    task = session.env.episode.task
    return None if task.id in task_index(suite) else task.to_dict()


def record_line(rec: dict[str, Any]) -> str:
    """A record as one JSON line (for logs and tests)."""
    return json.dumps(rec, ensure_ascii=False)
