"""One served episode: the env's own episode, reached by tool name and arguments.

A transport (MCP, OpenEnv) hands a session the client's choice of episode and then
each tool call as a name and an argument object. The session turns the call into the
action text the env parses (``{"name": ..., "arguments": ...}``), so a served agent
meets exactly what an in-process agent meets: the same observation text, the same
faults, and the env's own 404/400/422 bodies for an unknown tool or bad arguments.
Nothing is shared between sessions but the env's read-only simulator (corpus, world).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolmaze_gym.faults import get_mode
from toolmaze_gym.prompts import PROMPTS, TEXT
from toolmaze_gym.runner import prompt_for
from toolmaze_gym.serving.limits import too_deep, too_deep_message
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suite import SPLITS, SUITE_NAME, SuiteError, get_task, suite_of

# what a call after the end is told (clients that relay a session, as the verifiers
# taskset does, answer with the same words)
ENDED_MESSAGE = ("the episode has ended; no further calls are accepted "
                 "(start a new session)")
CHOICE_KEYS = ("task_id", "split", "seed", "level", "mode", "prompt", "task")


class ServeError(Exception):
    """A request a session cannot serve; ``kind`` names it for the transport
    (``bad_request``, ``unknown_session``, ``episode_ended``, ``capacity``) and the
    message is one line for the client."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind

    def body(self) -> dict[str, Any]:
        """The error as a JSON body in the env's error shape."""
        code = {"unknown_session": 404, "episode_ended": 409, "capacity": 503}.get(self.kind, 400)
        return {"error": {"code": code, "type": self.kind, "message": str(self)}}


@dataclass(frozen=True)
class EpisodeChoice:
    """Which episode a session plays: a suite task by id, or task ``seed`` of a level
    (suite order on the reference suite, a procedural task on ``train``/``dev``),
    under ``mode`` with the ``prompt`` variant (the failure-aware hint only under a
    fault, as in ``toolmaze eval``)."""

    task_id: str | None = None
    split: str = "suite"
    seed: int = 0
    level: str = "C1"
    mode: str = "P0"
    prompt: str = "standard"
    task: Any = None  # a whole task (dict or JSON text), e.g. a trainer's procedural task

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any], base: EpisodeChoice | None = None
                     ) -> EpisodeChoice:
        """A checked choice from a client's values over ``base``'s; bad values raise
        :class:`ServeError` with a one-line reason."""
        unknown = sorted(set(given) - set(CHOICE_KEYS))
        if unknown:
            raise ServeError("bad_request", f"unknown episode option(s) {', '.join(unknown)}; "
                                            f"use {', '.join(CHOICE_KEYS)}")
        values = {**(base or cls()).__dict__,
                  **{k: v for k, v in given.items() if v is not None}}
        return cls(**values).checked()

    def checked(self) -> EpisodeChoice:
        seed = _seed(self.seed)
        if self.level not in LEVELS:
            raise ServeError("bad_request", f"unknown level {self.level!r}; choose from "
                                            f"{', '.join(LEVELS)}")
        try:
            mode = get_mode(str(self.mode)).name
        except (ValueError, KeyError) as exc:
            raise ServeError("bad_request", str(exc).strip("'\"")) from None
        if self.split not in ("suite", *SPLITS):
            raise ServeError("bad_request", f"unknown split {self.split!r}; choose from "
                                            f"suite, {', '.join(SPLITS)}")
        if self.prompt not in PROMPTS:
            raise ServeError("bad_request", f"unknown prompt {self.prompt!r}; choose from "
                                            f"{', '.join(PROMPTS)}")
        if self.task_id is not None and not isinstance(self.task_id, str):
            raise ServeError("bad_request", "task_id must be a string")
        return EpisodeChoice(self.task_id, self.split, seed, self.level, mode,
                             prompt_for(mode, self.prompt), _task(self.task))


