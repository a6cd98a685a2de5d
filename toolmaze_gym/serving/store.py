"""Many served sessions at once, each its own episode; idle ones expire.

A transport opens a session per client (an MCP session, an OpenEnv connection) and
addresses it by id. However a session ends, an episode in which the agent made a call
is recorded exactly once and one in which it made none (it only listed tools) never:
the agent ends it (finish, abort, the step limit), its client closes it
(:meth:`SessionStore.end`, ``"cut": "closed"``), the server stops
(:meth:`SessionStore.shutdown`, ``"cut": "shutdown"``), or it idles: a client that
vanishes (killed, cut off) must not leave it in memory for ever, so
:meth:`SessionStore.expire` ends every session idle longer than ``idle_timeout``
(``"cut": "idle"``) and forgets it, ended ones included; the servers call it
periodically. ``max_sessions`` bounds memory: a client beyond it gets a clear
``capacity`` error.

A session whose episode has ended may go on to another (:meth:`SessionStore.renew`):
a chat client keeps one MCP session for hours, and stdio has only one. Sessions that
choose no task walk the level in order, starting after the tasks the run directory
already holds in the server's mode and prompt, so a client that launches the server
anew (Claude Code, each time it starts) is not served the first task again.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from toolmaze_gym.prompts import TEXT
from toolmaze_gym.serving.recorder import ServeRecorder
from toolmaze_gym.serving.session import EpisodeChoice, ServeError, Session
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite

log = logging.getLogger(__name__)

GONE_KEPT = 1 << 16  # ended session ids remembered (a few MB); a client is long gone by then


class SessionStore:
    """Sessions by id; see the module docstring. Thread-safe. ``calling``: the calling
    convention every session's system prompt is worded for (``native`` for MCP)."""

    def __init__(self, recorder: ServeRecorder | None = None, suite: str = SUITE_NAME,
                 base: EpisodeChoice | None = None, fixed: frozenset[str] = frozenset(),
                 idle_timeout: float = 300.0, max_sessions: int = 256, max_steps: int = 25,
                 clock: Callable[[], float] = time.monotonic, calling: str = TEXT,
                 walk: tuple[int, int] = (0, 1)) -> None:
        if idle_timeout <= 0 or max_sessions < 1:
            raise ValueError("idle_timeout must be positive and max_sessions at least 1")
        if not 0 <= walk[0] < walk[1]:
            raise ValueError(f"walk must be (worker, workers) with 0 <= worker < workers, "
                             f"got {walk}")
        self.recorder, self.suite, self.base = recorder, suite, base or EpisodeChoice()
        self.fixed, self.idle_timeout, self.max_sessions = fixed, idle_timeout, max_sessions
        self.max_steps, self.clock, self.calling = max_steps, clock, calling
        self._sessions: dict[str, Session] = {}
        self._seen: dict[str, float] = {}
        self._opening: dict[str, threading.Lock] = {}
        # ended ids, oldest first: a late call is told, not replayed; the newest GONE_KEPT
        # only, so a server that runs for weeks does not keep every id it ever served
        self._gone: dict[str, None] = {}
        self._lock = threading.Lock()
        self._renewing = threading.Lock()
        # worker k of n (serving.workers) walks every n-th task from the k-th on
        self._next_seed, self._stride = self._walk_start() + walk[0], walk[1]
        self.expired = 0

    def _walk_start(self) -> int:
        """The seed of the first task of the base level that the run directory holds
        no episode of (in the base mode and prompt); the base seed without records."""
        b = self.base
        if self.recorder is None or b.split != "suite" or b.task_id is not None \
                or b.task is not None or "seed" in self.fixed:
            return b.seed
        tasks = load_suite(self.suite, [b.level])
        played = self.recorder.played
        return next((b.seed + k for k in range(len(tasks))
                     if not played(tasks[(b.seed + k) % len(tasks)].id, b.mode, b.prompt)),
                    b.seed + len(tasks))

    def choice(self, given: Mapping[str, Any]) -> EpisodeChoice:
        """The client's choice over the server's defaults; a value fixed by the server
        (``fixed``) cannot be changed by a client."""
        clash = sorted(k for k in self.fixed if given.get(k) is not None
                       and str(given[k]) != str(getattr(self.base, k)))
        if clash:
            raise ServeError("bad_request", f"this server fixes {', '.join(clash)} "
                             f"({', '.join(f'{k}={getattr(self.base, k)}' for k in clash)})")
        return EpisodeChoice.from_mapping(given, self.base)

    def open(self, given: Mapping[str, Any], sid: str | None = None) -> tuple[str, Session]:
        """Start a session on the client's choice; returns its id and the session. A
        client that names neither a task nor a seed (nor a server that fixes one)
        gets the next task in order, as the env's seedless ``reset`` does."""
        given = dict(given)
        if given.get("task_id") is None and given.get("seed") is None \
                and not {"seed", "task_id"} & self.fixed:
            with self._lock:
                given["seed"], self._next_seed = self._next_seed, self._next_seed + self._stride
        choice = self.choice(given)
        with self._lock:
            if len(self._sessions) >= self.max_sessions:
                raise ServeError("capacity", f"the server holds {self.max_sessions} sessions "
                                             "already; end one or retry later")
        session = Session(choice, self.suite, self.max_steps, on_end=self._ended,
                          calling=self.calling)
        sid = sid or secrets.token_hex(16)
        with self._lock:
            self._sessions[sid] = session
            self._seen[sid] = self.clock()
        return sid, session

    def get_or_open(self, sid: str, given: Mapping[str, Any]) -> Session:
        """The session ``sid``, opened on ``given`` at its first use (a transport whose
        clients have ids before they have episodes: an MCP session)."""
        with self._lock:
            if sid in self._gone:
                raise self._unknown(sid)
            session = self._sessions.get(sid)
            if session is not None:
                self._seen[sid] = self.clock()
                return session
            opening = self._opening.setdefault(sid, threading.Lock())
        with opening:  # two first requests of one client open one episode
            with self._lock:
                if sid in self._sessions:
                    return self._sessions[sid]
            try:
                return self.open(given, sid)[1]
            finally:
                with self._lock:
                    self._opening.pop(sid, None)

    def renew(self, sid: str, given: Mapping[str, Any]) -> tuple[Session, bool]:
        """The session ``sid`` as :meth:`get_or_open` gives it, or, when its episode
        has ended (and been recorded), a new episode in its place on the same choice:
        the next task of the walk unless the choice names one. Returns the session and
        whether it is a new episode."""
        session = self.get_or_open(sid, given)
        if not session.done:
            return session, False
        with self._renewing:  # two requests after the end start one next episode
            with self._lock:
                current = self._sessions.get(sid)
                if current is not session:
                    if current is None:
                        raise self._unknown(sid)
                    return current, False
                del self._sessions[sid]
            return self.open(given, sid)[1], True

    def _unknown(self, sid: str) -> ServeError:
        return ServeError("unknown_session", f"unknown session {sid!r} (never opened, or "
                                             f"expired after {self.idle_timeout:g} s idle)")

    def get(self, sid: str) -> Session:
        with self._lock:
            session = self._sessions.get(sid)
            if session is None:
                raise self._unknown(sid)
            self._seen[sid] = self.clock()
            return session

    def call(self, sid: str, tool: Any, arguments: Any) -> dict[str, Any]:
        """One tool call in session ``sid``. An ended session stays until it expires,
        so a late call is told the episode ended rather than that it never existed."""
        return self.get(sid).call(tool, arguments)

    def close(self, sid: str) -> None:
        """Forget ``sid`` (its transport ended its episode already, if it had one)."""
        with self._lock:
            self._sessions.pop(sid, None)
            self._seen.pop(sid, None)

    def end(self, sid: str, reason: str) -> bool:
        """End and forget session ``sid`` (its client closed it: ``reason`` "closed");
        its episode is recorded, cut for ``reason``, if it made a call and is still
        running. Returns whether ``sid`` was held."""
        return bool(self._end([sid], reason))

    def expire(self) -> list[str]:
        """End and forget every session idle longer than ``idle_timeout``."""
        now = self.clock()
        with self._lock:  # counted as it is forgotten: whoever sees it gone sees it counted
            held = self._forget([s for s, t in self._seen.items()
                                 if now - t > self.idle_timeout])
            self.expired += len(held)
        return self._record(held, "idle")

    def shutdown(self, reason: str = "shutdown") -> list[str]:
        """End and forget every session (the server is stopping), so no episode that
        made a call is lost; idempotent."""
        with self._lock:
            held = list(self._sessions)
        return self._end(held, reason)

    def _end(self, sids: list[str], reason: str) -> list[str]:
        with self._lock:
            held = self._forget(sids)
        return self._record(held, reason)

    def _forget(self, sids: list[str]) -> list[tuple[str, Session]]:
        """Drop ``sids`` from the held sessions (the caller holds the lock)."""
        held = [(s, self._sessions.pop(s)) for s in sids if s in self._sessions]
        for s, _ in held:
            self._seen.pop(s, None)
            self._gone[s] = None
        for old in list(itertools.islice(self._gone, max(len(self._gone) - GONE_KEPT, 0))):
            del self._gone[old]
        return held

    def _record(self, held: list[tuple[str, Session]], reason: str) -> list[str]:
        for sid, session in held:  # one episode that cannot end costs no other its record
            try:
                session.expire(reason)
            except Exception:
                log.exception("session %s could not be ended and recorded (%s)", sid, reason)
        return [s for s, _ in held]

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def _ended(self, session: Session) -> None:
        if self.recorder is not None:
            self.recorder.write(session)
