"""A scriptable chat-completions stub on 127.0.0.1 (``http.server``): tests of the
``openai`` policy and of endpoint trouble script its replies per request."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Reply = tuple[int, Any, dict[str, str]]  # status, body (dict = JSON, str = raw), headers


class Endpoint:
    """A chat-completions server whose replies a test scripts: ``queue`` first (one
    reply per request), then ``answer(request)``."""

    def __init__(self) -> None:
        self.queue: list[Reply] = []
        self.answer: Callable[[dict[str, Any]], Reply] = lambda req: (200, completion("ok"), {})
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.in_flight = self.peak = 0
        self.delay = threading.Event()
        self.models = ["tiny"]  # what GET /models lists

    def reply(self, request: dict[str, Any], headers: dict[str, str]) -> Reply:
        with self.lock:
            self.requests.append(request)
            self.headers.append(headers)
            if self.queue:
                return self.queue.pop(0)
        return self.answer(request)


def completion(content: str | None = None, calls: list[tuple[str, dict]] | None = None,
               usage: tuple[int, int] = (5000, 10)) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": f"c{k}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}
            for k, (name, args) in enumerate(calls)]
    return {"id": "cmpl-1", "object": "chat.completion", "created": 0, "model": "tiny",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                      "total_tokens": sum(usage)}}


FAST = {"retry-after-ms": "5"}  # the client honours it: retries stay quick in tests


@pytest.fixture
def endpoint() -> Iterator[tuple[Endpoint, str]]:
    with serving() as pair:
        yield pair


@contextmanager
def serving() -> Iterator[tuple[Endpoint, str]]:
    """One stub server and its base URL while the block runs (tests that need several)."""
    ep = Endpoint()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._send(200, {"object": "list",
                             "data": [{"id": m, "object": "model"} for m in ep.models]}, {})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with ep.lock:
                ep.in_flight += 1
                ep.peak = max(ep.peak, ep.in_flight)
            try:
                ep.delay.wait(0.05)
                self._send(*ep.reply(body, {k.lower(): v for k, v in self.headers.items()}))
            finally:
                with ep.lock:
                    ep.in_flight -= 1

        def _send(self, status: int, body: Any, headers: dict[str, str]) -> None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield ep, f"http://127.0.0.1:{server.server_port}/v1"
    finally:
        server.shutdown()
        server.server_close()
