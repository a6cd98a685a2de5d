"""A rollout's episode played on a running ToolMaze MCP server (``toolmaze serve``).

With ``urls`` set, the rollout's tool server does not open an episode of its own: it is
an MCP client (the MCP SDK's streamable HTTP client) of the ToolMaze server it was
given, asking for the row's episode in the URL's query (``/mcp?task_id=..&mode=..``),
and passes each of the model's calls on. The server plays and grades the episode and
writes its record, as for any MCP client; the model sees what it would see in
process, byte for byte:

* the tools are the episode's own (``get_task`` is left out: the row already carries
  the request and the clock, as the env gives them);
* a call's text is the server's first content block, the env's tool message; the
  outcome block the server adds at the end is for chat clients and stays out;
* a call after the end is answered here with the in-process 409 body, never sent on:
  the server's own would tell the model to call ``get_task`` for a next task.

The server must play the row's episode: its opening (the resource
``toolmaze://episode``) is checked against the row's task, mode and prompt, so a
server started with another ``--suite`` or with fixed flags fails the rollout at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlencode

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from toolmaze_gym.serving import ServeError
from toolmaze_gym.serving.session import ENDED_MESSAGE

TASK_TOOL = "get_task"  # toolmaze_gym.serving.mcp_server.TASK_TOOL (mcp 1.x only there)
EPISODE_URI = "toolmaze://episode"
CONNECT_TIMEOUT_S = 30.0


class ServerUnreachable(ConnectionError):
    """A ToolMaze server that cannot be reached or will not play the row's episode
    (the message, one line, names it and says which)."""


def episode_url(server: str, data: Any) -> str:
    """The server's MCP endpoint with the row's episode as query parameters."""
    query = {"split": data.split, "seed": data.seed, "level": data.level,
             "mode": data.mode, "prompt": data.prompt_variant}
    if data.split == "suite":
        query["task_id"] = data.task_id
    return f"{server}/mcp?{urlencode(query)}"


def _one_line(exc: BaseException) -> str:
    """The innermost message of ``exc`` (task groups wrap the transport's error)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


def _ended(body: str) -> bool:
    """Whether an error body is the server's ``409 episode_ended``."""
    try:
        return json.loads(body)["error"]["type"] == "episode_ended"
    except (ValueError, TypeError, KeyError):
        return False


def check_opening(server: str, data: Any, opening: dict[str, Any]) -> None:
    """Refuse a server whose episode is not the row's (a server that ignores the
    query's choice would otherwise play, and record, another task)."""
    want = {"task_id": data.task_id, "mode": data.mode, "prompt": data.prompt_variant}
    got = {k: opening.get(k) for k in want}
    if got != want:
        raise ServerUnreachable(f"ToolMaze server {server} plays another episode ({got}) "
                                f"than the row ({want})")


class RemoteEpisode:
    """One rollout's MCP session on ``server``; ``async with`` opens and closes it (the
    close ends the session, so the server records an episode left unfinished)."""

    def __init__(self, server: str, data: Any) -> None:
        self.server, self.data = server, data
        self.tools: list[dict[str, Any]] = []  # OpenAI-format, as Session.tools
        self.done = False
        self._stack = contextlib.AsyncExitStack()
        self._mcp: ClientSession | None = None

    async def __aenter__(self) -> RemoteEpisode:
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                await self._open()
        except BaseException as exc:
            # a failed connection cancels the handshake (a CancelledError here); the
            # transport's own error surfaces as the client's task group closes
            cause = await self._close_quietly()
            if isinstance(exc, ServerUnreachable):
                raise
            if isinstance(exc, MCPError):  # it answered, with an error: no such episode here
                raise ServerUnreachable(f"ToolMaze server {self.server} refused the episode: "
                                        f"{_one_line(exc)}") from None
            if cause is None and not isinstance(exc, Exception):
                raise  # a cancellation from outside, not the server's doing
            raise ServerUnreachable(f"ToolMaze server {self.server} is unreachable: "
                                    f"{_one_line(cause or exc)}") from None
        return self

    async def _close_quietly(self) -> BaseException | None:
        """Close what was opened; the error closing raised, if any."""
        try:
            await self._stack.aclose()
        except Exception as exc:
            return exc
        return None

    async def __aexit__(self, *exc: Any) -> None:
        await self._stack.aclose()

    async def _open(self) -> None:
        read, write = await self._stack.enter_async_context(
            streamable_http_client(episode_url(self.server, self.data)))
        self._mcp = await self._stack.enter_async_context(ClientSession(read, write))
        await self._mcp.initialize()
        check_opening(self.server, self.data, json.loads(
            (await self._mcp.read_resource(EPISODE_URI)).contents[0].text))
        listed = (await self._mcp.list_tools()).tools
        self.tools = [{"type": "function", "function": {
            "name": t.name, "description": t.description or "",
            "parameters": t.input_schema}} for t in listed if t.name != TASK_TOOL]

    async def call(self, name: str, arguments: Any) -> tuple[str, bool]:
        """The text the model receives for one call and whether it is an error body."""
        if self.done:
            return json.dumps(ServeError("episode_ended", ENDED_MESSAGE).body()), True
        result = await self._mcp.call_tool(name, arguments)
        blocks = result.content
        body = blocks[0].text if blocks else ""
        if len(blocks) > 1 or (result.is_error and _ended(body)):  # the outcome block
            self.done = True
        return body, bool(result.is_error)
