"""The agent interface shared by scripted policies and language models."""

from __future__ import annotations

from typing import Any, Protocol

from toolmaze_gym.tasks.model import Task


class Agent(Protocol):
    """Turns the conversation so far into the next raw action text."""

    name: str

    def reset(self, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        """Start an episode. Scripted agents read ``task`` (their plan); models read
        only the messages and ``tools`` (the OpenAI schemas)."""

    def act(self, messages: list[dict[str, Any]]) -> str:
        """The next action as raw text (a JSON tool call, finish/abort, or an answer)."""
