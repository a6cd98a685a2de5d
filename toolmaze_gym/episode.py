"""One episode: a task under a perturbation mode, driven by raw agent actions.

The episode owns the simulator state and the fault engine, turns each raw
action into an observation, and keeps the trajectory the grader reads. The
Gymnasium env and the direct runner share it, so both grade identically.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from toolmaze_gym.actions import MAX_ACTION_CHARS, action_text, parse_action
from toolmaze_gym.corpus import EpisodeState, Simulator, crashed_response, error_response
from toolmaze_gym.faults import FaultEngine, FaultProfile, get_mode
from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suites import task_simulator
from toolmaze_gym.utf8 import valid_record

log = logging.getLogger(__name__)
MAX_STEPS = 25
ENDINGS = ("finish", "abort", "answer")
# A record keeps at most this much of an action's raw text, as the env's echo of it:
# longer text is refused unread (``MAX_ACTION_CHARS``), so its tail decides nothing,
# and 12 MB endpoint replies once made a 201 MB record.
MAX_RAW_CHARS = MAX_ACTION_CHARS


def cut_raw(text: str) -> tuple[str, int | None]:
    """``text`` as a record stores it, and its original length when it had to be cut
    (None when it is whole); the cut is marked like the env's echo marks it."""
    if len(text) <= MAX_RAW_CHARS:
        return text, None
    return f"{text[:MAX_RAW_CHARS]}…[{len(text) - MAX_RAW_CHARS} characters cut]", len(text)


@dataclass(frozen=True)
class Step:
    raw: str
    action: dict[str, Any]  # the parsed action (kind, name, arguments, text)
    status: int | None  # HTTP-style status of the tool response (None for endings)
    observation: str  # tool message content given back ("" for endings)
    fault: dict[str, Any] | None  # the fault event, if one fired
    raw_chars: int | None = None  # the length of ``raw`` before a record cut it

    # Read once per step (the grader asks for both many times per episode); a step is
    # immutable, and a changed one is a new Step (``dataclasses.replace``).
    @cached_property
    def kind(self) -> str:
        return self.action["kind"]

    @cached_property
    def clean_ok(self) -> bool:
        return self.kind == "call" and self.status is not None and self.status < 400 \
            and self.fault is None

    def to_dict(self) -> dict[str, Any]:
        # Built by hand: dataclasses.asdict deep-copies every value and was the
        # largest single cost of a rollout. The action and fault are JSON-shaped
        # already; their top level is copied, treat nested values as read-only.
        raw, chars = (self.raw, self.raw_chars) if self.raw_chars is not None \
            else cut_raw(self.raw)
        d = {"raw": raw, "action": dict(self.action), "status": self.status,
             "observation": self.observation,
             "fault": None if self.fault is None else dict(self.fault)}
        if chars is not None:
            d["raw_chars"] = chars
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Step:
        """A stored step; ``raw_chars`` marks text a record already cut (old records
        hold whole texts and no length)."""
        chars = d.get("raw_chars")
        return cls(d["raw"], d["action"], d["status"], d["observation"], d.get("fault"),
                   chars if isinstance(chars, int) and not isinstance(chars, bool) else None)


class Episode:
    def __init__(self, task: Task, mode: str = "P0", sim: Simulator | None = None,
                 profile: FaultProfile | None = None, max_steps: int = MAX_STEPS) -> None:
        self.task = task
        self.mode = get_mode(mode).name
        # The task's tools answer from its suite's world edition (an old suite's
        # episodes replay on the facts they were played on): the one choice of it.
        self.sim = task_simulator(task, sim or Simulator())
        self.profile = profile or profile_for(task, self.mode, self.sim)
        self.engine = FaultEngine(self.profile, self.sim)
        self.state = EpisodeState()
        self.max_steps = max_steps
        self.steps: list[Step] = []
        self.shown = frozenset(task.tools)
        self.cut_reason: str | None = None
        # the last grade and what it was computed from (see ``grade``)
        self._graded: tuple[tuple, Any] | None = None

    @property
    def ended(self) -> bool:
        """The agent ended the episode itself (finish, abort, or a plain answer)."""
        return bool(self.steps) and self.steps[-1].kind in ENDINGS

    @property
    def truncated(self) -> bool:
        """The episode was ended for the agent: the step limit, or a ``cut``."""
        return not self.ended and (self.cut_reason is not None
                                   or len(self.steps) >= self.max_steps)

    def cut(self, reason: str) -> None:
        """End the running episode from outside (the runner's context or loop guard).

        It is graded like a truncation, never like the agent's own ending, and the
        record keeps ``reason``.

        Raises:
            ValueError: ``reason`` is empty, or the episode has already ended.
        """
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError("cut needs a reason, e.g. 'context', 'loop' or 'error'")
        if self.done:
            raise ValueError("the episode has already ended; there is nothing to cut")
        self.cut_reason = reason

    @property
    def done(self) -> bool:
        return self.ended or self.truncated

    def step(self, raw: Any) -> Step:
        """Apply one raw action; returns the recorded step (never raises)."""
        text = action_text(raw)
        action = parse_action(raw)
        status: int | None = None
        fault = None
        obs = ""
        if action.kind == "call":
            if action.name not in self.shown:
                resp = error_response(404, "unknown_tool",
                                      f"no tool named {action.name!r} is available", "name")
                status, obs = resp.status, resp.to_json()
            else:
                status, obs, fault = self._call(action.name, action.arguments)
        elif action.kind == "invalid":
            resp = error_response(400, "invalid_tool_call", action.text)
            status, obs = resp.status, resp.to_json()
        # Arguments come straight from JSON text (non-finite numbers are refused by
        # the parser), so the recorded action is already what JSON would carry.
        step = Step(text, action.to_dict(), status, obs, fault)
        self.steps.append(step)
        return step

    def _call(self, name: str, arguments: Any) -> tuple[int, str, dict[str, Any] | None]:
        """A shown tool's status, response text and fault event; a 500 when it raises.

        The simulator answers every value its schemas accept, and answers a behaviour
        that raises with a 500 itself; this is the layer above it. Anything that still
        raises between the fault engine and the response text (a fault recipe, a body
        that is not JSON) would otherwise leave ``step`` with an exception: a batch of
        pooled envs half stepped, a vector env's worker lost, a run or a server
        session ended without its record. So it becomes the 500 a crashed handler
        sends, logged here and recorded as the step like any other response.
        """
        try:
            resp, event = self.engine.call(name, arguments, self.state)
            return resp.status, resp.to_json(), event.to_dict() if event else None
        except Exception as exc:
            resp = crashed_response(name, exc, log)
            return resp.status, resp.to_json(), None

    def grade(self) -> Any:
        """The grade of the episode as it stands (``toolmaze_gym.grading.grade``), computed
        once per state: the env grades the last step, and a trainer, a server session or
        a pool then asks for the record, which used to grade the same steps again (a
        grade is most of an episode's cost). The grade is a pure function of the task,
        the profile, the steps and the truncation, so it is recomputed when any of them
        is another object. Treat the returned ``Grade`` as read-only."""
        from toolmaze_gym.grading import grade

        key = (self.task, self.profile, self.sim, self.truncated, *self.steps)
        hit = self._graded
        if hit is not None and len(hit[0]) == len(key) \
                and all(a is b for a, b in zip(hit[0], key, strict=True)):
            return hit[1]
        g = grade(self.task, self.profile, self.steps, self.truncated, self.sim)
        self._graded = (key, g)
        return g

    def record(self, agent: str = "", prompt: str = "") -> dict[str, Any]:
        """The trajectory record (graded by ``toolmaze_gym.grading``)."""
        g = self.grade()
        rec = {"task_id": self.task.id, "level": self.task.level, "mode": self.mode,
               "agent": agent, "prompt": prompt, "steps": [s.to_dict() for s in self.steps],
               "truncated": self.truncated, "grade": g.to_dict(),
               "grading_version": g.version, "profile_version": self.profile.version}
        if self.cut_reason is not None:
            rec["cut"] = self.cut_reason
        return valid_record(rec)  # UTF-8-encodable for every caller, not only writers

