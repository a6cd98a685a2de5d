"""``toolmaze serve`` over streamable HTTP, driven by the MCP SDK's own client against a
real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is in the [serve] extra")

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.serving._episodes import comparable, in_process, oracle_calls
from tests.serving._server import free_port, kill_after_first_call, serving
from toolmaze_gym.serving import EpisodeChoice, ServeRecorder, Session, SessionStore
from toolmaze_gym.serving.mcp_server import http_app
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX

IDLE_S = {"test_a_killed_client_leaves_no_episode_after_the_timeout": 1.0}


@pytest.fixture
def server(tmp_path, request):
    """A running MCP server; yields (base URL, store, run directory)."""
    store = SessionStore(ServeRecorder(tmp_path / "run", agent="mcp-agent"),
                         idle_timeout=IDLE_S.get(request.node.name, 60.0))
    port = free_port()
    with serving(http_app(store, port), port) as url:
        yield url, store, tmp_path / "run"
    store.recorder.close()


async def _episode(url: str, query: str, calls) -> tuple[list[str], list]:
    async with streamable_http_client(f"{url}/mcp?{query}") as (read, write, _), \
            ClientSession(read, write) as session:
        await session.initialize()
        tools = [t.name for t in (await session.list_tools()).tools]
        results = [await session.call_tool(name, json.loads(args)) for name, args in calls]
        return tools, results


def _records(run, store) -> list[dict]:
    store.recorder.flush()
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]


def test_an_mcp_client_lists_the_tasks_tools_meets_a_fault_and_finishes(server):
    url, store, run = server
    calls = oracle_calls("C2", "P2", 3)
    tools, results = asyncio.run(_episode(url, "level=C2&mode=P2&seed=3", calls))
    ref = in_process("C2", "P2", 3, [(n, json.loads(a)) for n, a in calls])
    task_tools = sorted({s["action"].get("name") for s in ref["steps"]} - {"finish", None})
    assert tools[-2:] == ["finish", "abort"] and set(task_tools) <= set(tools)
    own = Session(EpisodeChoice(level="C2", mode="P2", seed=3)).tools  # gym.make's episode
    # get_task, then the task's own tools and finish/abort: none of the 270 others
    assert tools == ["get_task", *(t["function"]["name"] for t in own)]
    faulted = [r for r in results if r.isError]
    assert faulted and json.loads(faulted[0].content[0].text)["error"]["code"] >= 400
    assert [r.content[0].text for r in results[:-1]] == [s["observation"]
                                                          for s in ref["steps"][:-1]]
    ending = json.loads(results[-1].content[1].text)
    assert ending["success"] and ref["grade"]["success"] and "grade" not in ending
    (rec,) = _records(run, store)  # the grade is recorded, not told
    assert comparable(rec) == comparable(ref) and rec["agent"] == "mcp-agent"


def test_the_request_and_clock_come_as_a_prompt_and_a_resource(server):
    url, _, _ = server

    async def read():
        async with streamable_http_client(f"{url}/mcp?task_id={ID_PREFIX}-c1-0002&mode=P3") \
                as (r, w, _), ClientSession(r, w) as session:
            await session.initialize()
            prompt = await session.get_prompt("task")
            res = await session.read_resource("toolmaze://episode")
            return prompt, json.loads(res.contents[0].text)

    prompt, episode = asyncio.run(read())
    assert episode["task_id"] == f"{ID_PREFIX}-c1-0002" and episode["mode"] == "P3"
    assert prompt.messages[-1].content.text == episode["request"]
    assert episode["clock"] in prompt.messages[0].content.text


def test_32_concurrent_sessions_get_32_distinct_correct_grades(server):
    url, store, run = server
    plans = {}
    for seed in range(32):  # even seeds play it out, odd ones give up after some calls
        calls = oracle_calls("C1", "P1", seed)
        give_up = ("abort", json.dumps({"reason": "giving up"}))
        plans[seed] = calls if seed % 2 == 0 else (*calls[:seed % 5], give_up)

    async def all_at_once():
        return await asyncio.gather(*(_episode(url, f"level=C1&mode=P1&seed={s}", plans[s])
                                      for s in range(32)))

    outcomes = asyncio.run(all_at_once())
    recorded = {rec["task_id"]: rec["grade"] for rec in _records(run, store)}
    grades = {}
    for seed, (_, results) in enumerate(outcomes):
        ref = in_process("C1", "P1", seed, [(n, json.loads(a)) for n, a in plans[seed]])
        told = json.loads(results[-1].content[-1].text)
        assert told["success"] == ref["grade"]["success"], seed
        assert recorded[ref["task_id"]] == ref["grade"], seed
        grades[ref["task_id"]] = json.dumps(ref["grade"], sort_keys=True)
    assert len(grades) == 32 == len(recorded)
    assert sum(json.loads(g)["success"] for g in grades.values()) == 16


def test_two_clients_on_one_session_id_each_get_every_answer_once(server):
    """Four clients share one MCP session id and call at once: every call is one step
    of the one episode, none lost, none doubled, and the episode ends once."""
    import threading

    url, store, run = server
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}
    sid = _post(url, json.dumps(init).encode()).headers["mcp-session-id"]
    _post(url, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}', sid)
    told: list[str] = []

    def client(c: int) -> None:
        for i in range(6):
            body = {"jsonrpc": "2.0", "id": 10 * c + i, "method": "tools/call",
                    "params": {"name": "no_such_tool", "arguments": {"n": 10 * c + i}}}
            told.append(_post(url, json.dumps(body).encode(), sid).text)

    clients = [threading.Thread(target=client, args=(c,)) for c in range(4)]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    end = {"jsonrpc": "2.0", "id": 99, "method": "tools/call",
           "params": {"name": "abort", "arguments": {"reason": "x"}}}
    ends = [_post(url, json.dumps(end).encode(), sid).text for _ in range(2)]
    assert all("unknown_tool" in t for t in told) and len(told) == 24
    assert '"episode": "ended"' in ends[0].replace('\\"', '"') and "episode_ended" in ends[1]
    (rec,) = _records(run, store)
    sent = sorted(json.loads(s["raw"])["arguments"]["n"] for s in rec["steps"][:-1])
    assert sent == list(range(6)) + list(range(10, 16)) + list(range(20, 26)) \
        + list(range(30, 36))


def _post(url: str, body: bytes, session: str | None = None):
    import httpx2 as httpx

    headers = {"content-type": "application/json",
               "accept": "application/json, text/event-stream"}
    if session:
        headers["mcp-session-id"] = session
    return httpx.post(f"{url}/mcp", content=body, headers=headers, timeout=30)


def test_bad_input_over_the_wire_gets_clear_errors_and_the_server_survives(server):
    url, _, _ = server
    broken = _post(url, b'{"jsonrpc": "2.0", "method": ')
    assert broken.status_code == 400 and "Parse error" in broken.text
    not_rpc = _post(url, b'{"hello": "world"}')
    assert not_rpc.status_code == 400
    unknown = _post(url, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
                    session="0" * 32)
    assert unknown.status_code == 404 and "Session not found" in unknown.text
    huge = _post(url, b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"x": "'
                 + b"x" * (2 << 20) + b'"}}')
    assert huge.status_code == 413
    first = oracle_calls("C1", "P0", 0)[0][0]
    _, wrong = asyncio.run(_episode(url, "level=C1&seed=0", ((first, '{"nonsense": 1}'),)))
    body = json.loads(wrong[0].content[0].text)  # the env's own answer, not the SDK's check
    assert wrong[0].isError and body["error"]["code"] in (400, 422) and body["error"]["field"]
    calls = (("abort", '{"reason": "no"}'), ("finish", '{"answer": "late"}'),
             ("get_quote", '{"symbol": "' + "A" * 40_000 + '"}'))
    _, results = asyncio.run(_episode(url, "level=C1&seed=0", calls))
    late = json.loads(results[1].content[0].text)
    assert results[1].isError and late["error"]["type"] == "episode_ended"
    assert results[2].isError  # still alive, still answering
    _, again = asyncio.run(_episode(url, "level=C1&seed=1", (("abort", '{"reason": "x"}'),)))
    assert not again[0].isError


def test_a_bad_episode_choice_is_a_clear_error(server):
    from mcp.shared.exceptions import McpError

    url, _, _ = server

    async def listing(query):
        async with streamable_http_client(f"{url}/mcp?{query}") as (r, w, _), \
                ClientSession(r, w) as session:
            await session.initialize()
            with pytest.raises(McpError) as info:
                await session.list_tools()
            done = await session.call_tool("finish", {"answer": "x"})
            return str(info.value), done

    message, call = asyncio.run(listing("level=C7"))
    assert message == "unknown level 'C7'; choose from C1, C2, C3, C4"
    assert call.isError and "unknown level" in call.content[0].text
    assert asyncio.run(listing("colour=red"))[0].startswith("unknown episode option(s) colour")


KILLED_CLIENT = """
import asyncio, json, sys
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

