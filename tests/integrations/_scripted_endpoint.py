"""A scripted OpenAI-compatible chat endpoint on 127.0.0.1 for the ``vf-eval`` test.

It plays a fixed list of tool calls, one per model turn: the turn's index is the number
of tool results in the conversation, so each request gets the next call whatever else
the harness sends; after the last call it replies ``Done.``. Answers stream (SSE) when
the request asks, as verifiers relays them.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def reply(calls: Sequence[tuple[str, str]], messages: list[dict]) -> tuple[dict, str]:
    """The assistant message and finish reason for a conversation."""
    k = sum(1 for m in messages if m.get("role") == "tool")
    if k >= len(calls):
        return {"role": "assistant", "content": "Done."}, "stop"
    name, args = calls[k]
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{k}", "type": "function",
         "function": {"name": name, "arguments": args}}]}, "tool_calls"


class ScriptedEndpoint:
    """``with ScriptedEndpoint(calls) as url:`` serves ``url`` (``.../v1``) until exit;
    ``requests`` keeps each request body."""

    def __init__(self, calls: Sequence[tuple[str, str]]) -> None:
        self.calls, self.requests = list(calls), []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_port}/v1"

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                endpoint.requests.append(body)
                message, finish = reply(endpoint.calls, body.get("messages", []))
                base = {"id": "scripted", "created": int(time.time()),
                        "model": body.get("model", "scripted")}
                if body.get("stream"):
                    self._stream(base, message, finish)
                else:
                    self._send(json.dumps({**base, "object": "chat.completion", "usage": USAGE,
                                           "choices": [{"index": 0, "message": message,
                                                        "finish_reason": finish}]}).encode())

            def _stream(self, base: dict, message: dict, finish: str) -> None:
                delta = dict(message)
                if "tool_calls" in delta:
                    delta["tool_calls"] = [{**c, "index": 0} for c in delta["tool_calls"]]
                chunks = [{**base, "object": "chat.completion.chunk",
                           "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                          {**base, "object": "chat.completion.chunk", "usage": USAGE,
                           "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}]
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for chunk in chunks:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

            def _send(self, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler
