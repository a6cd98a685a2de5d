"""The size and nesting limits of everything a client sends either server.

``toolmaze serve`` (MCP) and the OpenEnv server share these numbers and this check, so a
body one endpoint refuses is refused by all, the same way: a body over
``MAX_BODY_BYTES`` is answered 413, JSON nested deeper than ``MAX_BODY_DEPTH`` is
answered 400, as is a body that is no UTF-8 text, all as a JSON-RPC error with one
line for the client. Nothing recursive
(json, pydantic, the SDKs) sees a body before the flat check has passed it, so no
client can raise a ``RecursionError`` in a server or hold hundreds of megabytes of it.

``BodyLimits`` applies them as ASGI middleware to every HTTP request and every
WebSocket message (a refused message is answered on the socket, which stays open);
hosts also bound WebSocket frames at ``MAX_BODY_BYTES`` (uvicorn's ``ws_max_size``).
``too_deep`` judges an argument object that arrives already decoded (stdio).
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolmaze_gym.actions import MAX_ACTION_DEPTH

MAX_BODY_BYTES = 1 << 20
# The env refuses an action nested beyond MAX_ACTION_DEPTH itself, as a recorded 400 step
# like any agent's; the envelope around a call's arguments (JSON-RPC params, an OpenEnv
# message) adds at most 4 levels, so bodies are allowed a few more than actions and the
# transport refuses only what no action could be.
MAX_BODY_DEPTH = MAX_ACTION_DEPTH + 8

# A JSON string (to its closing quote, or to the end when unterminated), or a bracket.
_STRING_OR_BRACKET = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


def too_big_message() -> str:
    return f"request body larger than {MAX_BODY_BYTES} bytes (the server's limit)"


def too_deep_message() -> str:
    return f"request JSON nested deeper than {MAX_BODY_DEPTH} levels (the server's limit)"


def not_utf8_message() -> str:
    return "request body is not UTF-8 text (JSON must be UTF-8)"


def body_problem(body: bytes) -> tuple[int, str] | None:
    """``(HTTP status, message)`` when ``body`` breaks a limit or is no UTF-8 text (the
    SDKs' decoders would answer that with a 500), else None. A flat scan: brackets
    inside JSON strings do not count."""
    if len(body) > MAX_BODY_BYTES:
        return 413, too_big_message()
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return 400, not_utf8_message()
    if body.count(b"[") + body.count(b"{") <= MAX_BODY_DEPTH:
        return None  # the usual body: too few brackets to be deep
    depth = 0
    for m in _STRING_OR_BRACKET.finditer(body):
        c = body[m.start()]
        if c in b"[{":
            depth += 1
            if depth > MAX_BODY_DEPTH:
                return 400, too_deep_message()
        elif c in b"]}":
            depth = max(depth - 1, 0)
    return None


def too_deep(value: Any) -> bool:
    """Whether a decoded value nests lists/dicts deeper than ``MAX_BODY_DEPTH`` (a cycle
    is infinitely deep); a flat walk that stops at the first level too deep."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth > MAX_BODY_DEPTH:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                   else item))
    return False


def error_body(message: str) -> bytes:
    """A refusal as a JSON-RPC error (no request id: the request was not read)."""
    return json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": -32600, "message": message}}).encode()


class BodyLimits:
    """ASGI middleware applying the limits to every request and message; see the
    module docstring."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.app(scope, _checked_messages(scope, receive, send), send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Any, receive: Any, send: Any) -> None:
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return await _refuse(send, 413, too_big_message())
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body was whole
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > MAX_BODY_BYTES:
                return await _refuse(send, 413, too_big_message())
            more = message.get("more_body", False)
        body = b"".join(chunks)
        problem = body_problem(body)
        if problem is not None:
            return await _refuse(send, *problem)
        await self.app(scope, _replay(body, receive), send)


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that hands the app the body already read, then the client's own."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Any:
        return pending.pop() if pending else await receive()

    return replayed


def _checked_messages(scope: Any, receive: Any, send: Any) -> Any:
    """A ``receive`` that answers a WebSocket message breaking a limit on the socket
    (the server's error shape for the path) and hands the app the next one instead.
    A binary frame of UTF-8 JSON is handed on as the text it is (the apps read text
    only, and answered a binary frame with "'text'"); on ``/ws`` a message that is no
    JSON object is refused by name (OpenEnv answered "'list' object has no attribute
    'get'")."""
    async def checked() -> Any:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            data = message.get("bytes") or (message.get("text") or "").encode()
            problem = body_problem(data) or _not_an_object(scope, data)
            if problem is None:
                if message.get("bytes") is not None:
                    return {"type": "websocket.receive", "text": data.decode("utf-8")}
                return message
            await send({"type": "websocket.send", "text": _ws_error(scope, problem[1])})

    return checked


def _not_an_object(scope: Any, data: bytes) -> tuple[int, str] | None:
    """On OpenEnv's ``/ws``, every message is an object ``{"type": ..., "data": ...}``."""
    if scope.get("path") != "/ws" or data.lstrip()[:1] == b"{":
        return None
    return 400, ('a message must be a JSON object {"type": "reset" | "step" | "state" | '
                 '"close", "data": {...}}')


def _ws_error(scope: Any, message: str) -> str:
    if scope.get("path") == "/ws":  # OpenEnv's session socket: its own error shape
        return json.dumps({"type": "error", "data": {"message": message,
                                                     "code": "VALIDATION_ERROR"}})
    return error_body(message).decode()


async def _refuse(send: Any, status: int, message: str) -> None:
    body = error_body(message)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
