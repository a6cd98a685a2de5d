"""What a served client is told when its episode ends: the outcome, not the grade.

A chat client (Claude Desktop, Cursor, Claude Code) puts every tool result into the
model's context. The grade names what was expected (the values an Action should have
been sent with, the reference path), and a model that read it could replay the task
correctly next time or tell its user the graded answer. So the client hears only
whether the task succeeded and one line of why, built from the grade's labels and
ending, with no value of the episode in it; the records keep the full grade.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# why an episode failed, in the words of ``toolmaze play``'s label meanings, when the
# grade carries no label that says it (ordered: the first that applies is told)
_FAILED = (
    ("harmful", "an action changed the world that the request did not ask for"),
    ("missing", "an action the request asked for was not done as asked"),
    ("unanswered", "the answer did not tell the user what the request asked to be told"),
)


def outcome(grade: Mapping[str, Any]) -> dict[str, Any]:
    """What a client receives for ``grade``: ``success`` and a one-line ``reason``
    without the episode's values."""
    return {"episode": "ended", "success": bool(grade.get("success")),
            "reason": reason(grade)}


def reason(grade: Mapping[str, Any]) -> str:
    """One line on why the episode got its outcome, from its labels and ending only."""
    from toolmaze_gym.explain import LABEL_MEANINGS

    labels = [label for label in grade.get("labels") or () if label in LABEL_MEANINGS]
    if grade.get("success"):
        if "graceful_stop" in labels:
            return LABEL_MEANINGS["graceful_stop"]
        return "the request was done"
    if labels:
        return LABEL_MEANINGS[labels[0]]
    if not grade.get("ended_by"):  # the step limit, the client leaving, the server stopping
        return "the episode was cut off before finish or abort"
    for field, words in _FAILED:
        if grade.get(field):
            return words
    return "the request was not done"
