"""The two system prompts (the paper's Tables 5 and 6) and the opening messages."""

from __future__ import annotations

from typing import Any

from toolmaze_gym.tasks.model import Task

_CALL_FORMAT = (
    "To call a tool, reply with exactly one JSON object "
    '{"name": "<tool>", "arguments": {...}} (or inside <tool_call></tool_call> tags). '
    'When the task is complete, call {"name": "finish", "arguments": {"answer": "<summary>"}}. '
    'If the task cannot be completed, call {"name": "abort", "arguments": {"reason": "<why>"}}.'
)

STANDARD = (
    "You are a helpful assistant that completes the user's request by calling the available "
    "tools. Call one tool at a time and use the results of earlier calls as inputs to later "
    "ones. " + _CALL_FORMAT
)

FAILURE_AWARE = (
    "You are a careful assistant that completes the user's request by calling the available "
    "tools. Tools can fail. Some failures are explicit (an HTTP error such as 429, 503, 504, "
    "404, 410 or 403); others are silent: the response is well-formed but wrong (a value out "
    "of its documented range, a field that contradicts another, an answer about a different "
    "entity than you asked for, stale data). Check every response against the tool's "
    "documentation and the request before using it. Retry transient errors; if a tool keeps "
    "failing or returning bad data, switch to an alternative tool that provides the same "
    "information; if no alternative exists, stop with abort instead of passing on bad data or "
    "calling later tools. Avoid unnecessary calls. " + _CALL_FORMAT
)

PROMPTS = {"standard": STANDARD, "failure_aware": FAILURE_AWARE}


def system_prompt(variant: str) -> str:
    if variant not in PROMPTS:
        raise ValueError(f"unknown prompt {variant!r}; choose from {', '.join(PROMPTS)}")
    return PROMPTS[variant]


def opening_messages(task: Task, variant: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": system_prompt(variant)},
            {"role": "user", "content": task.query}]
