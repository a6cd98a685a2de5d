"""The MCP tool server of one rollout: one ToolMaze episode, its own tools only.

verifiers launches a task's toolsets once per rollout (``python -m`` this module) and
hands the server the rollout's task row; ``setup_task`` opens a
:class:`toolmaze_gym.serving.Session` for it, so no two rollouts share an episode.
``register`` advertises exactly the episode's tools (the corpus schemas of the task's
tools, then ``finish`` and ``abort``) under their bare names, and every call is passed to
the session with the model's arguments untouched: the SDK's own argument check would
turn the env's graded ``400``/``422`` bodies into SDK errors, so each tool is a
:class:`RawTool` that skips it. What comes back is the env's tool message text, byte for
byte: the clean response, the injected fault, or the env's own error body.

When the taskset is given server URLs, the task's ``setup`` names the rollout's server
in the row it hands over (``server``); the toolset then plays the episode there, as an
MCP client (:mod:`toolmaze_verifiers.remote`), and the server writes the record.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING, Any

import verifiers.v1 as vf
from mcp.server.mcpserver.tools.base import Tool
from mcp.types import CallToolResult, TextContent
from pydantic import Field

from toolmaze_gym.serving import Session
from toolmaze_verifiers.remote import RemoteEpisode
from toolmaze_verifiers.replay import choice_of, served_text

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


class RawTool(Tool):
    """An MCP tool with a given JSON schema whose arguments reach ``handler`` as sent."""

    handler: Any = Field(default=None, exclude=True)

    async def run(self, arguments: dict[str, Any], context: Any = None,
                  convert_result: bool = False) -> CallToolResult:
        return await self.handler(arguments)


def _placeholder() -> None:
    """Never called: :class:`RawTool` runs its handler instead."""


class ToolMazeToolset(vf.Toolset[vf.ToolsetConfig]):
    """See the module docstring."""

    TOOL_PREFIX = None  # the env's tool names, unprefixed, as every ToolMaze agent sees them

    def __init__(self, config: vf.ToolsetConfig) -> None:
        super().__init__(config)
        self.session: Session | None = None  # the episode in process
        self.remote: RemoteEpisode | None = None  # or on a ToolMaze server

    async def setup_task(self, task: Any) -> None:
        server = getattr(task, "server", None)
        if server:
            self.remote = await self._exit_stack.enter_async_context(
                RemoteEpisode(server, task))
        else:
            self.session = Session(choice_of(task), suite=task.suite)

    async def close(self) -> None:
        """End the remote session, if any (verifiers does it when the process stops)."""
        await self._exit_stack.aclose()

    def register(self, mcp: MCPServer) -> None:
        if self.session is None and self.remote is None:
            raise RuntimeError("ToolMazeToolset serves one task's episode: launch it per "
                               "rollout (Task.toolsets), not shared by a taskset")
        tools = self.remote.tools if self.remote is not None else self.session.tools
        for schema in tools:
            fn = schema["function"]
            tool = RawTool.from_function(_placeholder, name=fn["name"],
                                         description=fn.get("description", ""),
                                         structured_output=False)
            tool.parameters = fn["parameters"]
            tool.handler = self._caller(fn["name"])
            mcp._tool_manager._tools[tool.name] = tool  # mcp 2.0 has no raw-schema add_tool

    def _caller(self, name: str):
        async def call(arguments: dict[str, Any]) -> CallToolResult:
            if self.remote is not None:
                text, is_error = await self.remote.call(name, arguments)
            else:
                text, is_error = served_text(self.session, name, arguments)
            return CallToolResult(content=[TextContent(type="text", text=text)],
                                  is_error=is_error)
        return call


def exit_on_sigterm() -> None:
    """Make SIGTERM unwind the tool server instead of killing it on the spot.

    verifiers stops a rollout's tool server with SIGTERM; uvicorn shuts down gracefully,
    then raises the signal again under the handler it found, by default the one that
    kills at once, before the server's exit stack has closed: a remote episode's MCP
    session would stay open on the ToolMaze server until its idle timeout. Raising
    ``SystemExit`` there instead closes the session (the server records the episode as
    ``closed`` at once)."""
    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


if __name__ == "__main__":
    exit_on_sigterm()
    ToolMazeToolset.run()
