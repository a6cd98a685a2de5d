"""What the ToolMaze OpenEnv server returns besides OpenEnv's MCP types."""

from __future__ import annotations

from typing import Any

from openenv.core.env_server.types import Observation, State
from pydantic import Field


class ToolMazeObservation(Observation):
    """The opening of an episode (``reset``): the user's request, the world's clock,
    the system prompt, and the episode's tool schemas in OpenAI format (the task's
    tools, then ``finish`` and ``abort``; named ``tool_schemas`` because OpenEnv's
    MCP client reads any ``tools`` field as a tool listing)."""

    task_id: str = ""
    level: str = ""
    mode: str = ""
    prompt: str = ""
    request: str = ""
    clock: str = ""
    system_prompt: str = ""
    tool_schemas: list[dict[str, Any]] = Field(default_factory=list)
    error: dict[str, Any] | None = None  # a reset the server refused, in the env's shape


class ToolMazeState(State):
    """The session's episode: which task, how far, and the grade once it ended."""

    task_id: str | None = None
    level: str | None = None
    mode: str | None = None
    done: bool = False
    grade: dict[str, Any] | None = None
    reward: float | None = None
    # the grade, valid-call share and path progress, for a trainer's own reward weights
    reward_inputs: dict[str, Any] | None = None
