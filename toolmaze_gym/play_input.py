"""What a person types in ``toolmaze play``, turned into an env action or a command.

A person at a terminal should not have to type the JSON a model emits, and a
typo should not cost a step. So there are two kinds of input:

* the play syntax, checked here before anything reaches the env (a mistake gets a
  one-line message and costs nothing):

      get_quote_snapshot symbol=AAPL            KEY=VALUE pairs
      get_quote_snapshot {"symbol": "AAPL"}     or the arguments as a JSON object
      finish The share costs 189.23 EUR.        the final answer
      abort the quote service is down           why the task cannot be done
      help | tools | doc NAME | history | quit  commands: no step

  A bare VALUE (up to the next space) is text for a parameter the schema types as a
  string and JSON otherwise (``amount=12.5``, ``on=true``), so ``symbol=AAPL`` and
  ``zip=01234`` stay strings; ``note="two words"`` (a JSON string), ``note='two words'``
  and ``ids=["a","b"]`` (JSON) are taken as written. The tool must be one the episode
  shows.

* the agent's own formats, passed to the env verbatim, so a replay of model text
  meets exactly what the model met (a 400 for a broken call, a 404 for an unknown
  tool): a JSON object line (``{"name": ..., "arguments": {...}}``, checked only to
  be JSON), a line starting with ``<tool_call>`` or a code fence, a JSON string
  (raw text that may hold newlines), and ``raw TEXT`` (any text, e.g. a plain answer).

Parsing never raises.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COMMANDS = ("help", "tools", "doc", "history", "quit")
ENDINGS = {"finish": "answer", "abort": "reason"}
VERBATIM_STARTS = ("<tool_call>", "```")

HELP = """\
One action per line; an action is one step of the episode, a command costs nothing.
  TOOL KEY=VALUE ...        call a tool (quote text with spaces: note="two words";
                            ids=["a","b"] is a JSON list)
  TOOL {"key": "value"}     the same with the arguments as a JSON object
  finish ANSWER             end the episode with your final answer
  abort REASON              end the episode: the request cannot be completed
  {"name": ..., "arguments": {...}} | <tool_call>...</tool_call> | raw TEXT
                            text as a model would send it (to the env verbatim);
                            a line "..." is a JSON string of such text (newlines: \\n)
