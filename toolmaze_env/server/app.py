"""The FastAPI app of the ToolMaze OpenEnv server (``openenv.yaml``: ``server.app:app``).

    uvicorn toolmaze_gym.openenv.server.app:app --host 127.0.0.1 --port 8000
    toolmaze serve --protocol openenv --out runs/x --port 8000     # the same, with flags

The module-level ``app`` is built on first access from environment variables:
``TOOLMAZE_OUT`` (run directory for the records, default ``runs/openenv``),
``TOOLMAZE_AGENT`` (the agent's name in them, default ``openenv``),
``TOOLMAZE_CALLING`` (the calling convention the system prompt is worded for, as
``toolmaze serve --calling``: ``native``, the default, or ``text``),
``MAX_CONCURRENT_ENVS`` (sessions at once, default 64) and
``TOOLMAZE_IDLE_TIMEOUT`` (seconds before OpenEnv reaps an idle session, default 300).
:func:`build_app` takes a :class:`~toolmaze_gym.serving.SessionStore` instead.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation
from openenv.core.env_server.types import ConcurrencyConfig
from toolmaze_gym.openenv.models import ToolMazeObservation, ToolMazeState
from toolmaze_gym.openenv.server.toolmaze_environment import ToolMazeEnvironment

from toolmaze_gym.prompts import NATIVE, check_calling
from toolmaze_gym.serving import ServeRecorder, SessionStore
from toolmaze_gym.serving.hosting import uvicorn_options
from toolmaze_gym.serving.limits import BodyLimits


def build_app(store: SessionStore) -> Any:
    """The OpenEnv app serving one episode per session from ``store``'s settings, with
    the serving limits on every endpoint (:mod:`toolmaze_gym.serving.limits`)."""
    env_cls = type("ToolMazeEnvironment", (ToolMazeEnvironment,), {"store": store})
    app = create_app(env_cls, CallToolAction, CallToolObservation, env_name="toolmaze_env",
                     concurrency_config=ConcurrencyConfig(
                         max_concurrent_envs=store.max_sessions,
                         session_timeout=store.idle_timeout),
                     state_cls=ToolMazeState, reset_observation_cls=ToolMazeObservation)
    app.add_middleware(BodyLimits)
    app.add_exception_handler(RequestValidationError, _invalid_body)

    async def record_open_episodes() -> None:  # the server stops: nothing with a call lost
        await asyncio.to_thread(store.shutdown)
        if store.recorder is not None:
            await asyncio.to_thread(store.recorder.flush)

    app.router.on_shutdown.append(record_open_episodes)
    return app


async def _invalid_body(_request: Any, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's 422, without the values that failed: it echoes them, and a value JSON
    cannot carry (``1e400`` reads as infinity) turned the answer into a 500."""
    return JSONResponse(status_code=422, content={"detail": [
        {"type": e.get("type"), "loc": list(e.get("loc", ())), "msg": e.get("msg")}
        for e in exc.errors()]})


def _from_environment() -> Any:
    out = os.environ.get("TOOLMAZE_OUT", "runs/openenv")
    calling = _calling(os.environ.get("TOOLMAZE_CALLING", NATIVE))
    recorder = ServeRecorder(out, os.environ.get("TOOLMAZE_AGENT", "openenv"),
                             server="openenv", convention=calling)
    return build_app(SessionStore(
        recorder, idle_timeout=float(os.environ.get("TOOLMAZE_IDLE_TIMEOUT", "300")),
        max_sessions=int(os.environ.get("MAX_CONCURRENT_ENVS", "64")), calling=calling))


def _calling(value: str) -> str:
    """``TOOLMAZE_CALLING`` checked before anything is written: an OpenEnv client gets
    the tools as schemas and calls them as actions, so ``native`` unless the client's
    model writes its calls as text."""
    try:
        return check_calling(value)
    except ValueError as exc:
        raise ValueError(f"TOOLMAZE_CALLING: {exc}") from None


def __getattr__(name: str) -> Any:
    if name == "app":  # built on first use: importing the module writes nothing
        globals()["app"] = _from_environment()
        return globals()["app"]
    raise AttributeError(name)


def main() -> None:
    """``python -m toolmaze_gym.openenv.server.app``: serve on 127.0.0.1:8000."""
    import uvicorn

    uvicorn.run(_from_environment(), host="127.0.0.1", port=int(os.environ.get("PORT", "8000")),
                **uvicorn_options())


if __name__ == "__main__":
    main()
