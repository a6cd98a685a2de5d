"""``toolmaze serve``: ToolMaze episodes for agents that speak MCP (or OpenEnv).

    toolmaze serve --out runs/my-agent --agent my-agent            # MCP, streamable HTTP
    toolmaze serve --out runs/x --level C2 --mode P2 --transport stdio
    toolmaze serve --protocol openenv --out runs/x --port 8000     # OpenEnv (reset/step/mcp)

Each client session plays one episode at a time (MCP: ``get_task`` after an episode
ends starts the next, so a chat client's one long session, or stdio's, walks the
level); values given as flags are fixed for every session, the others a client may
choose (MCP: query parameters of the URL, OpenEnv: reset's arguments). An MCP client
hears only each episode's outcome. Graded records go to ``--out`` as ``toolmaze eval``
writes them, so ``toolmaze report DIR`` shows a served agent beside the built-in ones.
Ctrl-C or SIGTERM stops the server (exit status 0) after recording every open episode
that made a call.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import textwrap
import threading
from collections.abc import Callable, Iterator
from typing import Any

from toolmaze_gym.cli.common import UsageError, output_dir, port_number, positive

# seconds a stopping server waits for open requests (a client's event stream) before
# it ends their sessions itself
GRACE_S = 5
CHOICE_FLAGS = {"task": "task_id", "split": "split", "seed": "seed", "level": "level",
                "mode": "mode", "prompt": "prompt"}


def _store(ns: argparse.Namespace) -> Any:
    from toolmaze_gym.serving import SessionStore

    recorder, base, fixed = _run(ns)
    return SessionStore(recorder, ns.suite, base, fixed, ns.idle_timeout,
                        ns.max_sessions, ns.max_steps, calling=ns.calling)


def _run(ns: argparse.Namespace) -> tuple[Any, Any, frozenset[str]]:
    """The run's recorder, the flags' episode choice and the keys the flags fix."""
    from toolmaze_gym.serving import EpisodeChoice, ServeError, ServeRecorder

    given = {key: getattr(ns, flag) for flag, key in CHOICE_FLAGS.items()
             if getattr(ns, flag) is not None}
    calling = ns.calling  # the tools travel as schemas unless --calling text
    try:
        base = EpisodeChoice.from_mapping(given)
        if base.task_id is not None:  # a bad id is the user's mistake now, not a client's
            from toolmaze_gym.serving import Session

            Session(base, ns.suite, ns.max_steps)
        recorder = ServeRecorder(output_dir(ns.out), ns.agent, ns.suite, ns.protocol, calling)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    return recorder, base, frozenset(given)


def cmd_serve(ns: argparse.Namespace) -> int:
    from toolmaze_gym.optional import require_all

    positive(ns.max_sessions, "--max-sessions")
    positive(ns.workers, "--workers")
    positive(ns.max_steps, "--max-steps")
    if ns.idle_timeout <= 0:
        raise UsageError(f"--idle-timeout must be a positive number (got {ns.idle_timeout})")
    if ns.host not in ("127.0.0.1", "localhost", "::1"):
        raise UsageError(f"--host {ns.host}: toolmaze serve listens on this machine only "
                         "(127.0.0.1, localhost or ::1)")
    if ns.protocol == "openenv" and ns.transport != "http":
        raise UsageError("--protocol openenv serves over HTTP and WebSocket; drop --transport")
    if ns.protocol == "mcp" and ns.calling != "native":
        raise UsageError(f"--calling {ns.calling} applies to --protocol openenv only: an MCP "
                         "client gives its model the tools as schemas")
    modules = ("mcp", "uvicorn") if ns.protocol == "mcp" else ("openenv", "uvicorn")
    require_all(modules[:1] if ns.transport == "stdio" else modules, "toolmaze serve")
    if ns.workers > 1:
        return _serve_workers(ns)
    store = _store(ns)
    stop_on_sigterm()
    try:
        if ns.transport == "stdio":
            from toolmaze_gym.serving.mcp_server import run_stdio

            with contextlib.suppress(KeyboardInterrupt):  # a stop, not a failure
                asyncio.run(run_stdio(store))
            return 0
        return serve_http(ns, store)
    finally:
        store.shutdown()  # every open episode that made a call, recorded before exit
        store.recorder.close()


def _serve_workers(ns: argparse.Namespace) -> int:
    """``--workers N``: N server processes, one run directory (serving.workers)."""
    from toolmaze_gym.serving.workers import serve_workers

    if ns.transport == "stdio":
        raise UsageError("--workers serves over HTTP; stdio has one client (drop --workers)")
    if ns.port and ns.port + ns.workers - 1 > 65535:
        raise UsageError(f"--workers {ns.workers} from --port {ns.port} runs past port 65535")
    recorder, base, fixed = _run(ns)
    stop_on_sigterm()
    try:
        return serve_workers(ns, recorder, base, fixed)
    except RuntimeError as exc:
        raise UsageError(f"cannot serve: {exc}") from None
    finally:
        recorder.close()


def stop_on_sigterm() -> None:
    """SIGTERM stops the server as Ctrl-C does (uvicorn shuts down gracefully on both,
    then raises the signal again): without this the second SIGTERM would kill the
    process before the open episodes are recorded and the records flushed."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.default_int_handler)


