"""The two system prompts (the paper's Tables 5 and 6) and the opening messages.

Both prompts tell the agent how to call tools, that ``finish`` and ``abort`` end
the episode, and to feed earlier results into later calls. The opening system
message also states the world's current date and time: implicit faults include
stale timestamps, and an agent can only notice one if it knows what "now" is.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from toolmaze_gym.tasks.model import Task

_CALL_FORMAT = (
    "To call a tool, reply with exactly one JSON object "
    '{"name": "<tool>", "arguments": {...}} (or inside <tool_call></tool_call> tags). '
    'When the task is complete, call {"name": "finish", "arguments": {"answer": "<summary>"}}, '
    "telling the user in the answer any values they asked to be told. "
    'If the task cannot be completed, call {"name": "abort", "arguments": {"reason": "<why>"}}.'
)

_CHAINING = "Use the results of earlier calls as inputs to later ones. "

STANDARD = (
    "You are a helpful assistant that completes the user's request by calling the available "
    "tools. Call one tool at a time. " + _CHAINING + _CALL_FORMAT
)

FAILURE_AWARE = (
    "You are a careful assistant that completes the user's request by calling the available "
    "tools. Call one tool at a time. " + _CHAINING + "Tools can fail. Some failures are "
    "explicit (an HTTP error such as 429, 503, 504, 404, 410 or 403); others are silent: the "
    "response is well-formed but wrong (a value out of its documented range, a field that "
    "contradicts another, an answer about a different entity than you asked for, stale data). "
    "Check every response against the tool's documentation and the request before using it. "
    "Retry transient errors; if a tool keeps failing or returning bad data, switch to an "
    "alternative tool that provides the same information; if no alternative exists, stop with "
    "abort instead of passing on bad data or calling later tools. Avoid unnecessary calls. "
    + _CALL_FORMAT
)

PROMPTS = {"standard": STANDARD, "failure_aware": FAILURE_AWARE}


def system_prompt(variant: str, now: datetime | None = None) -> str:
    """The system prompt ``variant``, followed by the current date and time when given.

    ``now`` is the simulated world's clock (``World.now``, UTC), the same instant every
    tool response is stamped against; never the machine's clock.
    """
    if variant not in PROMPTS:
        raise ValueError(f"unknown prompt {variant!r}; choose from {', '.join(PROMPTS)}")
    if now is None:
        return PROMPTS[variant]
    return f"{PROMPTS[variant]}\n\n{clock_line(now)}"


def clock_line(now: datetime) -> str:
    """How the prompt states the time: weekday, ISO 8601 in UTC, as tools report it."""
    return f"The current date and time is {now:%A} {now:%Y-%m-%dT%H:%M:%SZ} (UTC)."


def opening_messages(task: Task, variant: str, now: datetime) -> list[dict[str, Any]]:
    """The system prompt (with the world's ``now``) and the user's request."""
    return [{"role": "system", "content": system_prompt(variant, now)},
            {"role": "user", "content": task.query}]
