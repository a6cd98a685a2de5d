"""Replaying a record's actions against its task and mode: the responses a record
shows are checked, never trusted.

Why: the grade is derived again from the steps (``regrade``), but the steps carry
what the env answered — each response's status, the fault that fired, the body —
and the grader believes them. A clean P0 record relabelled P2 graded as "success,
not exposed" (a C1 P2 success that never met its fault cannot happen), and a fault
event naming a victim the profile does not have was accepted. The environment is
deterministic (the simulator reads a seeded world, the fault profile of a (task,
mode) is fixed), so the recorded actions, sent again through a fresh simulator state
and fault engine, must give back exactly the recorded statuses, fault events and
observations. Where they do not, the record was edited, relabelled, or written by
another simulator: ``regrade`` scores it as a failure and the output names it.

The actions are replayed from their parsed form (``step["action"]``), not re-parsed
from ``raw``: the raw text may be cut when stored, the parsed action never is. The
rules mirror ``Episode.step`` (an unshown tool is a 404, a broken call a 400);
``tests/report/test_replay.py`` replays honest records of every mode to keep them in
step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolmaze_gym.corpus import EpisodeState, Response, Simulator, error_response
from toolmaze_gym.episode import ENDINGS
from toolmaze_gym.faults import FaultEngine, FaultProfile
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suites import task_simulator
from toolmaze_gym.utf8 import valid_text

REDACTED = "[REDACTED]"  # what ``toolmaze_gym.redact`` writes in place of a secret
LONE_SURROGATE = "lone surrogate"  # in the simulator's 422 for text UTF-8 cannot carry


def replay_mismatch(task: Task, profile: FaultProfile, steps: Sequence[dict[str, Any]],
                    sim: Simulator) -> str | None:
    """The first way the recorded ``steps`` differ from a replay of their actions
    under ``profile`` (``"step 3: status 200 recorded, 503 on replay"``), or None when
    the replay gives every step back as recorded (on the task's world edition)."""
    engine = FaultEngine(profile, task_simulator(task, sim))
    state = EpisodeState()
    shown = frozenset(task.tools)
    for k, step in enumerate(steps, 1):
        if k > 1 and steps[k - 2]["action"].get("kind") in ENDINGS:
            return f"step {k}: recorded after the episode ended"
        problem = _step_mismatch(step, engine, state, shown)
        if problem:
            return f"step {k}: {problem}"
    return None


def _step_mismatch(step: dict[str, Any], engine: FaultEngine, state: EpisodeState,
                   shown: frozenset[str]) -> str | None:
    """How one recorded step differs from its replay (None: it does not)."""
    action = step["action"]
    kind = action.get("kind")
    if kind in ENDINGS:
        status, observation, fault = None, "", None
    elif kind in ("call", "invalid"):
        surrogate = _cleaned_surrogate(step)
        if surrogate:
            action = {**action, "arguments": surrogate}
        try:
            resp, fault = _respond(action, engine, state, shown)
        except Exception as exc:  # a record must not crash a report
            return f"its action cannot be replayed ({type(exc).__name__})"
        status, observation = resp.status, resp.to_json()
        if surrogate and LONE_SURROGATE in observation:
            observation = step["observation"]  # the surrogate is lost (_cleaned_surrogate)
    else:
        return f"an action of unknown kind {kind!r}"
    if step["status"] != status:
        return f"status {step['status']} recorded, {status} on replay"
    if _plain(step.get("fault")) != _plain(fault):
        return _fault_difference(step.get("fault"), fault)
    if not _same_text(step["observation"], observation):
        return "the recorded response differs from the replayed one"
    return None


def _cleaned_surrogate(step: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments as the agent sent them, where the env refused a lone surrogate
    in them: runs write text as valid UTF-8, so the stored arguments hold U+FFFD in its
    place, which the simulator would answer otherwise (a city named 'Vienna\ufffd'
    is a 404, not the 422 the agent got). None where this does not apply."""
    args = step["action"].get("arguments")
    if step["status"] != 422 or LONE_SURROGATE not in step["observation"] \
            or not isinstance(args, dict):
        return None
    restored = {_unclean(k): _unclean(v) for k, v in args.items()}
    return restored if restored != args else None


def _unclean(value: Any) -> Any:
    return value.replace("\ufffd", "\ud800") if isinstance(value, str) else value


def _respond(action: dict[str, Any], engine: FaultEngine, state: EpisodeState,
             shown: frozenset[str]) -> tuple[Response, dict[str, Any] | None]:
    """The env's response to a parsed action, and the fault event it fired."""
    if action["kind"] == "invalid":
        return error_response(400, "invalid_tool_call", action.get("text", "")), None
    name = action.get("name", "")
    if name not in shown:
        return error_response(404, "unknown_tool", f"no tool named {name!r} is available",
                              "name"), None
    resp, event = engine.call(name, action.get("arguments", {}), state)
    return resp, None if event is None else event.to_dict()


def _fault_difference(recorded: Any, replayed: dict[str, Any] | None) -> str:
    """A short account of a fault event that differs from the replay's."""
    if replayed is None:
        return "a fault event recorded where the replay fires none"
    if not recorded:
        return f"no fault recorded where the replay fires one on {replayed['tool']}"
    if recorded.get("victim") != replayed["victim"]:
        return f"a fault event naming victim {recorded.get('victim')!r}, the profile's is " \
               f"{replayed['victim']}"
    return "the recorded fault event differs from the replayed one"


def _plain(obj: Any) -> Any:
    """``obj`` as JSON would carry it (tuples as lists), for comparing with a record."""
    return None if obj is None else json.loads(json.dumps(obj, ensure_ascii=False))


def _same_text(recorded: str, replayed: str) -> bool:
    """The recorded observation is the replayed one, as runs write text: lone
    surrogates made valid, and a secret the writer redacted (its text is unknown
    here, so a redacted observation is taken as written)."""
    return recorded == replayed or recorded == valid_text(replayed) or REDACTED in recorded