def _listen(host: str, port: int) -> socket.socket:
    """Bind and listen before the announcement, so a client that reads "on http://…"
    and connects at once finds the port open (uvicorn would bind only after starting)."""
    listening = socket.create_server((host, port), backlog=2048)
    listening.set_inheritable(True)
    return listening


@contextlib.contextmanager
def _stop_flag(server: Any) -> Iterator[None]:
    """Ctrl-C or SIGTERM at any moment, even before uvicorn takes the signals over (a
    client may stop the server the instant it is announced), asks it to stop cleanly
    instead of raising KeyboardInterrupt into the event loop's own start-up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    from toolmaze_gym.serving.hosting import on_stop_signals

    def stop() -> None:
        server.should_exit = True

    with on_stop_signals(stop):
        yield


def _worker_server(config: Any) -> Any:
    """A worker's uvicorn server, for which every stop signal asks the same graceful
    stop. uvicorn forces an exit on a SIGINT that comes after another stop signal,
    skipping the app's lifespan shutdown (which then dies with a CancelledError
    traceback); a terminal's Ctrl-C reaches a worker twice, itself and as its parent's
    SIGTERM. Forcing a worker that hangs is the parent's call (``workers.STOP_S``)."""
    import uvicorn

    class WorkerServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            self.force_exit = False

    return WorkerServer(config)


def serve_http(ns: argparse.Namespace, store: Any,
               announce: Callable[[str], None] | None = None) -> int:
    """Serve ``store`` over HTTP until stopped; ``announce(url)`` replaces the banner
    (a worker tells its parent, :mod:`toolmaze_gym.serving.workers`)."""
    import sys

    import uvicorn

    from toolmaze_gym.serving.hosting import uvicorn_options

    try:
        listening = _listen(ns.host, ns.port)
    except OSError as exc:
        raise UsageError(f"cannot serve on {ns.host}:{ns.port}: {exc}") from None
    port = listening.getsockname()[1]  # --port 0: the port the system chose
    if ns.protocol == "mcp":
        from toolmaze_gym.serving.mcp_server import http_app

        app, where = http_app(store, port), f"http://{ns.host}:{port}/mcp"
    else:
        from toolmaze_gym.openenv.server.app import build_app

        app, where = build_app(store), f"http://{ns.host}:{port} (OpenEnv: /ws, /mcp)"
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=GRACE_S,
                            **uvicorn_options())
    server = uvicorn.Server(config) if announce is None else _worker_server(config)
    with _stop_flag(server), contextlib.closing(listening):
        if announce is not None:
            announce(f"http://{ns.host}:{port}")
        else:
            print(f"toolmaze serve: {ns.protocol} on {where}; records to {ns.out} "
                  "(Ctrl-C stops)", file=sys.stderr)
        server.run(sockets=[listening])
    if not (server.started or server.should_exit):
        raise UsageError(f"cannot serve on {ns.host}:{ns.port}: the app did not start")
    store.shutdown()  # before the count: whatever the app's own shutdown left open
    if announce is None:
        print(f"toolmaze serve: {store.recorder.written} episodes recorded in {ns.out}",
              file=sys.stderr)
    return 0


