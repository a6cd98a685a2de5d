"""A real uvicorn server on 127.0.0.1 and a free port, started and stopped by a test."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(app: Any, port: int, **config: Any) -> Iterator[str]:
    """Run ``app`` under uvicorn in a thread for the ``with`` block; yields its base URL."""
    with serving_server(app, port, **config) as (url, _):
        yield url


@contextlib.contextmanager
def serving_server(app: Any, port: int, **config: Any) -> Iterator[tuple[str, Any]]:
    """As :func:`serving`, yielding the base URL and the ``uvicorn.Server`` (a test may
    stop it inside the block: set ``should_exit`` and join ``server.thread``)."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    server.thread = thread
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def kill_after_first_call(script: str, url: str, store: Any, seconds: float,
                          **popen: Any) -> None:
    """Run a client (``script``, given ``url``) that prints "called" after its first call,
    kill it there with its episode open, then wait up to ``seconds`` for the server to
    drop that episode and hand its record over (the caller asserts what is left): a
    store forgets a session before it records it, so its length alone says too early."""
    proc = subprocess.Popen([sys.executable, "-c", script, url], stdout=subprocess.PIPE,
                            text=True, **popen)
    try:
        assert proc.stdout.readline().strip() == "called"
        assert len(store) == 1
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + seconds
    while (len(store) or not store.recorder.written) and time.monotonic() < deadline:
        time.sleep(0.1)
