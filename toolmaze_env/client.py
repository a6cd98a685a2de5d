"""The client of the ToolMaze OpenEnv server: OpenEnv's ``MCPToolClient`` with
ToolMaze's reset arguments spelled out and its state read in full. Like every OpenEnv
client it works in async code (``await env.reset(...)``) and in sync code.

Every client shares one TLS context: OpenEnv's client builds an ``httpx.AsyncClient``
per connection, and each built its own context, loading the CA bundle again (68 ms of
CPU each in the profile, more than a whole episode's calls), even for ``http://``
(issue 32: a trainer opens a client per rollout)."""

from __future__ import annotations

import functools
import ssl
from typing import Any

from openenv.core.mcp_client import MCPToolClient
from toolmaze_gym.openenv.models import ToolMazeState


class ToolMazeEnv(MCPToolClient):
    """Connects to a ToolMaze OpenEnv server (``base_url``); one episode per reset.

    ``reset(level="C2", mode="P2", seed=3)`` (or ``task_id=...``, ``split``,
    ``prompt``) returns a ``StepResult`` whose observation carries ``request``,
    ``clock``, ``system_prompt`` and ``tool_schemas`` (OpenAI format);
    ``list_tools()`` gives the episode's tools and ``call(name, arguments)`` (or
    OpenEnv's ``call_tool(name, **arguments)``) the env's tool message text, faults
    and the env's own errors included. Through
    ``step(CallToolAction(...))`` the call that ends the episode comes back with
    ``done``, the reward and ``metadata["grade"]``.
    """

    def reset(self, task_id: str | None = None, level: str | None = None,
              mode: str | None = None, seed: int | None = None, split: str | None = None,
              prompt: str | None = None, **kwargs: Any) -> Any:
        given = {"task_id": task_id, "level": level, "mode": mode, "seed": seed,
                 "split": split, "prompt": prompt, **kwargs}
        return self._dispatch(lambda: self._reset_async(
            **{k: v for k, v in given.items() if v is not None}))

    async def _reset_async(self, **kwargs: Any) -> Any:
        self._tools_cache = None  # every episode has its own tools
        return await super()._reset_async(**kwargs)

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> Any:
        """``call_tool`` with the arguments as one dict: ToolMaze has tools with a
        parameter called ``name``, which ``call_tool(name, **kwargs)`` cannot pass.
        Returns the env's tool message text; raises ``RuntimeError`` with the server's
        message for a call it refuses (e.g. after the episode ended)."""
        return self._dispatch(lambda: self._call_async(tool, arguments or {}))

    async def _call_async(self, tool: str, arguments: dict[str, Any]) -> Any:
        session_id = await self._ensure_production_session()
        data = await self._production_mcp_request(
            "tools/call", {"name": tool, "arguments": arguments, "session_id": session_id})
        if "error" in data:
            raise RuntimeError(f"Tool '{tool}' failed: {data['error'].get('message')}")
        return data["result"]["data"]

    def _parse_state(self, payload: dict[str, Any]) -> ToolMazeState:
        return ToolMazeState(**payload)

    async def _get_http_client(self) -> Any:
        """OpenEnv's HTTP client for ``/mcp``, on the shared TLS context."""
        if self._http_client is None:
            import httpx

            self._http_client = httpx.AsyncClient(headers=self._headers,
                                                  verify=_tls_context())
        return self._http_client


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The TLS context httpx would build (its defaults: certifi, or ``SSL_CERT_FILE`` /
    ``SSL_CERT_DIR``), built once per process."""
    import httpx

    return httpx.create_ssl_context()