def _task(value: Any) -> Task | None:
    """A client's whole task, checked as the env's loader checks task files."""
    if value is None or isinstance(value, Task):
        return value
    try:
        return Task.from_json(value) if isinstance(value, str) else Task.from_dict(dict(value))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ServeError("bad_request", f"task is not a valid ToolMaze task "
                                        f"({type(exc).__name__}: {exc})"[:300]) from None


def _client_task_fails(choice: EpisodeChoice, exc: Exception) -> bool:
    """Whether ``exc``, raised opening ``choice``, is the client's mistake. A task a
    client sends whole (``from_dict`` checks its fields' presence, not their values) can
    break the env anywhere with any exception; it is graded once as it opens, which met
    every break a later call met in 744 single-field mutations of a C2 task, so an
    episode the server cannot grade does not start (issue 32: one raised at the
    server's shutdown and left the sessions after it unrecorded)."""
    return choice.task is not None or isinstance(exc, SuiteError | ValueError | KeyError)


def _seed(value: Any) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ServeError("bad_request", f"seed must be a non-negative integer, got {value!r}")
    return value


class Session:
    """One episode through ``ToolMazeEnv``; see the module docstring.

    ``on_end(session)`` runs once when the episode ends (the agent ended it, the step
    limit did, or :meth:`expire` ended it for a session that made a call), e.g. to
    write its record. ``call`` is serialised per session,
    so two requests of one client cannot interleave inside the env. ``calling`` is the
    calling convention the system prompt is worded for (:mod:`toolmaze_gym.prompts`):
    ``native`` where the tools travel as schemas (MCP), ``text`` where the client's
    model writes its calls as text.
    """

    def __init__(self, choice: EpisodeChoice, suite: str = SUITE_NAME, max_steps: int = 25,
                 on_end: Callable[[Session], None] | None = None, calling: str = TEXT) -> None:
        from toolmaze_gym.envs.env import ToolMazeEnv

        self.choice, self.suite, self.on_end, self.calling = choice, suite, on_end, calling
        self.env = ToolMazeEnv(level=choice.level, mode=choice.mode, split=choice.split,
                               suite=suite, prompt=choice.prompt, max_steps=max_steps,
                               calling=calling)
        self.lock = threading.Lock()
        self.started = time.perf_counter()
        self.total_reward = 0.0
        self.final: dict[str, Any] | None = None  # the last info, with the grade
        self.opening = self._reset()

    def _reset(self) -> dict[str, Any]:
        options: dict[str, Any] = {"mode": self.choice.mode}
        if self.choice.task is not None:
            options["task"] = self.choice.task
        elif self.choice.task_id is not None:
            try:
                get_task(self.choice.task_id, suite_of(self.choice.task_id) or self.suite)
            except (SuiteError, FileNotFoundError) as exc:
                raise ServeError("bad_request", str(exc)) from None
            options["task_id"] = self.choice.task_id
        try:
            _, info = self.env.reset(seed=self.choice.seed, options=options)
            if self.choice.task is not None:
                self.env.record()  # graded once as it opens: see _client_task_fails
        except Exception as exc:
            if not _client_task_fails(self.choice, exc):
                raise
            raise ServeError("bad_request", f"cannot play this episode: "
                                            f"{type(exc).__name__}: {exc}"[:300]) from None
        messages = self.env.messages
        return {"task_id": info["task_id"], "level": info["level"], "mode": info["mode"],
                "prompt": info["prompt"], "system_prompt": messages[0]["content"],
                "request": messages[1]["content"],
                "clock": self.env.sim.world.now.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "tools": info["tools"]}

    @property
    def tools(self) -> list[dict[str, Any]]:
        """OpenAI-format schemas: the task's tools, then ``finish`` and ``abort``."""
        return self.env.tools

    @property
    def done(self) -> bool:
        ep = self.env.episode
        return ep is not None and ep.done

    def call(self, tool: Any, arguments: Any) -> dict[str, Any]:
        """Run one tool call; returns ``content`` (the env's tool message text),
        ``status`` (HTTP-style, None for an ending), ``done``, and at the end ``grade``
        and ``reward`` (the episode's return). A call after the end raises
        :class:`ServeError` (``episode_ended``)."""
        if too_deep(arguments):  # json.dumps below would recurse once per level
            raise ServeError("bad_request", too_deep_message())
        with self.lock:
            if self.done:
                raise ServeError("episode_ended", ENDED_MESSAGE)
            action = {"name": tool, "arguments": {} if arguments is None else arguments}
            before = len(self.env.messages)
            _, reward, ended, truncated, info = self.env.step(
                json.dumps(action, ensure_ascii=False, default=str))
            self.total_reward += reward
            new = [m for m in self.env.messages[before:] if m["role"] == "tool"]
            out: dict[str, Any] = {
                "content": new[-1]["content"] if new else json.dumps(
                    {"status": "episode ended", "ending": self.env.episode.steps[-1].kind}),
                "status": info.get("status"), "done": ended or truncated}
            if ended or truncated:
                self.final = info
                out.update(grade=info["grade"], reward=self.total_reward)
                self._ended()
            return out

    def reply(self, text: str) -> dict[str, Any]:
        """The agent's plain-text reply (no tool call): the env takes it as the final
        answer, as it takes prose from any agent."""
        if not isinstance(text, str):
            raise ServeError("bad_request", "a reply must be text")
        with self.lock:
            if self.done:
                raise ServeError("episode_ended", ENDED_MESSAGE)
            _, reward, ended, truncated, info = self.env.step(text)
            return self._after(reward, ended, truncated, info, json.dumps(
                {"status": "episode ended", "ending": self.env.episode.steps[-1].kind}))

    def cut(self, reason: str) -> dict[str, Any]:
        """End the running episode for the agent (a trainer's tool budget ran out):
        graded like a truncation, as the env's ``cut``."""
        if not isinstance(reason, str) or not reason.strip():
            raise ServeError("bad_request", "a cut needs a reason")
        with self.lock:
            if self.done:
                raise ServeError("episode_ended", "the episode has ended already")
            info = self.env.cut(reason)
            return self._after(info["reward"], False, True, info,
                               json.dumps({"status": "episode cut", "reason": reason}))

    def _after(self, reward: float, ended: bool, truncated: bool, info: dict[str, Any],
               content: str) -> dict[str, Any]:
        self.total_reward += reward
        out: dict[str, Any] = {"content": content, "status": None, "done": ended or truncated}
        if out["done"]:
            self.final = info
            out.update(grade=info["grade"], reward=self.total_reward)
            self._ended()
        return out

    def reward_inputs(self) -> dict[str, Any]:
        """What ToolMaze's rewards are computed from, for a trainer that applies its own
        weights (``toolmaze_gym.reward``): the grade, the named-tool and valid-call
        shares, the progress along a valid path and the repeated calls, exactly what a
        local GRPO run computes (``training.environment.reward_inputs``)."""
        from toolmaze_gym.training.environment import reward_inputs

        with self.lock:
            return reward_inputs(self.env)

    @property
    def called(self) -> bool:
        """Whether the agent acted at all (a tool call or a reply): a session that only
        opened or listed tools is no episode, and is never recorded."""
        ep = self.env.episode
        return ep is not None and bool(ep.steps)

    def expire(self, reason: str = "idle") -> bool:
        """End a still-running episode from outside (the client closed or went away,
        the server stopped): graded like a truncation, its record marked with ``cut``.
        Only an episode the agent acted in is ended; returns whether it was. Under the
        session's lock, so racing endings record it once."""
        with self.lock:
            if not self.called or self.done:
                return False
            info = self.env.cut(reason)
            self.total_reward += info["reward"]
            self.final = info
            self._ended()
            return True

    def _ended(self) -> None:
        if self.on_end is not None:
            self.on_end(self)

    def record(self, agent: str) -> dict[str, Any]:
        """The env's trajectory record of this episode, graded as it stands."""
        return self.env.record(agent)

    @property
    def wall_s(self) -> float:
        return round(time.perf_counter() - self.started, 4)
