"""The two system prompts (the paper's Tables 5 and 6) and the opening messages.

Both prompts tell the agent how to call tools, that ``finish`` and ``abort`` end
the episode, and to feed earlier results into later calls. The opening system
message also states the world's current date and time: implicit faults include
stale timestamps, and an agent can only notice one if it knows what "now" is.

Each prompt comes in one wording per calling convention (:data:`CALLINGS`, like
BFCL's prompt vs FC modes): ``text``, where the model writes its calls as JSON (or in
``<tool_call>`` tags) that ToolMaze parses, and ``native``, where the tool schemas
travel in the request (an endpoint's ``tools``, MCP, OpenEnv) and the model calls
them through that interface; telling such a model to reply with JSON would contradict
the interface it was given. The advice is the same in both; only how to call differs.
The ``text`` wording is the one the paper's tables, the training data and ``play``
use, and it does not change.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from toolmaze_gym.tasks.model import Task

_CALL_FORMAT = (
    "To call a tool, reply with exactly one JSON object "
    '{"name": "<tool>", "arguments": {...}} (or inside <tool_call></tool_call> tags). '
    'When the task is complete, call {"name": "finish", "arguments": {"answer": "<summary>"}}, '
    "telling the user in the answer any values they asked to be told. "
    'If the task cannot be completed, call {"name": "abort", "arguments": {"reason": "<why>"}}.'
)

# The same endings for a model that calls tools through a tool-calling interface.
_NATIVE_CALLS = (
    "Call them through the tool-calling interface; each result comes back as the tool's "
    "response. "
    "When the task is complete, call the finish tool with your answer, telling the user in "
    "the answer any values they asked to be told. "
    "If the task cannot be completed, call the abort tool with the reason."
)

_CHAINING = "Use the results of earlier calls as inputs to later ones. "

_STANDARD_ADVICE = (
    "You are a helpful assistant that completes the user's request by calling the available "
    "tools. Call one tool at a time. " + _CHAINING
)

_FAILURE_AWARE_ADVICE = (
    "You are a careful assistant that completes the user's request by calling the available "
    "tools. Call one tool at a time. " + _CHAINING + "Tools can fail. Some failures are "
    "explicit (an HTTP error such as 429, 503, 504, 404, 410 or 403); others are silent: the "
    "response is well-formed but wrong (a value out of its documented range, a field that "
    "contradicts another, an answer about a different entity than you asked for, stale data). "
    "Check every response against the tool's documentation and the request before using it. "
    "Retry transient errors; if a tool keeps failing or returning bad data, switch to an "
    "alternative tool that provides the same information; if no alternative exists, stop with "
    "abort instead of passing on bad data or calling later tools. Avoid unnecessary calls. "
)

STANDARD = _STANDARD_ADVICE + _CALL_FORMAT
FAILURE_AWARE = _FAILURE_AWARE_ADVICE + _CALL_FORMAT

PROMPTS = {"standard": STANDARD, "failure_aware": FAILURE_AWARE}  # text tools
NATIVE_PROMPTS = {"standard": _STANDARD_ADVICE + _NATIVE_CALLS,
                  "failure_aware": _FAILURE_AWARE_ADVICE + _NATIVE_CALLS}
TEXT, NATIVE = "text", "native"
CALLINGS = (TEXT, NATIVE)  # how the model calls tools: written as text, or natively


def prompt_text(variant: str, calling: str = TEXT) -> str:
    """The prompt ``variant`` worded for the calling convention ``calling``."""
    if variant not in PROMPTS:
        raise ValueError(f"unknown prompt {variant!r}; choose from {', '.join(PROMPTS)}")
    return (PROMPTS if check_calling(calling) == TEXT else NATIVE_PROMPTS)[variant]


def check_calling(calling: str) -> str:
    """``calling`` if it is a calling convention, else a ValueError naming them."""
    if calling not in CALLINGS:
        raise ValueError(f"unknown calling convention {calling!r}; choose from "
                         f"{', '.join(CALLINGS)}")
    return calling


def system_prompt(variant: str, now: datetime | None = None, calling: str = TEXT) -> str:
    """The system prompt ``variant`` for the calling convention ``calling``, followed by
    the current date and time when given.

    ``now`` is the simulated world's clock (``World.now``, UTC), the same instant every
    tool response is stamped against; never the machine's clock.
    """
    text = prompt_text(variant, calling)
    if now is None:
        return text
    return f"{text}\n\n{_clock_line(now, now.tzinfo)}"


def clock_line(now: datetime) -> str:
    """How the prompt states the time: weekday, ISO 8601 in UTC, as tools report it."""
    return f"The current date and time is {now:%A} {now:%Y-%m-%dT%H:%M:%SZ} (UTC)."


@lru_cache(maxsize=64)
def _clock_line(now: datetime, tz: Any) -> str:
    """``clock_line``, once per clock: every reset states the world's one ``now``, and
    ``strftime`` was a fifth of a reset. Keyed with the zone as well, since equal
    instants in two zones compare equal but print differently."""
    return clock_line(now)


def opening_messages(task: Task, variant: str, now: datetime,
                     calling: str = TEXT) -> list[dict[str, Any]]:
    """The system prompt (with the world's ``now``, worded for ``calling``) and the
    user's request."""
    return [{"role": "system", "content": system_prompt(variant, now, calling)},
            {"role": "user", "content": task.query}]
