"""Grading a verifiers trace with ToolMaze's grader, by replaying it through a fresh episode.

The tool server of a rollout ran one ToolMaze episode live, but an episode can also end
with the model's plain-text reply, which no tool server sees. So the score is computed
from the trace itself: every tool call the model made (and its final reply, if it ended
without ``finish``/``abort``) is played again, in order, through a new
:class:`toolmaze_gym.serving.Session` of the same episode. Episodes are deterministic, so
the replay meets the same responses and faults the model met; ``replay_match`` says
whether it did, message by message.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from verifiers.v1.types import content_text

from toolmaze_gym.serving import EpisodeChoice, ServeError, Session

ENDING_TOOLS = ("finish", "abort")
CUT_REASON = "the rollout ended before finish or abort"


def choice_of(data: Any) -> EpisodeChoice:
    """The episode a task row names (``ToolMazeData`` or its wire form)."""
    return EpisodeChoice(task_id=data.task_id if data.split == "suite" else None,
                         split=data.split, seed=data.seed, level=data.level, mode=data.mode,
                         prompt=data.prompt_variant).checked()


def arguments_of(raw: str) -> Any:
    """A call's arguments as the model wrote them: an object when they parse, else the
    raw text, so that the env answers a broken call with its own 400."""
    try:
        return json.loads(raw) if raw.strip() else {}
    except (json.JSONDecodeError, RecursionError):
        return raw


def served_text(session: Session, name: str, arguments: Any) -> tuple[str, bool]:
    """One call through ``session``: the text the model receives and whether it is an
    error body. A call after the end gets the serving layer's 409 body."""
    try:
        out = session.call(name, arguments)
    except ServeError as exc:
        return json.dumps(exc.body()), True
    status = out.get("status")
    return out["content"], bool(status and status >= 400)


def replay(data: Any, messages: Iterable[Any], max_steps: int = 25) -> dict[str, Any]:
    """The grade, reward and match of the episode ``messages`` played on ``data``.

    ``messages`` are verifiers messages (``role``, ``content``, ``tool_calls``, and a
    ``tool_call_id`` on tool results). The episode ends where the env ends it (an ending
    call, prose, the step limit); if the model stopped before that, it is cut and graded
    like a truncation, as the env's runner does.
    """
    session = Session(choice_of(data), suite=data.suite, max_steps=max_steps)
    seen = {m.tool_call_id: content_text(m.content) for m in messages if m.role == "tool"}
    checked = matched = 0
    for message in messages:
        if message.role != "assistant" or session.done:
            continue
        for call in message.tool_calls or ():
            if session.done:
                break
            text, _ = served_text(session, call.name, arguments_of(call.arguments))
            if call.id in seen:
                checked += 1
                matched += seen[call.id] == text
        if not message.tool_calls and (message.content or "").strip() and not session.done:
            session.reply(message.content)
    if not session.done:
        session.cut(CUT_REASON)
    grade = session.final["grade"]
    return {"task_id": session.opening["task_id"], "grade": grade,
            "reward": session.total_reward, "steps": len(session.env.episode.steps),
            "replay_match": float(matched == checked)}

