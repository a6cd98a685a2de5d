"""``toolmaze serve``: the ToolMaze tool plane for any MCP client.

Each MCP session plays episodes (:mod:`toolmaze_gym.serving.store`). Its tools are
``get_task`` (listed first, to be called first) and the task's tools plus ``finish``
and ``abort``, with the corpus schemas; a task tool's call returns the env's tool
message text, faults included, and ``isError`` is set when that body is an HTTP-style
error (a fault's 503 or the env's own 404/400/422), as a real API behind MCP would set
it. The MCP SDK's own argument check is off: bad arguments must reach the env, which
answers them as it answers any agent.

Chat clients (Claude Desktop, Cursor, Claude Code) and agent SDKs show the model the
tools, their results and the prompts a user inserts, never the server's description
or instructions. So the request and the world's clock (needed to tell stale data)
come through MCP itself: the tool ``get_task`` (for clients that show only tools) and
the prompt ``task``; the resource ``toolmaze://episode`` holds them as JSON for
programs. Calling ``get_task`` is no step of the episode.

When the episode ends, the call's result carries a second text block with the
outcome only (success and a one-line reason, :mod:`toolmaze_gym.serving.outcome`):
the grade names the expected values, and whatever a client receives lands in the
model's context. The full grade goes to the records. ``get_task`` (or the ``task``
prompt) after the end starts the next episode in the same session, the level's next
task unless the session's choice names one, and the server tells the client that its
tool list changed.

A session's running episode ends when the agent ends it, when the client closes the
session (DELETE; stdio: end of input), when the server stops, or after
``idle_timeout``; it is recorded then if the agent made a call
(:mod:`toolmaze_gym.serving.store`).

The client chooses its episodes with query parameters on the server URL
(``/mcp?level=C2&mode=P2&seed=3``, or ``task_id=...``, ``split``, ``prompt``); what
the server's flags fix cannot be changed; stdio takes the flags' choice. Streamable
HTTP serves many sessions at once on 127.0.0.1; stdio serves one.

Every handler runs the session's work (opening an episode, a call, its grading and
record) on the event loop itself: it is a few hundred microseconds of pure Python that
never waits, and a hop to a worker thread per request cost more than the step and made
the threads fight the loop for the GIL (issue 32). Only the periodic reaping and the
shutdown go to a thread. A request is answered as one JSON body (the SDK's
``json_response``), which every MCP client accepts: an event stream per request, with
its tasks and memory streams, cost the server more than the step did (issue 32);
notifications (the tool list changed) still reach the client on its GET stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from toolmaze_gym.serving.limits import MAX_BODY_BYTES, BodyLimits
from toolmaze_gym.serving.outcome import outcome
from toolmaze_gym.serving.session import CHOICE_KEYS, ServeError, Session
from toolmaze_gym.serving.store import SessionStore

EPISODE_URI = "toolmaze://episode"
TASK_TOOL = "get_task"
TASK_TOOL_DESCRIPTION = (
    "Call this first, before any other tool: returns the user's request for this "
    "episode, the world's current date and time (now, UTC: tool data older than it may "
    "be stale) and the instructions. After an episode ends (finish or abort), call it "
    "again for the next task.")
INSTRUCTIONS = (
    "ToolMaze: a task that needs a chain of tool calls, some of which fail on purpose "
    f"(loudly with an error, or silently with wrong data). Call '{TASK_TOOL}' first (or "
    "insert the prompt 'task') for the user's request and the world's clock, call the "
    "tools one at a time, and end with 'finish' (answer) or 'abort' (reason). The last "
    f"result says whether the task succeeded; '{TASK_TOOL}' then starts the next task.")
ENDED_HINT = f"the episode has ended; call {TASK_TOOL} for the next task"
STDIO_SESSION = "stdio"


def task_view(session: Session) -> dict[str, Any]:
    """What the model is told of its episode: what ``toolmaze eval`` puts in its
    context (the system prompt with the clock, the request), nothing of the task's
    id, level or fault mode."""
    o = session.opening
    return {"request": o["request"], "now": o["clock"], "instructions": o["system_prompt"]}


def build_server(store: SessionStore) -> Any:
    """The MCP server (SDK low-level ``Server``) over ``store``."""
    import mcp.types as types
    from mcp.server.lowlevel import NotificationOptions, Server

    class _ListChangingServer(Server):
        """Announces ``tools.listChanged``: a session's next episode has other tools."""

        _options: Any = None

        def create_initialization_options(self, notification_options: Any = None,
                                          experimental_capabilities: Any = None) -> Any:
            """The same options for every session, built once: the SDK builds them per
            session, reading the ``mcp`` package's version from its metadata on disk
            each time (1.3 ms a session in the profile, issue 32)."""
            if notification_options is not None or experimental_capabilities is not None:
                return super().create_initialization_options(
                    notification_options or NotificationOptions(tools_changed=True),
                    experimental_capabilities)
            if self._options is None:
                self._options = super().create_initialization_options(
                    NotificationOptions(tools_changed=True))
            return self._options

        async def _get_cached_tool_definition(self, tool_name: str) -> Any:
            """None: no check to run (input checks are off, no tool has an output
            schema). The SDK's tool cache is one per server and a session's tools are
            its episode's, so with sessions at once it missed on nearly every call and
            listed the caller's tools again first (issue 32)."""
            return None

    server: Any = _ListChangingServer("toolmaze", instructions=INSTRUCTIONS)

    def identity() -> tuple[str, dict[str, str]]:
        ctx = server.request_context
        request = ctx.request
        if request is None:  # stdio: one client, the flags' episodes
            return STDIO_SESSION, {}
        sid = request.headers.get("mcp-session-id") or str(id(ctx.session))
        given = {k: v for k, v in request.query_params.items() if k in CHOICE_KEYS}
        unknown = sorted(set(request.query_params) - set(CHOICE_KEYS))
        if unknown:
            raise ServeError("bad_request", f"unknown episode option(s) {', '.join(unknown)}; "
                                            f"use {', '.join(CHOICE_KEYS)}")
        return sid, given

    def session() -> Session:
        return store.get_or_open(*identity())

    async def current_or_next() -> Session:
        """The running episode, or the next one if it has ended (the client is told
        that the tool list changed: the next task has other tools)."""
        s, new = store.renew(*identity())
        if new:
            with contextlib.suppress(Exception):  # a client that cannot take it
                await server.request_context.session.send_tool_list_changed()
        return s

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        s = session()
        return [types.Tool(name=TASK_TOOL, description=TASK_TOOL_DESCRIPTION,
                           inputSchema={"type": "object", "properties": {}})] + [
            types.Tool(name=t["function"]["name"], description=t["function"]["description"],
                       inputSchema=t["function"]["parameters"]) for t in s.tools]

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        try:
            if name == TASK_TOOL:
                s = await current_or_next()
                return types.CallToolResult(content=[types.TextContent(
                    type="text", text=json.dumps(task_view(s), ensure_ascii=False))])
            out = session().call(name, arguments)
        except ServeError as exc:
            if exc.kind == "episode_ended":
                exc = ServeError(exc.kind, ENDED_HINT)
            return types.CallToolResult(content=[types.TextContent(
                type="text", text=json.dumps(exc.body()))], isError=True)
        blocks = [types.TextContent(type="text", text=out["content"])]
        if out["done"]:  # the outcome only: the grade, with its expected values, is recorded
            blocks.append(types.TextContent(type="text", text=json.dumps(
                {**outcome(out["grade"]), "next": f"call {TASK_TOOL} for the next task"})))
        return types.CallToolResult(content=blocks,
                                    isError=bool(out["status"] and out["status"] >= 400))

    @server.list_prompts()
    async def list_prompts() -> list[types.Prompt]:
        return [types.Prompt(name="task", description="This episode's instructions (with "
                             "the world's clock) and the user's request, to start with")]

    @server.get_prompt()
    async def get_prompt(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
        if name != "task":
            raise ValueError(f"unknown prompt {name!r}; the only prompt is 'task'")
        view = task_view(await current_or_next())
        return types.GetPromptResult(description="ToolMaze: the episode's instructions and "
                                     "the user's request", messages=[
            types.PromptMessage(role="user", content=types.TextContent(
                type="text", text=view["instructions"])),
            types.PromptMessage(role="user", content=types.TextContent(
                type="text", text=view["request"]))])

    @server.list_resources()
    async def list_resources() -> list[types.Resource]:
        return [types.Resource(uri=EPISODE_URI, name="episode", mimeType="application/json",
                               description="This session's task id, level, mode, request, "
                                           "clock and system prompt")]

    @server.read_resource()
    async def read_resource(uri: Any) -> str:
        if str(uri) != EPISODE_URI:
            raise ValueError(f"unknown resource {uri}; the only resource is {EPISODE_URI}")
        s = session()
        return json.dumps({k: v for k, v in s.opening.items() if k != "tools"})

    return server


async def _reap(store: SessionStore, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        await asyncio.to_thread(store.expire)


class _QuietHangUp(logging.Filter):
    """The SDK logs a traceback when a client hangs up its event stream: a client
    leaving, not a server fault."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "standalone SSE writer" not in record.getMessage()


def http_app(store: SessionStore, port: int) -> Any:
    """A Starlette app serving the MCP endpoint at ``/mcp`` (streamable HTTP) for
    clients on this machine; idle episodes are reaped while it runs."""
    logger = logging.getLogger("mcp.server.streamable_http")
    if not any(isinstance(f, _QuietHangUp) for f in logger.filters):
        logger.addFilter(_QuietHangUp())
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    manager = StreamableHTTPSessionManager(
        build_server(store), session_idle_timeout=store.idle_timeout,
        max_request_body_size=MAX_BODY_BYTES, max_sessions=store.max_sessions,
        json_response=True,
        security_settings=TransportSecuritySettings(
            allowed_hosts=[f"127.0.0.1:{port}", f"localhost:{port}"],
            allowed_origins=[f"http://127.0.0.1:{port}", f"http://localhost:{port}"]))

    @contextlib.asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        reaper = asyncio.create_task(_reap(store, min(store.idle_timeout / 4, 5.0)))
        try:
            async with manager.run():
                yield
        finally:
            reaper.cancel()
            await asyncio.to_thread(store.shutdown)  # open episodes that made a call

    class Endpoint:  # an ASGI callable, so Route neither wraps it nor redirects /mcp
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)
            if scope["method"] == "DELETE":  # the client ended its MCP session
                sid = dict(scope["headers"]).get(b"mcp-session-id", b"").decode("latin-1")
                store.end(sid, "closed")

    return Starlette(routes=[Route("/mcp", endpoint=Endpoint())], lifespan=lifespan,
                     middleware=[Middleware(BodyLimits)])


async def run_stdio(store: SessionStore) -> None:
    """Serve one client over stdin/stdout: episodes one after another."""
    from mcp.server.stdio import stdio_server

    server = build_server(store)
    try:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:  # the client closed stdin (or the server is stopping)
        store.end(STDIO_SESSION, "closed")
