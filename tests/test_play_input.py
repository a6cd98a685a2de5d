"""The play syntax: what a person types becomes the action a model would send, or a
command, or a one-line complaint; nothing raises."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.play_input import Bad, Command, Send, parse_line
from toolmaze_gym.transcript import RESERVED_SCHEMAS


def _tool(name: str, **props: str) -> dict:
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": {k: {"type": t} for k, t in props.items()}}}}


TOOLS = {t["function"]["name"]: t for t in [
    _tool("get_quote_snapshot", symbol="string"),
    _tool("convert_currency", amount="number", source="string", target="string"),
    _tool("set_light_state", light_id="string", on="boolean"),
    _tool("ship", zip="string", items="array"),
    *RESERVED_SCHEMAS]}


def _sent(line: str) -> dict:
    parsed = parse_line(line, TOOLS)
    assert isinstance(parsed, Send), parsed
    return json.loads(parsed.text)


@pytest.mark.parametrize("line, name, arguments", [
    ("get_quote_snapshot symbol=AAPL", "get_quote_snapshot", {"symbol": "AAPL"}),
    ('get_quote_snapshot {"symbol": "AAPL"}', "get_quote_snapshot", {"symbol": "AAPL"}),
    ("convert_currency amount=12.5 source=USD target=EUR", "convert_currency",
     {"amount": 12.5, "source": "USD", "target": "EUR"}),
    ("set_light_state light_id=LT-1 on=true", "set_light_state",
     {"light_id": "LT-1", "on": True}),
    ('ship zip=01234 items=["a","b"]', "ship", {"zip": "01234", "items": ["a", "b"]}),
    ("ship zip=true", "ship", {"zip": "true"}),  # a string parameter keeps its text
    ("convert_currency amount=lots", "convert_currency", {"amount": "lots"}),  # env decides
    ('get_quote_snapshot symbol="two words"', "get_quote_snapshot", {"symbol": "two words"}),
    ("get_quote_snapshot symbol='it is'", "get_quote_snapshot", {"symbol": "it is"}),
    ('get_quote_snapshot symbol="say \\"hi\\""', "get_quote_snapshot",
     {"symbol": 'say "hi"'}),
    ('convert_currency amount="12"', "convert_currency", {"amount": "12"}),
    ("get_quote_snapshot", "get_quote_snapshot", {}),
    ("finish The share costs 189.23 EUR.", "finish", {"answer": "The share costs 189.23 EUR."}),
    ("abort the quote service is down", "abort", {"reason": "the quote service is down"}),
    ('finish {"answer": "x"}', "finish", {"answer": "x"}),
])
def test_play_syntax_becomes_a_json_call(line, name, arguments):
    assert _sent(line) == {"name": name, "arguments": arguments}


@pytest.mark.parametrize("line", [
    '{"name": "no_such_tool", "arguments": {}}',
    "<tool_call>{broken</tool_call>",
    '```json\n{"name": "x"}```',
])
def test_the_agents_own_formats_pass_verbatim(line):
    assert parse_line(line, TOOLS) == Send(line)


def test_a_json_string_line_and_raw_send_their_text():
    assert parse_line(json.dumps("<tool_call>\n{}\n</tool_call>"), TOOLS) == \
        Send("<tool_call>\n{}\n</tool_call>")
    assert parse_line("raw I am done.", TOOLS) == Send("I am done.")


@pytest.mark.parametrize("line, command", [
    ("help", Command("help")), ("tools", Command("tools")), ("history", Command("history")),
    ("doc convert_currency", Command("doc", "convert_currency")), ("quit", Command("quit")),
])
def test_commands(line, command):
    assert parse_line(line, TOOLS) == command


@pytest.mark.parametrize("line", ["", "   ", "# a comment"])
def test_blank_lines_and_comments_are_nothing(line):
    assert parse_line(line, TOOLS) is None


@pytest.mark.parametrize("line, message", [
    ("get_quote symbol=AAPL", "unknown tool or command 'get_quote' (did you mean "
                              "get_quote_snapshot?)"),
    ("get_quote_snapshot AAPL", "expected KEY=VALUE or a JSON object, got 'AAPL'"),
    ("get_quote_snapshot symbol=A symbol=B", "the argument 'symbol' is given twice"),
    ("get_quote_snapshot =A", "expected KEY=VALUE"),
    ('get_quote_snapshot symbol="open', "the value of symbol is not a valid JSON string"),
    ("get_quote_snapshot symbol='open", "the value of symbol has no closing quote"),
    ("ship items=[1,", "the value of items is not a valid JSON list or object"),
    ('get_quote_snapshot {"symbol": ', "the arguments are not valid JSON at column"),
    ('get_quote_snapshot ["AAPL"]', "expected KEY=VALUE"),
    ('get_quote_snapshot {"a": 1} x', "the arguments are not valid JSON"),
    ('{"name": "finish",', "not valid JSON at column"),
    ('{"name"} ', "not valid JSON"),
    ('"unclosed', "not a valid JSON string"),
    ('""', "one non-empty JSON string"),
    ("raw", "raw needs the text"),
    ("doc", "doc needs a tool name"),
    ("doc nothing", "unknown tool or command 'nothing'"),
    ("help me", "help takes nothing after it"),
    ('finish {"answer": ', "finish: the arguments are not valid JSON"),
])
def test_mistakes_are_one_line_and_never_an_action(line, message):
    parsed = parse_line(line, TOOLS)
    assert isinstance(parsed, Bad), parsed
    assert message in parsed.message and "\n" not in parsed.message


def test_endings_need_their_schemas_to_be_shown():
    tools = {k: v for k, v in TOOLS.items() if k != "abort"}
    assert isinstance(parse_line("abort why", tools), Bad)


def test_no_tool_of_the_corpus_is_shadowed_by_a_command(corpus):
    from toolmaze_gym.play_input import COMMANDS

    assert not {*COMMANDS, "raw"} & set(corpus.tools)


def test_every_reference_call_of_the_suite_can_be_typed_as_key_value_pairs(sim):
    """Each expected call of every suite task, typed as KEY=VALUE (strings bare when they
    have no space or quote, else as JSON strings), reaches the env with its arguments."""
    from toolmaze_gym.tasks.suite import load_suite
    from toolmaze_gym.transcript import episode_tools

    for task in load_suite():
        tools = {t["function"]["name"]: t for t in episode_tools(task, sim)}
        for call in task.default_path.calls:
            props = tools[call.tool]["function"]["parameters"]["properties"]
            pairs = [f"{k}={_typed_form(v, props[k].get('type'))}" for k, v in call.args.items()]
            assert _sent_with(tools, f"{call.tool} {' '.join(pairs)}") == \
                {"name": call.tool, "arguments": call.args}, (task.id, call.tool)


def _typed_form(value, kind) -> str:
    """How a person would type ``value``: bare text for a plain string parameter, else
    JSON."""
    plain = isinstance(value, str) and value and kind == "string" \
        and not any(c.isspace() or c in "\"'[{" for c in value)
    return value if plain else json.dumps(value, ensure_ascii=False)


def _sent_with(tools: dict, line: str) -> dict:
    parsed = parse_line(line, tools)
    assert isinstance(parsed, Send), (line, parsed)
    return json.loads(parsed.text)
