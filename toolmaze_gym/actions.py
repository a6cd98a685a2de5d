"""Parsing raw model text into an action.

Models emit calls in several dialects: a bare JSON object, Hermes/Qwen
``<tool_call>…</tool_call>`` blocks, OpenAI ``tool_calls`` payloads, often in a
code fence. A Python dict or list in the OpenAI shape (an assistant message with
``tool_calls``, a ``tool_calls`` list, one call) is accepted as well, because
that is what chat-completion clients hand back. ``finish`` and ``abort`` are
reserved calls. Text with no call intent is the final answer; text that tries to
call but is broken is ``invalid`` and gets a 400 observation. Parsing never raises.

Agent data is bounded before anything recursive sees it: text longer than
``MAX_ACTION_CHARS`` or nested deeper than ``MAX_ACTION_DEPTH`` is refused by a flat
scan (text) or a flat walk (Python objects, cycles included) before ``json`` decodes
or encodes it, so no later layer (simulator, grading, records) meets a structure
deep enough to exhaust the stack. An action holding several calls runs the first;
``Action.calls`` says how many it held, so the agent can be told (``several_calls``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

RESERVED = ("finish", "abort")
MAX_ACTION_CHARS = 16_384
# JSON nesting ([ and {) allowed in an action and in its arguments: a tool call needs
# about 5 levels around its arguments, and no tool's schema nests more than a few.
MAX_ACTION_DEPTH = 64

_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"```(?:json|tool_call|tool)?\s*(.*?)```", re.S)
_INTENT = re.compile(r"<tool_call>|\"tool_calls\"|\"name\"\s*:|\"function\"\s*:", re.S)
# A JSON string (to its closing quote, or to the end when unterminated), or a bracket.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


@dataclass(frozen=True)
class Action:
    kind: str  # "call" | "finish" | "abort" | "answer" | "invalid"
    name: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    text: str = ""  # the final answer, or why the action is invalid
    calls: int = 1  # calls the action held; only the first is taken

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.name:
            d["name"] = self.name
            d["arguments"] = self.arguments
        if self.text:
            d["text"] = self.text
        if self.calls > 1:
            d["calls"] = self.calls
        return d


def several_calls(action: Mapping[str, Any]) -> str:
    """What to tell an agent whose action (``Action.to_dict()``) held several calls:
    which one was taken; "" for an action of one call."""
    n = action.get("calls", 1)
    if not isinstance(n, int) or n < 2:
        return ""
    if action.get("kind") == "call":
        taken = f"only the first (`{action.get('name')}`) ran"
    else:
        taken = "only the first was read, and it was not a valid call"
    return f"{n} tool calls in one action: {taken}; send one call per action"


class NonFinite(ValueError):
    """NaN or an infinity in a call: not JSON, and no API would accept it."""


class TooDeep(ValueError):
    """JSON nested beyond ``MAX_ACTION_DEPTH``: refused before it is decoded."""

    def __init__(self) -> None:
        super().__init__(f"action nested deeper than {MAX_ACTION_DEPTH} levels "
                         "(MAX_ACTION_DEPTH)")


def _reject_constant(name: str) -> Any:
    raise NonFinite(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NonFinite(f"number {text} is out of range")
    return value


def _finite_int(text: str) -> int:
    """An integer JSON number, refused (like 1e309) beyond the range of a double, which
    is what any JSON API reads numbers into."""
    if len(text) > _INT_DIGITS:
        value = int(text) if len(text) <= _INT_DIGITS + 2 else None
        if value is None or abs(value) > _FLOAT_MAX:
            raise NonFinite(f"number {text[:12]}… ({len(text)} digits) is out of range")
        return value
    return int(text)


_FLOAT_MAX = int(sys.float_info.max)
_INT_DIGITS = len(str(_FLOAT_MAX)) - 1  # shorter integers are always in range
_LONG_DIGITS = re.compile(f"[0-9]{{{_INT_DIGITS + 1}}}")
_PLAIN = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
# integers checked too: slower (a Python call per integer), so only for text that holds
# a run of digits long enough to be out of range
_STRICT = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float,
                           parse_int=_finite_int)


def _decoder(text: str) -> json.JSONDecoder:
    """The decoder for ``text``: the strict one when it may hold an out-of-range integer."""
    return _STRICT if len(text) > _INT_DIGITS and _LONG_DIGITS.search(text) else _PLAIN


def _check_depth(text: str) -> None:
    """Raise ``TooDeep`` when ``text`` nests ``[``/``{`` (outside JSON strings) beyond
    the limit: a flat scan, because json's decoder recurses once per level."""
    if text.count("{") + text.count("[") <= MAX_ACTION_DEPTH:
        return  # the usual action: too few brackets to be deep
    depth = 0
    for m in _STRING_OR_BRACKET.finditer(text):
        c = text[m.start()]
        if c in "[{":
            depth += 1
            if depth > MAX_ACTION_DEPTH:
                raise TooDeep()
        elif c in "]}":
            depth = max(depth - 1, 0)


def _loads(text: str) -> Any:
    """One JSON value from the whole of ``text``, depth-checked first."""
    _check_depth(text)
    return _decoder(text).decode(text)


def _shape_problem(obj: Any) -> str:
    """Why a Python action is refused before it is serialised ("" if it is not): too
    deep (a cycle is infinitely deep) or too large, found by a flat, bounded walk."""
    stack = [(obj, 1)]
    size = 0
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            size += len(value) + 2
        elif isinstance(value, dict | list | tuple):
            if depth > MAX_ACTION_DEPTH:
                return str(TooDeep())
            size += 2 + 2 * len(value)
            if size > MAX_ACTION_CHARS:  # before the items are queued: a bounded walk
                break
            if isinstance(value, dict):
                size += sum(len(k) + 2 for k in value if isinstance(k, str))
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)
        else:
            size += 1
        if size > MAX_ACTION_CHARS:
            break
    return f"action longer than {MAX_ACTION_CHARS} characters" \
        if size > MAX_ACTION_CHARS else ""


def _from_obj(obj: Any) -> Action | None:
    """An action from one decoded JSON value, or None if it is not call-shaped; a
    list or ``tool_calls`` of several calls gives the first, counted."""
    calls = 1
    while True:  # unwrap lists, tool_calls and function: one level per turn
        if isinstance(obj, list):
            if not obj:
                return None
            calls, obj = max(calls, len(obj)), obj[0]
        elif not isinstance(obj, dict):
            return None
        elif "tool_calls" in obj:
            tc = obj["tool_calls"]
            if not isinstance(tc, list) or not tc:
                return Action("invalid", text="tool_calls must be a non-empty list")
            calls, obj = max(calls, len(tc)), tc[0]
        elif isinstance(obj.get("function"), dict):
            obj = obj["function"]
        else:
            break
    action = _one_call(obj)
    return action if action is None or calls == 1 else replace(action, calls=calls)


def _one_call(obj: dict[str, Any]) -> Action | None:
    """The action of one call object (``name`` and ``arguments``), or None."""
    name = obj.get("name", obj.get("tool"))
    if not isinstance(name, str) or not name.strip():
        return None
    name = name.strip()
    args = obj.get("arguments", obj.get("parameters", obj.get("args", {})))
    if isinstance(args, str):
        try:
            args = _loads(args) if args.strip() else {}
        except (NonFinite, TooDeep) as exc:
            return Action("invalid", name=name, text=f"{exc}; send finite numbers"
                          if isinstance(exc, NonFinite) else str(exc))
        except (json.JSONDecodeError, RecursionError):
            return Action("invalid", name=name, text="arguments are not valid JSON")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return Action("invalid", name=name, text="arguments must be a JSON object")
    if name in RESERVED:
        answer = args.get("answer", args.get("reason", args.get("message", "")))
        return Action(name, text=answer if isinstance(answer, str) else json.dumps(answer))
    return Action("call", name=name, arguments=args)


def _decode(text: str) -> tuple[Any, str]:
    """The JSON value of ``text`` (the whole, else the object from its first ``{``)
    and the text after that object ("" when the whole text was one value)."""
    text = text.strip()
    _check_depth(text)
    decoder = _decoder(text)
    try:
        return decoder.decode(text), ""
    except NonFinite:
        raise
    except (json.JSONDecodeError, RecursionError):
        pass
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object")
    _check_depth(text[start:])  # prose before it may have paired the quotes otherwise
    obj, end = decoder.raw_decode(text, start)
    return obj, text[end:]


def _more_calls(rest: str) -> int:
    """How many further call objects follow a call in the same text (the objects tried
    are at most ``MAX_ACTION_DEPTH``, each depth-checked first: the count is bounded
    work whatever the text)."""
    n, pos = 0, rest.find("{")
    for _ in range(MAX_ACTION_DEPTH):
        if pos < 0:
            break
        try:
            _check_depth(rest[pos:])
            obj, end = _PLAIN.raw_decode(rest, pos)
        except (ValueError, RecursionError):
            pos = rest.find("{", pos + 1)
            continue
        action = _from_obj(obj)
        n += action.calls if action is not None else 0
        pos = rest.find("{", end)
    return n


def _chunk_calls(chunk: str) -> int:
    """How many calls one ``<tool_call>`` block or fence holds (0 if it is no call)."""
    try:
        obj, rest = _decode(chunk)
    except (ValueError, RecursionError):
        return 0
    action = _from_obj(obj)
    return 0 if action is None else action.calls + _more_calls(rest)


def action_text(raw: Any) -> str:
    """The text recorded for ``raw``: itself for a string, JSON for a dict or list (so
    the trajectory stays JSON), ``repr`` for anything else (a refused Python object:
    too deep or too large to print whole, only its type is named)."""
    if isinstance(raw, str):
        return raw
    if isinstance(raw, dict | list):
        problem = _shape_problem(raw)
        if problem:
            return f"<{type(raw).__name__} refused: {problem}>"
        try:
            return json.dumps(raw, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            pass
    try:
        return repr(raw)[:MAX_ACTION_CHARS]
    except Exception:  # an agent object's own __repr__ may fail in any way
        return f"<{type(raw).__name__}>"


def _parse_structured(raw: dict[str, Any] | list[Any]) -> Action:
    """A dict or list in OpenAI shape: re-read as JSON, so it passes the same checks as
    text; an assistant message without calls is the final answer (its content)."""
    problem = _shape_problem(raw)
    if problem:
        return Action("invalid", text=problem)
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
    except ValueError:
        return Action("invalid", text="arguments contain NaN or an infinity; send finite numbers")
    except (TypeError, RecursionError):
        return Action("invalid", text="action is not JSON-serialisable; send strings, numbers, "
                      "booleans, lists and objects only")
    if len(text) > MAX_ACTION_CHARS:
        return Action("invalid", text=f"action longer than {MAX_ACTION_CHARS} characters")
    try:
        obj = _decoder(text).decode(text)
    except NonFinite as exc:
        return Action("invalid", text=f"{exc}; send finite numbers")
    if isinstance(obj, dict) and not obj.get("tool_calls") and "content" in obj \
            and "name" not in obj and "function" not in obj:
        content = _content_text(obj["content"])
        if content is None:
            return Action("invalid", text="message content must be a string or a list of "
                          '{"type": "text", "text": ...} parts')
        return Action("answer", text=content.strip())
    action = _from_obj(obj)
    if action is None:
        return Action("invalid", text="not a tool call: send {\"name\": TOOL, \"arguments\": "
                      "{...}}, a tool_calls list, or an assistant message")
    return action


def _content_text(content: Any) -> str | None:
    """The text of an OpenAI message ``content`` (a string, None, or text parts)."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list) and all(
            isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
            for p in content):
        return "".join(p["text"] for p in content)
    return None


def parse_action(raw: Any) -> Action:
    """The action a raw model output (text, or a dict/list in OpenAI shape) expresses;
    never raises."""
    if isinstance(raw, dict | list):
        return _parse_structured(raw)
    if not isinstance(raw, str):
        return Action("invalid", text="action must be a string, or a dict/list in OpenAI "
                      "tool_calls shape")
    if len(raw) > MAX_ACTION_CHARS:
        return Action("invalid", text=f"action longer than {MAX_ACTION_CHARS} characters")
    blocks = [m.group(1) for m in _TOOL_CALL.finditer(raw)] if "<tool_call>" in raw else []
    fences = [m.group(1) for m in _FENCE.finditer(raw)] if "```" in raw else []
    deep = False
    for chunks in (blocks, fences, [raw]):
        for i, chunk in enumerate(chunks):
            try:
                obj, rest = _decode(chunk)
            except NonFinite as exc:
                return Action("invalid", text=f"{exc}; send finite numbers")
            except TooDeep:
                deep = True
                continue
            except (ValueError, RecursionError, TypeError):
                continue
            action = _from_obj(obj)
            if action is not None:
                more = _more_calls(rest) if "{" in rest else 0
                if i + 1 < len(chunks):
                    more += sum(_chunk_calls(c) for c in chunks[i + 1:])
                return replace(action, calls=action.calls + more) if more else action
    if _INTENT.search(raw):
        if deep:
            return Action("invalid", text=str(TooDeep()))
        return Action("invalid", text="could not parse the tool call; send "
                      '{"name": TOOL, "arguments": {...}} or <tool_call>…</tool_call>')
    return Action("answer", text=raw.strip())
