"""MCP clients as people use them (Claude Desktop, Cursor, Claude Code, agent SDKs): the
model sees only tools, tool results and prompt messages, never the server's
description. So the request and the world's clock reach it through the ``get_task``
tool and the ``task`` prompt, a session walks on to the next task after each episode
(stdio too, and across launches on one run directory), and the client hears only the
outcome of an episode while its records keep the full grade."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is in the [serve] extra")

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.serving._episodes import oracle_calls
from tests.serving._server import free_port, serving
from toolmaze_gym.prompts import clock_line
from toolmaze_gym.serving import EpisodeChoice, ServeRecorder, Session, SessionStore
from toolmaze_gym.serving.mcp_server import TASK_TOOL, http_app
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX

OUTCOME_KEYS = {"episode", "success", "reason", "next"}


@pytest.fixture
def server(tmp_path):
    """A running MCP server over a fresh run directory; yields (URL, store, run dir)."""
    store = SessionStore(ServeRecorder(tmp_path / "run", agent="client"), idle_timeout=60)
    port = free_port()
    with serving(http_app(store, port), port) as url:
        yield f"{url}/mcp", store, tmp_path / "run"
    store.recorder.close()


def _records(run, store) -> list[dict]:
    store.recorder.flush()
    path = run / "records.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def _opening(level: str, mode: str, seed: int) -> dict:
    return Session(EpisodeChoice.from_mapping({"level": level, "mode": mode, "seed": seed})
                   ).opening


def _texts(result) -> list[str]:
    return [block.text for block in result.content]


def test_get_task_is_a_tool_that_says_call_it_first_and_gives_request_and_clock(server):
    url, store, run = server
    want = _opening("C2", "P2", 3)

    async def talk():
        async with streamable_http_client(f"{url}?level=C2&mode=P2&seed=3") as (r, w, _), \
                ClientSession(r, w) as s:
            await s.initialize()
            tools = (await s.list_tools()).tools
            return tools, await s.call_tool(TASK_TOOL, {})

    tools, got = asyncio.run(talk())
    (tool,) = [t for t in tools if t.name == TASK_TOOL]
    assert tools[0].name == TASK_TOOL and "call this first" in tool.description.lower()
    task = json.loads(got.content[0].text)
    assert not got.isError and task["request"] == want["request"]
    assert task["now"] == want["clock"] == "2026-08-18T09:00:00Z"
    assert clock_line(Session(EpisodeChoice(level="C2", seed=3)).env.sim.world.now) \
        in task["instructions"]
    assert _records(run, store) == []  # reading the task is no step: no episode recorded


def test_the_task_prompt_messages_carry_the_clock_and_the_request(server):
    url, _, _ = server
    want = _opening("C1", "P3", 2)

    async def talk():
        async with streamable_http_client(f"{url}?task_id={ID_PREFIX}-c1-0002&mode=P3") \
                as (r, w, _), ClientSession(r, w) as s:
            await s.initialize()
            return await s.get_prompt("task")

    prompt = asyncio.run(talk())
    shown = "\n".join(m.content.text for m in prompt.messages)  # what a client inserts
    assert all(m.role == "user" for m in prompt.messages)
    assert want["request"] in shown and "2026-08-18T09:00:00Z" in shown
    assert prompt.messages[-1].content.text == want["request"]


def _wrong_product_calls() -> tuple[list[tuple[str, dict]], str]:
    """The oracle's C1/P0 calls on task 2 with the review posted on a product that does
    not exist (the task fails: the review was never written), and the product id the
    grader expected there."""
    calls = [(n, json.loads(a)) for n, a in oracle_calls("C1", "P0", 2)]
    k = next(i for i, (n, _) in enumerate(calls) if n == "write_review")
    expected = calls[k][1]["product_id"]
    calls[k] = ("write_review", {**calls[k][1], "product_id": "PRD-000000"})
    return calls, expected


def test_the_client_hears_the_outcome_and_the_records_keep_the_grade(server):
    url, store, run = server
    wrong, expected = _wrong_product_calls()

    async def play(query, calls):
        async with streamable_http_client(f"{url}?{query}") as (r, w, _), \
                ClientSession(r, w) as s:
            await s.initialize()
            return [await s.call_tool(n, a) for n, a in calls]

    good = asyncio.run(play("level=C1&mode=P0&seed=2",
                            [(n, json.loads(a)) for n, a in oracle_calls("C1", "P0", 2)]))
    bad = asyncio.run(play("level=C1&mode=P0&seed=2", wrong))
    for results, success in ((good, True), (bad, False)):
        ending = json.loads(results[-1].content[-1].text)
        assert set(ending) <= OUTCOME_KEYS and ending["success"] is success
        assert "grade" not in results[-1].content[-1].text
        assert ending["reason"] and "\n" not in ending["reason"]
    received = "\n".join(t for r in bad[-2:] for t in _texts(r))  # the review, the end
    assert expected not in received and "expected" not in received
    assert "not done" in json.loads(bad[-1].content[-1].text)["reason"]
    good_rec, bad_rec = _records(run, store)
    assert good_rec["grade"]["success"] and "path" in good_rec["grade"]
    (missing,) = bad_rec["grade"]["missing"]  # the full grade, expected values and all
    assert missing["expected"]["product_id"] == expected


def test_a_session_walks_on_to_the_next_task_after_its_episode(server):
    url, store, run = server

    heard = []

    async def hear(message) -> None:  # the client's view of the server's notifications
        heard.append(getattr(getattr(message, "root", None), "method", None))

    async def talk():
        async with streamable_http_client(f"{url}?level=C3&mode=P1") as (r, w, _), \
                ClientSession(r, w, message_handler=hear) as s:
            await s.initialize()
            first = json.loads((await s.call_tool(TASK_TOOL, {})).content[0].text)
            ended = await s.call_tool("abort", {"reason": "stop"})
            late = await s.call_tool("abort", {"reason": "again"})
            second = json.loads((await s.call_tool(TASK_TOOL, {})).content[0].text)
            tools = [t.name for t in (await s.list_tools()).tools]
            await s.call_tool("abort", {"reason": "stop"})
            return first, ended, late, second, tools

    first, ended, late, second, tools = asyncio.run(talk())
    assert first["request"] == _opening("C3", "P1", 0)["request"]
    assert json.loads(ended.content[-1].text)["next"].startswith(f"call {TASK_TOOL}")
    assert late.isError and TASK_TOOL in late.content[0].text  # told how to go on
    assert second["request"] == _opening("C3", "P1", 1)["request"]
    new = Session(EpisodeChoice(level="C3", mode="P1", seed=1))
    assert tools == [TASK_TOOL, *(t["function"]["name"] for t in new.tools)]
    assert heard == ["notifications/tools/list_changed"]  # told once: the next task's tools
    assert [r["task_id"] for r in _records(run, store)] == [f"{ID_PREFIX}-c3-0000",
                                                            f"{ID_PREFIX}-c3-0001"]


def test_a_new_server_on_a_run_directory_walks_on_from_what_it_holds(tmp_path):
    run = tmp_path / "run"
    for expected in ([f"{ID_PREFIX}-c2-0000", f"{ID_PREFIX}-c2-0001"], [f"{ID_PREFIX}-c2-0002"]):
        store = SessionStore(ServeRecorder(run), base=EpisodeChoice(level="C2", mode="P2"))
        got = []
        for _ in expected:
            _, s = store.open({})
            s.call("abort", {"reason": "x"})
            got.append(s.opening["task_id"])
        assert got == expected
        store.recorder.close()
    other = SessionStore(ServeRecorder(run), base=EpisodeChoice(level="C2", mode="P3"))
    assert other.open({})[1].opening["task_id"] == f"{ID_PREFIX}-c2-0000"  # P3: none played yet
    other.recorder.close()


def test_a_run_directory_keeps_one_calling_convention(tmp_path):
    """MCP serves the native prompt (the tools travel as schemas): its records say so,
    and a directory of text-prompt episodes is not mixed with it."""
    from toolmaze_gym.serving import ServeError

    ServeRecorder(tmp_path / "text").close()
    with pytest.raises(ServeError, match=r"another convention \('text' vs 'native'\)"):
        ServeRecorder(tmp_path / "text", convention="native")
    store = SessionStore(ServeRecorder(tmp_path / "mcp", convention="native"),
                         calling="native")
    _, s = store.open({"level": "C1", "seed": 0})
    assert "<tool_call>" not in s.opening["system_prompt"]
    s.call("abort", {"reason": "x"})
    (rec,) = _records(tmp_path / "mcp", store)
    assert rec["convention"] == "native"
    store.recorder.close()


def test_no_corpus_tool_is_shadowed_by_get_task():
    from toolmaze_gym.corpus import load_corpus

    assert TASK_TOOL not in load_corpus().tools  # else a task's own tool could not be called
