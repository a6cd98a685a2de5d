"""Parsing raw model text: every dialect, reserved calls, answers, broken attempts."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.actions import MAX_ACTION_CHARS, MAX_ACTION_DEPTH, parse_action

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


# -- limits applied before parsing (nothing recursive on agent data) ---------------------

def _deep_dict(n: int) -> dict:
    d: dict = {"a": 1}
    for _ in range(n):
        d = {"a": d}
    return d


def _deep_list(n: int) -> list:
    v: list = [1]
    for _ in range(n):
        v = [v]
    return v


DEEP_TEXT = '{"a": ' * 985 + "1" + "}" * 985


@pytest.mark.parametrize("raw", [
    {"name": "get_x", "arguments": _deep_dict(1000)},  # a chat client's Python dict
    _deep_dict(1000),
    _deep_list(1000),
    {"tool_calls": [{"function": {"name": "get_x", "arguments": {"v": _deep_list(200)}}}]},
    '{"name": "get_x", "arguments": ' + DEEP_TEXT + "}",
    '<tool_call>{"name": "get_x", "arguments": {"v": ' + "[" * 100 + "]" * 100 + "}}</tool_call>",
    # the arguments as a JSON string: nested text inside a string, decoded later
    json.dumps({"tool_calls": [{"function": {"name": "get_x", "arguments": DEEP_TEXT}}]}),
    json.dumps({"name": "get_x", "arguments": json.dumps(_deep_list(MAX_ACTION_DEPTH))}),
])
def test_nesting_beyond_the_limit_is_invalid_and_names_it(raw):
    a = parse_action(raw)
    assert a.kind == "invalid"
    assert f"nested deeper than {MAX_ACTION_DEPTH} levels" in a.text


def test_nesting_within_the_limit_still_parses():
    args = {"v": _deep_list(MAX_ACTION_DEPTH - 6)}
    for raw in ({"tool_calls": [{"function": {"name": "get_x", "arguments": args}}]},
                json.dumps({"tool_calls": [{"function": {"name": "get_x",
                                                         "arguments": json.dumps(args)}}]})):
        a = parse_action(raw)
        assert (a.kind, a.name, a.arguments) == ("call", "get_x", args)


def test_brackets_inside_strings_do_not_count_as_nesting():
    query = "[{" * 500 + '\\"'
    a = parse_action('{"name": "get_x", "arguments": {"q": "' + query + '"}}')
    assert (a.kind, a.arguments) == ("call", {"q": "[{" * 500 + '"'})


def test_a_cyclic_python_object_is_invalid_not_a_crash():
    d: dict = {"name": "get_x", "arguments": {}}
    d["arguments"]["again"] = d
    a = parse_action(d)
    assert a.kind == "invalid" and f"{MAX_ACTION_DEPTH} levels" in a.text


def test_a_huge_python_object_is_measured_without_serialising_it_all():
    a = parse_action({"name": "get_x", "arguments": {"v": list(range(2_000_000))}})
    assert a.kind == "invalid" and f"longer than {MAX_ACTION_CHARS}" in a.text


def test_deep_brackets_without_a_call_intent_are_still_the_final_answer():
    raw = "[" * 2000 + "]" * 2000
    assert parse_action(raw) == parse_action(raw) and parse_action(raw).kind == "answer"


# -- several calls in one action ------------------------------------------------------------

C1, C2, C3 = ({"name": n, "arguments": {"k": i}} for i, n in enumerate(("get_a", "get_b",
                                                                        "get_c")))


def _wire(c: dict) -> dict:
    return {"type": "function", "function": {"name": c["name"],
                                             "arguments": json.dumps(c["arguments"])}}


@pytest.mark.parametrize("raw,n", [
    (json.dumps({"tool_calls": [_wire(C1), _wire(C2), _wire(C3)]}), 3),
    ({"role": "assistant", "content": None, "tool_calls": [_wire(C1), _wire(C2)]}, 2),
    ([C1, C2, C3], 3),
    (json.dumps([C1, C2]), 2),
    (f"<tool_call>{json.dumps(C1)}</tool_call>\n<tool_call>{json.dumps(C2)}</tool_call>", 2),
    (f"```json\n{json.dumps(C1)}\n```\nthen\n```json\n{json.dumps(C2)}\n```", 2),
    (f"{json.dumps(C1)}\n{json.dumps(C2)}\n{json.dumps(C3)}", 3),
    (f"I will call two tools. {json.dumps(C1)} and {json.dumps(C2)}", 2),
])
def test_several_calls_in_one_action_run_the_first_and_are_counted(raw, n):
    a = parse_action(raw)
    assert (a.kind, a.name, a.arguments, a.calls) == ("call", "get_a", {"k": 0}, n)
    assert a.to_dict()["calls"] == n


@pytest.mark.parametrize("raw", [
    json.dumps(CALL), f"<tool_call>{json.dumps(CALL)}</tool_call>", [CALL],
    json.dumps({"tool_calls": [_wire(CALL)]}), f"```json\n{json.dumps(CALL)}\n```",
    f"{json.dumps(CALL)} trailing words {{not json}}",
])
def test_one_call_is_one(raw):
    a = parse_action(raw)
    assert a.kind == "call" and a.calls == 1 and "calls" not in a.to_dict()


@pytest.mark.parametrize("raw", [
    '{"name": "get_x", "arguments": {"a": ' + "9" * 400 + "}}",
    '{"name": "get_x", "arguments": {"a": -' + "9" * 4_000 + "}}",
    json.dumps({"name": "get_x", "arguments": json.dumps({"a": 10**400})}),
    {"name": "get_x", "arguments": {"a": 10**309}},
])
def test_integers_beyond_a_double_are_out_of_range_like_1e309(raw):
    a = parse_action(raw)
    assert a.kind == "invalid" and "out of range; send finite numbers" in a.text


def test_large_integers_a_double_holds_still_parse():
    big = int(1.7e308)
    assert parse_action(json.dumps({"name": "get_x", "arguments": {"a": big}})).arguments \
        == {"a": big}


def test_a_stray_quote_before_the_call_does_not_hide_its_depth():
    # from the start of the text the quote pairs with one inside the call, so the call's
    # brackets look like string content; the object from its first brace is checked too
    raw = 'He said "hi. {"name": "get_x", "arguments": {"v": ' + "[" * 200 + "]" * 200 + "}}"
    a = parse_action(raw)
    assert a.kind == "invalid" and f"{MAX_ACTION_DEPTH} levels" in a.text
