"""Body-size and nesting-depth limits: the same on every endpoint of both servers
(``toolmaze serve`` over MCP and the OpenEnv server), answered with a clear 413/400-style
error, never a 500 or a RecursionError, and the server stays up."""

from __future__ import annotations

import json

import httpx
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is in the [serve] extra")
pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")

from tests.serving._server import free_port, serving
from toolmaze_gym.serving import ServeRecorder, SessionStore
from toolmaze_gym.serving.limits import MAX_BODY_BYTES, MAX_BODY_DEPTH, body_problem
from toolmaze_gym.serving.mcp_server import http_app

DEEP = 5_000
MCP_HEADERS = {"content-type": "application/json",
               "accept": "application/json, text/event-stream"}
OPENENV_POSTS = ("/mcp", "/reset", "/step", "/toolmaze_env/tasks", "/toolmaze_env/num_tasks",
                 "/toolmaze_env/task", "/toolmaze_env/task_range")


def _call(arguments: str, rid: int = 2) -> bytes:
    return (f'{{"jsonrpc": "2.0", "id": {rid}, "method": "tools/call", "params": '
            f'{{"name": "finish", "arguments": {{"answer": {arguments}}}}}}}').encode()


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _oversize() -> bytes:
    return _call(json.dumps("x" * MAX_BODY_BYTES))


def _not_utf8() -> bytes:
    return _call('"cafe"').replace(b"cafe", b"caf\xe9")  # Latin-1, not UTF-8


# -- the shared definition -------------------------------------------------------------

def test_a_body_is_judged_by_its_size_and_its_nesting_outside_strings():
    assert body_problem(_call('"ok"')) is None
    assert body_problem(_call(_deep(MAX_BODY_DEPTH - 4))) is None  # 4 levels of envelope
    status, message = body_problem(_call(_deep(MAX_BODY_DEPTH)))
    assert status == 400 and f"deeper than {MAX_BODY_DEPTH}" in message
    assert body_problem(_call(json.dumps("[{" * 20_000))) is None  # brackets in a string
    assert body_problem(_call(r'"\"[[[[[[[[[["')) is None  # an escaped quote stays inside
    status, message = body_problem(_oversize())
    assert status == 413 and str(MAX_BODY_BYTES) in message


def test_a_python_object_is_judged_by_a_flat_walk():
    from toolmaze_gym.serving.limits import too_deep

    nested: list = []
    for _ in range(DEEP):
        nested = [nested]
    assert too_deep(nested) and not too_deep({"a": [1, {"b": 2}]})
    loop: list = []
    loop.append(loop)
    assert too_deep(loop)  # a cycle is infinitely deep, and the walk ends


# -- toolmaze serve (MCP) --------------------------------------------------------------

@pytest.fixture
def mcp_url(tmp_path):
    store = SessionStore(ServeRecorder(tmp_path / "run"), idle_timeout=60.0)
    port = free_port()
    with serving(http_app(store, port), port) as url:
        yield url
    store.recorder.close()


def _mcp_session(url: str) -> str:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}
    sid = httpx.post(f"{url}/mcp", json=init, headers=MCP_HEADERS).headers["mcp-session-id"]
    httpx.post(f"{url}/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"},
               headers={**MCP_HEADERS, "mcp-session-id": sid})
    return sid


@pytest.mark.parametrize("body, status, words", [
    (lambda: _call(_deep(DEEP)), 400, "deeper than"),
    (_oversize, 413, "larger than"),
    (_not_utf8, 400, "not UTF-8")])  # was a 500 "Error handling POST request"
def test_mcp_endpoint_answers_limits_clearly_and_stays_up(mcp_url, body, status, words):
    sid = _mcp_session(mcp_url)
    headers = {**MCP_HEADERS, "mcp-session-id": sid}
    got = httpx.post(f"{mcp_url}/mcp", content=body(), headers=headers, timeout=30)
    assert got.status_code == status and words in got.json()["error"]["message"]
    fine = httpx.post(f"{mcp_url}/mcp", content=_call('"done"'), headers=headers, timeout=30)
    assert fine.status_code == 200 and '"episode": "ended"' in fine.text.replace('\\"', '"')


# -- the OpenEnv server ----------------------------------------------------------------

@pytest.fixture
def openenv_url(tmp_path):
    from toolmaze_gym.openenv.server.app import build_app

    store = SessionStore(ServeRecorder(tmp_path / "run", server="openenv"), idle_timeout=60.0)
    port = free_port()
    with serving(build_app(store), port) as url:  # uvicorn's own 16 MiB frame limit
        yield url
    store.recorder.close()