def add_commands(sub) -> None:
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.prompts import CALLINGS, NATIVE, PROMPTS
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import SPLITS, SUITE_NAME

    p = sub.add_parser("serve", help="serve episodes to MCP clients (or as an OpenEnv "
                       "environment), writing graded records")
    p.description = textwrap.fill(
        "Serve ToolMaze episodes to any MCP client (or as an OpenEnv environment): each "
        "session plays one episode at a time, its tools are get_task (call it first: the "
        "request and the world's clock; after an episode ends it starts the next task) "
        "plus the task's tools, finish and abort; faults reach the client as the env "
        "returns them; the client is told only whether the task succeeded and why in "
        "one line, and every ended episode is graded and written to --out like a "
        "`toolmaze eval` run. Claude Desktop, Cursor and Claude Code launch it with "
        "--transport stdio (see README). Flags given below are "
        "fixed for every session; the rest a client may choose (MCP: URL query "
        "parameters task_id, level, mode, seed, split, prompt; OpenEnv: reset's "
        "arguments). A session in which the agent made a call is recorded however it "
        "ends: finish/abort, the client closing it (cut 'closed'), the idle timeout "
        "(cut 'idle'), or the server stopping on Ctrl-C or SIGTERM (cut 'shutdown'); a "
        "session that made no call is never recorded. Exit status: 0 when stopped, 2 for "
        "a usage error (one line).")
    p.add_argument("--out", required=True, metavar="DIR", help="run directory for the "
                   "records (created; a directory of an earlier serve of the same --agent "
                   "is appended to)")
    p.add_argument("--agent", default="served", help="the agent's name in records and "
                   "reports")
    p.add_argument("--protocol", choices=("mcp", "openenv"), default="mcp",
                   help="MCP tools only, or the OpenEnv environment (reset/step/state over "
                   "/ws plus MCP tools)")
    p.add_argument("--calling", choices=CALLINGS, default=NATIVE,
                   help="the calling convention the system prompt is worded for, recorded "
                   "as the run's convention: native (the model gets the tools as schemas "
                   "and calls them, as MCP and OpenEnv carry them) or, with --protocol "
                   "openenv, text (the model writes its calls as JSON or in <tool_call> "
                   "tags that the client parses, as the GRPO rows' prompt says; default: "
                   "native)")
    p.add_argument("--transport", choices=("http", "stdio"), default="http",
                   help="MCP over streamable HTTP (many sessions) or stdio (one, as "
                   "Claude Desktop, Cursor and Claude Code launch it)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (this "
                   "machine only)")
    p.add_argument("--port", type=port_number, default=8765, help="port to listen on "
                   "(0-65535; 0: any free port)")
    p.add_argument("--task", metavar="ID", help="fix the task of every session (default: "
                   "the client's choice, else --level's tasks in turn)")
    p.add_argument("--level", choices=LEVELS, help="fix the level (default: the client's "
                   "choice, else C1)")
    p.add_argument("--mode", type=str.upper, help="fix the perturbation mode, NP/P0..P4 "
                   f"({', '.join(MODE_NAMES)}; default: the client's choice, else P0)")
    p.add_argument("--seed", type=int, help="fix the task as reset(seed=N) picks it "
                   "(default: the client's choice, else the next task for each episode, "
                   "starting with the first that --out holds no episode of)")
    p.add_argument("--split", choices=("suite", *SPLITS), help="fix the task source: the "
                   "reference suite or a procedural split (default: the client's choice, "
                   "else suite)")
    p.add_argument("--prompt", choices=list(PROMPTS), help="fix the system prompt "
                   "(failure_aware applies to P1-P4; default: the client's choice, else "
                   "standard)")
    p.add_argument("--suite", default=SUITE_NAME, help="shipped task suite")
    p.add_argument("--max-steps", type=int, default=25, help="actions before an episode "
                   "is cut off")
    p.add_argument("--idle-timeout", type=float, default=300.0, help="seconds a session "
                   "may stay idle before its episode is ended (graded, recorded as cut "
                   "'idle' if it made a call) and forgotten")
    p.add_argument("--max-sessions", type=int, default=256, help="sessions held at once "
                   "(per worker)")
    p.add_argument("--workers", type=int, default=1, help="server processes, on ports "
                   "--port, --port+1, ... (any free ports for --port 0), each holding the "
                   "sessions it opened, all recording to --out; give a trainer every "
                   "worker's URL (default 1)")
    p.set_defaults(func=cmd_serve)