async def main():
    async with streamable_http_client(sys.argv[1]) as (r, w, _), ClientSession(r, w) as s:
        await s.initialize()
        tool = (await s.list_tools()).tools[1].name  # a task's tool (0: get_task)
        await s.call_tool(tool, {})
        print("called", flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


def test_a_killed_client_leaves_no_episode_after_the_timeout(server):
    url, store, run = server
    kill_after_first_call(KILLED_CLIENT, f"{url}/mcp?seed=4", store, 20)
    assert len(store) == 0 and store.expired == 1
    (rec,) = _records(run, store)
    assert rec["cut"] == "idle" and len(rec["steps"]) == 1


def test_calls_of_sessions_at_once_never_list_their_tools_again(server, monkeypatch):
    """The SDK re-listed the caller's tools before a call whenever the call before it was
    another session's (its tool cache is one per server): the server did a tools/list's
    work per call with sessions at once (issue 32). Two clients that listed their tools
    once, calling in turn: no more listing on the server."""
    url, _, _ = server
    listed = []
    tools = Session.tools
    monkeypatch.setattr(Session, "tools", property(lambda s: listed.append(1) or tools.fget(s)))
    plans = {seed: oracle_calls("C2", "P0", seed) for seed in (0, 1)}

    async def both_in_turn():
        async with contextlib.AsyncExitStack() as stack:
            sessions = []
            for seed in plans:
                read, write, _ = await stack.enter_async_context(
                    streamable_http_client(f"{url}/mcp?level=C2&mode=P0&seed={seed}"))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                await session.list_tools()
                sessions.append(session)
            before = len(listed)
            for k in range(max(len(c) for c in plans.values())):
                for session, calls in zip(sessions, plans.values(), strict=True):
                    if k < len(calls):
                        await session.call_tool(calls[k][0], json.loads(calls[k][1]))
            return before

    before = asyncio.run(both_in_turn())
    assert before == 2 and len(listed) == before


def test_a_call_is_answered_as_one_json_body(server):
    """A request's answer is one JSON body, not an event stream opened per request
    (the stream's machinery cost the server more than the step, issue 32); a client
    that accepts both, as the MCP spec has every client do, reads it the same."""
    import httpx

    url, _, _ = server
    head = {"accept": "application/json, text/event-stream",
            "content-type": "application/json"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}}
    with httpx.Client(base_url=url, headers=head) as http:
        opened = http.post("/mcp?level=C1&mode=P0&seed=0", json=init)
        sid = opened.headers["mcp-session-id"]
        http.post("/mcp", headers={"mcp-session-id": sid},
                  json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        answer = http.post("/mcp", headers={"mcp-session-id": sid}, json={
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "get_task", "arguments": {}}})
    assert opened.headers["content-type"].startswith("application/json")
    assert answer.headers["content-type"].startswith("application/json")
    assert "request" in json.loads(answer.json()["result"]["content"][0]["text"])


def test_every_session_is_offered_the_same_options_built_once(tmp_path):
    """The SDK built a session's initialization options anew per session, reading the
    ``mcp`` package's metadata from disk each time (issue 32); built once, they still
    announce that a session's tool list changes, and options asked for explicitly are
    still honoured."""
    from mcp.server.lowlevel import NotificationOptions

    from toolmaze_gym.serving.mcp_server import build_server

    server = build_server(SessionStore())
    first = server.create_initialization_options()
    assert server.create_initialization_options() is first
    assert first.capabilities.tools.listChanged is True
    plain = server.create_initialization_options(NotificationOptions())
    assert plain is not first and plain.capabilities.tools.listChanged is False