@pytest.mark.parametrize("path", OPENENV_POSTS)
def test_every_openenv_post_endpoint_answers_limits_clearly_and_stays_up(openenv_url, path):
    big = httpx.post(f"{openenv_url}{path}", content=_oversize(),
                     headers={"content-type": "application/json"}, timeout=30)
    assert big.status_code == 413 and "larger than" in big.json()["error"]["message"]
    deep = httpx.post(f"{openenv_url}{path}", content=_call(_deep(DEEP)),
                      headers={"content-type": "application/json"}, timeout=30)
    assert deep.status_code == 400 and "deeper than" in deep.json()["error"]["message"]
    latin = httpx.post(f"{openenv_url}{path}", content=_not_utf8(),
                       headers={"content-type": "application/json"}, timeout=30)
    assert latin.status_code == 400 and "not UTF-8" in latin.json()["error"]["message"]
    assert httpx.get(f"{openenv_url}/health", timeout=30).status_code == 200


def test_a_declared_length_over_the_limit_is_refused_before_it_is_read(openenv_url):
    import socket

    host, port = openenv_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Content-Type: application/json\r\n"
                     f"Content-Length: {128 << 20}\r\n\r\n".encode())
        head = sock.recv(4096).decode()
    assert head.startswith("HTTP/1.1 413")


@pytest.mark.parametrize("path, message, reply_words", [
    ("/ws", {"type": "reset", "data": {"level": "C1", "seed": 0}}, "tool_schemas"),
    ("/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}, "jsonrpc")])
def test_every_openenv_websocket_answers_limits_and_keeps_the_connection(
        openenv_url, path, message, reply_words):
    import websockets.sync.client as ws

    with ws.connect(openenv_url.replace("http", "ws") + path, max_size=None) as sock:
        sock.send(_call(_deep(DEEP)).decode())
        deep = sock.recv(timeout=30)
        assert "deeper than" in deep and "Recursion" not in deep
        sock.send(_oversize().decode())
        big = sock.recv(timeout=30)
        assert "larger than" in big
        sock.send(json.dumps(message))
        assert reply_words in sock.recv(timeout=30)  # the same connection still serves


def test_a_session_refuses_decoded_arguments_too_deep_to_serialise():
    from toolmaze_gym.serving import EpisodeChoice, ServeError, Session

    nested: list = []
    for _ in range(DEEP):
        nested = [nested]
    session = Session(EpisodeChoice(level="C1", seed=0))
    with pytest.raises(ServeError, match="deeper than") as refused:
        session.call("finish", {"answer": nested})
    assert refused.value.body()["error"]["code"] == 400 and not session.env.episode.steps
    assert session.call("finish", {"answer": "x"})["done"]  # the episode goes on


def test_the_ws_socket_reads_binary_json_and_names_what_it_refuses(openenv_url):
    """A binary frame of JSON is read as its text (OpenEnv answered "'text'"); bytes that
    are no UTF-8 and JSON that is no object are refused by name (OpenEnv answered
    "'list' object has no attribute 'get'"), and the socket goes on serving."""
    import websockets.sync.client as ws

    reset = json.dumps({"type": "reset", "data": {"level": "C1", "seed": 0}})
    with ws.connect(openenv_url.replace("http", "ws") + "/ws") as sock:
        sock.send(reset.encode())
        opened = json.loads(sock.recv(timeout=30))["data"]["observation"]["task_id"]
        sock.send(b'{"type": "reset", "data": {"level": "\xff"}}')
        assert "not UTF-8" in json.loads(sock.recv(timeout=30))["data"]["message"]
        for not_an_object in ("[1, 2]", "5", '"reset"'):
            sock.send(not_an_object)
            assert "must be a JSON object" in json.loads(sock.recv(timeout=30))["data"]["message"]
        sock.send(json.dumps({"type": "state"}))
        assert json.loads(sock.recv(timeout=30))["data"]["task_id"] == opened


@pytest.mark.parametrize("body", [b'{"seed": 1e400}', b'{"seed": NaN}', b'[1]'])
def test_an_openenv_body_of_the_wrong_shape_is_a_422_naming_the_field(openenv_url, body):
    """FastAPI echoes the failing value in its 422, and a non-finite number cannot be
    written as JSON: the answer was a 500."""
    got = httpx.post(f"{openenv_url}/reset", content=body,
                     headers={"content-type": "application/json"}, timeout=30)
    assert got.status_code == 422 and got.json()["detail"][0]["msg"]
    assert httpx.post(f"{openenv_url}/reset", json={"level": "C1", "seed": 1},
                      timeout=30).status_code == 200
