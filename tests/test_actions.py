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
    for raw in (None, 3, {"name": "x"}, b"bytes"):
        assert parse_action(raw).kind == "invalid"
