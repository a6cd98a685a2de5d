"""Parsing raw model text: every dialect, reserved calls, answers, broken attempts."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.actions import MAX_ACTION_CHARS, parse_action

CALL = {"name": "get_quote_snapshot", "arguments": {"symbol": "AAPL"}}


@pytest.mark.parametrize("raw", [
    json.dumps(CALL),
    f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>",
    f"Let me check.\n<tool_call>{json.dumps(CALL)}</tool_call>",
    f"```json\n{json.dumps(CALL)}\n```",
    json.dumps({"tool_calls": [{"type": "function", "function": {
        "name": CALL["name"], "arguments": json.dumps(CALL["arguments"])}}]}),
    json.dumps({"name": CALL["name"], "parameters": CALL["arguments"]}),
])
def test_every_dialect_gives_the_same_call(raw):
    a = parse_action(raw)
    assert (a.kind, a.name, a.arguments) == ("call", CALL["name"], CALL["arguments"])


def test_reserved_calls_end_the_episode():
    assert parse_action('{"name": "finish", "arguments": {"answer": "done"}}').kind == "finish"
    a = parse_action('<tool_call>{"name": "abort", "arguments": {"reason": "x"}}</tool_call>')
    assert (a.kind, a.text) == ("abort", "x")


def test_text_without_a_call_is_the_final_answer():
    a = parse_action("The price is 12 EUR.")
    assert (a.kind, a.text) == ("answer", "The price is 12 EUR.")


@pytest.mark.parametrize("raw", [
    '<tool_call>{"name": "get_x", "arguments": {</tool_call>',
    '{"name": "get_x", "arguments": [1, 2]}',
    '{"name": "get_x", "arguments": {"a": NaN}}',
    '{"name": "get_x", "arguments": {"a": 1e999}}',
    '{"tool_calls": []}',
    '{"tool_calls": [{"function": {"name": "get_x", "arguments": "{\\"a\\": NaN}"}}]}',
    "x" * (MAX_ACTION_CHARS + 1),
])
def test_broken_call_attempts_are_invalid_with_a_reason(raw):
    a = parse_action(raw)
    assert a.kind == "invalid" and a.text


def test_non_strings_never_raise():
    for raw in (None, 3, b"bytes", 2.5, object()):
        a = parse_action(raw)
        assert a.kind == "invalid" and "dict/list in OpenAI tool_calls shape" in a.text


WIRE_CALL = {"id": "call_1", "type": "function",
             "function": {"name": CALL["name"], "arguments": json.dumps(CALL["arguments"])}}


@pytest.mark.parametrize("raw", [
    {"role": "assistant", "content": None, "tool_calls": [WIRE_CALL]},
    {"role": "assistant", "content": "", "tool_calls": [
        {**WIRE_CALL, "function": {**WIRE_CALL["function"], "arguments": CALL["arguments"]}}]},
    [WIRE_CALL],
    {"tool_calls": [WIRE_CALL]},
    WIRE_CALL,
    CALL,
])
def test_openai_shaped_python_objects_are_calls(raw):
    a = parse_action(raw)
    assert (a.kind, a.name, a.arguments) == ("call", CALL["name"], CALL["arguments"])


def test_python_objects_end_and_answer_like_text():
    finish = {"type": "function", "function": {"name": "finish",
                                               "arguments": '{"answer": "12 EUR"}'}}
    assert (parse_action([finish]).kind, parse_action([finish]).text) == ("finish", "12 EUR")
    a = parse_action({"role": "assistant", "content": " The price is 12 EUR. "})
    assert (a.kind, a.text) == ("answer", "The price is 12 EUR.")
    a = parse_action({"role": "assistant", "content": "Checking.", "tool_calls": []})
    assert (a.kind, a.text) == ("answer", "Checking.")
    a = parse_action({"role": "assistant", "content": [{"type": "text", "text": "12 "},
                                                       {"type": "text", "text": "EUR"}]})
    assert (a.kind, a.text) == ("answer", "12 EUR")


@pytest.mark.parametrize("raw,why", [
    ({"name": "get_x", "arguments": {"a": float("nan")}}, "finite"),
    ({"name": "get_x", "arguments": {"a": {1, 2}}}, "JSON-serialisable"),
    ({"name": "get_x", "arguments": "{broken"}, "not valid JSON"),
    ({"name": "get_x", "arguments": [1]}, "JSON object"),
    ({"role": "assistant", "content": ["part"]}, "content must be a string"),
    ({"role": "assistant", "content": 3}, "content must be a string"),
    ({"foo": 1}, "not a tool call"),
    ([], "not a tool call"),
    ({"name": "get_x", "arguments": {"a": "x" * MAX_ACTION_CHARS}}, "longer than"),
])
def test_broken_python_objects_are_invalid_with_a_reason(raw, why):
    a = parse_action(raw)
    assert a.kind == "invalid" and why in a.text
