"""One ToolMaze episode per OpenEnv session.

OpenEnv's ``MCPEnvironment`` keeps one FastMCP tool catalogue per instance and lets
FastMCP check arguments; ToolMaze needs the task's own tools per episode and the env's
own answers to unknown tools and bad arguments (recorded steps, graded like any
agent's). So this is a plain ``Environment`` whose action is OpenEnv's MCP
``CallToolAction``, and its ``mcp_client`` (what OpenEnv's server asks of FastMCP's
client on ``/mcp``: ``is_connected``, ``list_tools``, ``call_tool``) is
:class:`EpisodeTools`, which answers from the episode. Both planes, ``/ws`` steps and
``/mcp`` JSON-RPC, play through the serving core (:mod:`toolmaze_gym.serving`), the same
as ``toolmaze serve``; a call's result has FastMCP's shape (``content``, ``data``,
``is_error``), which OpenEnv's ``MCPToolClient.call_tool`` reads. A session that closes
(the client hung up, OpenEnv reaped it idle) or resets with its episode unfinished has
that episode graded like a truncation and recorded with ``"cut": "closed"``, once it
made at least one call.

A step is a few hundred microseconds of pure Python that never waits, so both planes
run it on the server's event loop (``reset_async``/``step_async``, and ``tools/call``
awaited in place): OpenEnv would otherwise hand every message to a thread of its own
per session, and 32 such threads fight for the GIL with the loop that reads the
sockets, so throughput fell as sessions were added (issue 32). Creating and closing a
session (recording its episode) goes to one shared thread
(``REQUIRES_SINGLE_THREAD_EXECUTOR``) instead of a new thread per session.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ListToolsAction,
    ListToolsObservation,
    Tool,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import Observation
from toolmaze_gym.openenv.models import ToolMazeObservation, ToolMazeState

from toolmaze_gym.serving import ServeError, Session, SessionStore

NOT_STARTED = "no episode is running: call reset first"


class ToolMazeEnvironment(Environment):
    """See the module docstring. ``store`` (set on a subclass per app by
    :func:`toolmaze_gym.openenv.server.app.build_app`) holds the server's defaults,
    what its flags fix, and the recorder."""

    SUPPORTS_CONCURRENT_SESSIONS: ClassVar[bool] = True
    REQUIRES_SINGLE_THREAD_EXECUTOR: ClassVar[bool] = True  # see the module docstring
    store: ClassVar[SessionStore]

    def __init__(self) -> None:
        super().__init__()
        self.mcp_client = EpisodeTools(self)
        self._sid: str | None = None
        self._session: Session | None = None
        self._episode_id: str | None = None

    # -- Gym control ------------------------------------------------------------------

    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task_id: str | None = None, split: str | None = None, level: str | None = None,
              mode: str | None = None, prompt: str | None = None, task: Any = None,
              **kwargs: Any) -> ToolMazeObservation:
        """Start an episode: ``task_id``, or ``level`` with ``seed`` (and ``split``), or
        a whole ``task`` (JSON, e.g. a trainer's procedural task), under ``mode`` with
        ``prompt``; other keys are refused by name."""
        self._leave()
        if kwargs:
            return _refused(ServeError("bad_request", "unknown reset argument(s) "
                                       f"{', '.join(sorted(kwargs))}"))
        given = {"task_id": task_id, "split": split, "seed": seed, "level": level,
                 "mode": mode, "prompt": prompt, "task": task}
        try:
            self._sid, self._session = self.store.open(given)
        except ServeError as exc:
            return _refused(exc)
        self._episode_id = episode_id or str(uuid.uuid4())
        o = self._session.opening
        return ToolMazeObservation(
            task_id=o["task_id"], level=o["level"], mode=o["mode"], prompt=o["prompt"],
            request=o["request"], clock=o["clock"], system_prompt=o["system_prompt"],
            tool_schemas=o["tools"], done=False, reward=None)

    async def reset_async(self, seed: int | None = None, episode_id: str | None = None,
                          **kwargs: Any) -> ToolMazeObservation:
        """:meth:`reset` on the event loop (see the module docstring)."""
        return self.reset(seed=seed, episode_id=episode_id, **kwargs)

    async def step_async(self, action: Any, timeout_s: float | None = None,
                         **kwargs: Any) -> Observation:
        """:meth:`step` on the event loop (see the module docstring)."""
        return self.step(action, timeout_s, **kwargs)

    def step(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        if isinstance(action, ListToolsAction):
            return self._list_tools()
        if isinstance(action, CallToolAction):
            return self._call(action)
        return CallToolObservation(tool_name="", error=ToolError(
            error_type=ToolErrorType.INVALID_ARGS,
            message=f"unsupported action {type(action).__name__}: send list_tools or "
                    "call_tool"))

    @property
    def state(self) -> ToolMazeState:
        s = self._session
        if s is None:
            return ToolMazeState(episode_id=self._episode_id, step_count=0)
        ep = s.env.episode
        final = s.final or {}
        return ToolMazeState(episode_id=self._episode_id, step_count=len(ep.steps),
                             task_id=ep.task.id, level=ep.task.level, mode=ep.mode,
                             done=ep.done, grade=final.get("grade"),
                             reward=s.total_reward if ep.done else None,
                             reward_inputs=s.reward_inputs() if ep.done else None)

    def close(self) -> None:
        self._leave()

    # -- MCP tools --------------------------------------------------------------------

    def _list_tools(self) -> ListToolsObservation:
        if self._session is None:
            return ListToolsObservation(tools=[], metadata={"error": NOT_STARTED})
        return ListToolsObservation(tools=[
            Tool(name=t["function"]["name"], description=t["function"]["description"],
                 input_schema=t["function"]["parameters"]) for t in self._session.tools])

    def _call(self, action: CallToolAction) -> CallToolObservation:
        name = action.tool_name
        if self._session is None:
            return CallToolObservation(tool_name=name, error=ToolError(
                error_type=ToolErrorType.EXECUTION_ERROR, message=NOT_STARTED))
        try:
            out = self._control(action.arguments) if name == "" else \
                self._session.call(name, action.arguments)
        except ServeError as exc:  # done only when the episode is over: a refused reply
            return CallToolObservation(  # or cut leaves it running for the next step
                tool_name=name, done=self._session.done, error=ToolError(
                    error_type=ToolErrorType.EXECUTION_ERROR, message=str(exc)))
        failed = bool(out["status"] and out["status"] >= 400)
        metadata: dict[str, Any] = {"status": out["status"]}
        if out["done"]:
            metadata.update(grade=out["grade"], episode_reward=out["reward"])
        steps = self._session.env.episode.steps
        last = steps[-1] if steps and name else None
        return CallToolObservation(
            tool_name=name, done=out["done"],
            reward=out["reward"] if out["done"] else 0.0, metadata=metadata,
            result={"content": [{"type": "text", "text": out["content"]}],
                    "structured_content": None, "data": out["content"],
                    "is_error": failed, "fault": last.fault if last else None})

    def _control(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """A step that is no tool call (tool name ``""``): ``{"text": ...}`` is the
        agent's plain-text reply, ``{"cut": reason}`` ends the episode for the agent
        (a trainer's tool budget ran out). Never listed as a tool."""
        assert self._session is not None
        if set(arguments) == {"text"}:
            return self._session.reply(arguments["text"])
        if set(arguments) == {"cut"}:
            return self._session.cut(arguments["cut"])
        raise ServeError("bad_request", "a step without a tool name takes {\"text\": reply} "
                                        "or {\"cut\": reason}")

    def _leave(self) -> None:
        """Forget the session's episode; an unfinished one that made a call is ended
        and recorded (``cut: closed``)."""
        s, sid = self._session, self._sid
        self._session = self._sid = None
        if s is None or sid is None:
            return
        if not s.done and s.env.episode.steps:
            s.expire("closed")
        self.store.close(sid)


class EpisodeTools:
    """The episode's tools in the shape of the MCP client OpenEnv's server drives for
    ``/mcp`` (``tools/list``, ``tools/call``); see the module docstring. Failures are
    raised, which the server turns into a JSON-RPC error with the message."""

    def __init__(self, env: ToolMazeEnvironment) -> None:
        self.env = env

    def is_connected(self) -> bool:
        return True

    async def __aenter__(self) -> EpisodeTools:
        return self

    async def __aexit__(self, *_: Any) -> None:
        return None

    async def list_tools(self) -> list[dict[str, Any]]:
        listing = self.env._list_tools()
        if "error" in listing.metadata:
            raise RuntimeError(listing.metadata["error"])
        return [{"name": t.name, "description": t.description, "inputSchema": t.input_schema}
                for t in listing.tools]

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None
                        ) -> dict[str, Any]:
        if not isinstance(name, str):
            raise RuntimeError("params.name must be a string")
        obs = self.env._call(CallToolAction.model_construct(  # on the loop: see the module
            tool_name=name, arguments=arguments if arguments is not None else {}))
        if obs.error is not None:
            raise RuntimeError(obs.error.message)
        return {**obs.result, "done": obs.done, "reward": obs.reward, **obs.metadata}


def _refused(exc: ServeError) -> ToolMazeObservation:
    return ToolMazeObservation(done=True, error=exc.body(), metadata={"error": str(exc)})