Commands: help, tools (the tool list), doc NAME (one tool's documentation),
history (the steps so far), quit (stop here and see the grade)."""


@dataclass(frozen=True)
class Send:
    """One action for the env: the raw text a model would have sent."""

    text: str


@dataclass(frozen=True)
class Command:
    """A command that costs no step (``help``, ``tools``, ``doc NAME``, ...)."""

    name: str
    arg: str = ""


@dataclass(frozen=True)
class Bad:
    """Input that is neither an action nor a command; ``message`` is one line."""

    message: str


Parsed = Send | Command | Bad | None  # None: a blank line or a comment


def parse_line(line: str, tools: Mapping[str, Mapping[str, Any]]) -> Parsed:
    """Read one line of play input. ``tools``: the episode's OpenAI schemas by name
    (``finish`` and ``abort`` included); they decide which names exist and how
    KEY=VALUE values are typed."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith(VERBATIM_STARTS):
        return Send(text)
    if text.startswith("{"):
        return _json_object_line(text)
    if text.startswith('"'):
        return _json_string_line(text)
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if word == "raw":
        return Send(rest) if rest else Bad("raw needs the text to send, e.g. raw Done.")
    if word in COMMANDS:
        return _command(word, rest, tools)
    if word in ENDINGS and word in tools:
        return _ending(word, rest)
    if word not in tools:
        return Bad(_unknown(word, tools))
    arguments = _arguments(word, rest, tools[word])
    if isinstance(arguments, Bad):
        return arguments
    return Send(json.dumps({"name": word, "arguments": arguments}, ensure_ascii=False))


def _json_object_line(text: str) -> Parsed:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return Bad(f"not valid JSON at column {exc.colno} ({exc.msg}); send "
                   '{"name": TOOL, "arguments": {...}}')
    if not isinstance(obj, dict):
        return Bad("a JSON line must be an object")
    return Send(text)


def _json_string_line(text: str) -> Parsed:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return Bad(f"not a valid JSON string at column {exc.colno} ({exc.msg})")
    if not isinstance(obj, str) or not obj.strip():
        return Bad("a quoted line must be one non-empty JSON string (raw model text)")
    return Send(obj)


def _command(word: str, rest: str, tools: Mapping[str, Any]) -> Parsed:
    if word == "doc":
        if not rest:
            return Bad("doc needs a tool name, e.g. doc " + next(iter(tools), "finish"))
        if rest not in tools:
            return Bad(_unknown(rest, tools))
        return Command("doc", rest)
    if rest:
        return Bad(f"{word} takes nothing after it")
    return Command(word)


def _ending(word: str, rest: str) -> Parsed:
    if rest.startswith("{"):
        try:
            args = json.loads(rest)
        except json.JSONDecodeError as exc:
            return Bad(f"{word}: the arguments are not valid JSON at column {exc.colno} "
                       f"({exc.msg})")
        if not isinstance(args, dict):
            return Bad(f"{word}: the arguments must be a JSON object")
    else:
        args = {ENDINGS[word]: rest}
    return Send(json.dumps({"name": word, "arguments": args}, ensure_ascii=False))


def _unknown(word: str, tools: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(word, list(tools) + list(COMMANDS), n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown tool or command {word!r}{hint}; `tools` lists the tools, `help` the syntax"


def _arguments(tool: str, rest: str, schema: Mapping[str, Any]) -> dict[str, Any] | Bad:
    """The arguments after a tool name: a JSON object, or KEY=VALUE pairs."""
    if not rest:
        return {}
    if rest.startswith("{"):
        try:
            args = json.loads(rest)
        except json.JSONDecodeError as exc:
            return Bad(f"{tool}: the arguments are not valid JSON at column {exc.colno} "
                       f"({exc.msg})")
        if not isinstance(args, dict):
            return Bad(f"{tool}: the arguments must be a JSON object")
        return args
    pairs = _pairs(rest)
    if isinstance(pairs, str):
        return Bad(f"{tool}: {pairs}")
    props = _properties(schema)
    out: dict[str, Any] = {}
    for key, value, quoted in pairs:
        if key in out:
            return Bad(f"{tool}: the argument {key!r} is given twice")
        out[key] = value if quoted else _typed(value, props.get(key))
    return out


_KEY = re.compile(r"\s*([A-Za-z_][\w.-]*)=")
_DECODER = json.JSONDecoder()


def _pairs(rest: str) -> list[tuple[str, Any, bool]] | str:
    """KEY=VALUE pairs, or what is wrong. A value is a bare word (up to a space), a
    JSON string ("two words", with JSON escapes), a 'single-quoted' text, or a JSON
    list or object; those are taken as they are, whatever the parameter's type."""
    out: list[tuple[str, Any, bool]] = []
    pos = 0
    while pos < len(rest.rstrip()):
        m = _KEY.match(rest, pos)
        if m is None:
            token = rest[pos:].split()[0]
            return f"expected KEY=VALUE or a JSON object, got {token!r}"
        pos = m.end()
        value, quoted, pos = _value(rest, pos)
        if isinstance(value, _Error):
            return f"the value of {m.group(1)} {value.message}"
        out.append((m.group(1), value, quoted))
    return out


class _Error:
    def __init__(self, message: str) -> None:
        self.message = message


def _value(text: str, pos: int) -> tuple[Any, bool, int]:
    """(value, quoted, position after it) for the value starting at ``pos``."""
    first = text[pos:pos + 1]
    if first in ('"', "[", "{"):
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            what = "string" if first == '"' else "list or object"
            return _Error(f"is not a valid JSON {what} ({exc.msg}; quote text with spaces: "
                          'note="two words")'), False, pos
        return value, True, end
    if first == "'":
        end = text.find("'", pos + 1)
        if end < 0:
            return _Error("has no closing quote '"), False, pos
        return text[pos + 1:end], True, end + 1
    end = pos
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[pos:end], False, end


def _properties(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    fn = schema.get("function", schema)
    params = fn.get("parameters") if isinstance(fn, Mapping) else None
    props = params.get("properties") if isinstance(params, Mapping) else None
    return props if isinstance(props, Mapping) else {}


def _typed(value: str, schema: Any) -> Any:
    """A KEY=VALUE value: text where the parameter takes a string, else JSON when it
    parses (a number, a boolean, a list), else the text (the env then says what is
    wrong, as it would to an agent)."""
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind]
    if "string" in kinds:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value
