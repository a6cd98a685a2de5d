"""Parsing raw model text into an action.

Models emit calls in several dialects: a bare JSON object, Hermes/Qwen
``<tool_call>…</tool_call>`` blocks, OpenAI ``tool_calls`` payloads, often in a
code fence. A Python dict or list in the OpenAI shape (an assistant message with
``tool_calls``, a ``tool_calls`` list, one call) is accepted as well, because
that is what chat-completion clients hand back. ``finish`` and ``abort`` are
reserved calls. Text with no call intent is the final answer; text that tries to
call but is broken is ``invalid`` and gets a 400 observation. Parsing never raises.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

RESERVED = ("finish", "abort")
MAX_ACTION_CHARS = 16_384

_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"```(?:json|tool_call|tool)?\s*(.*?)```", re.S)
_INTENT = re.compile(r"<tool_call>|\"tool_calls\"|\"name\"\s*:|\"function\"\s*:", re.S)


@dataclass(frozen=True)
class Action:
    kind: str  # "call" | "finish" | "abort" | "answer" | "invalid"
    name: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    text: str = ""  # the final answer, or why the action is invalid

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.name:
            d["name"] = self.name
            d["arguments"] = self.arguments
        if self.text:
            d["text"] = self.text
        return d


def _from_obj(obj: Any) -> Action | None:
    """An action from one decoded JSON value, or None if it is not call-shaped."""
    if isinstance(obj, list):
        return _from_obj(obj[0]) if obj else None
    if not isinstance(obj, dict):
        return None
    if "tool_calls" in obj:
        calls = obj["tool_calls"]
        return _from_obj(calls[0]) if isinstance(calls, list) and calls else \
            Action("invalid", text="tool_calls must be a non-empty list")
    if isinstance(obj.get("function"), dict):
        return _from_obj(obj["function"])
    name = obj.get("name", obj.get("tool"))
    if not isinstance(name, str) or not name.strip():
        return None
    args = obj.get("arguments", obj.get("parameters", obj.get("args", {})))
    if isinstance(args, str):
        try:
            args = _DECODER.decode(args) if args.strip() else {}
        except NonFinite as exc:
            return Action("invalid", name=name.strip(), text=f"{exc}; send finite numbers")
        except (json.JSONDecodeError, RecursionError):
            return Action("invalid", name=name.strip(), text="arguments are not valid JSON")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return Action("invalid", name=name.strip(), text="arguments must be a JSON object")
    name = name.strip()
    if name in RESERVED:
        answer = args.get("answer", args.get("reason", args.get("message", "")))
        return Action(name, text=answer if isinstance(answer, str) else json.dumps(answer))
    return Action("call", name=name, arguments=args)


class NonFinite(ValueError):
    """NaN or an infinity in a call: not JSON, and no API would accept it."""


def _reject_constant(name: str) -> Any:
    raise NonFinite(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NonFinite(f"number {text} is out of range")
    return value


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


def _decode(text: str) -> Any:
    text = text.strip()
    try:
        return _DECODER.decode(text)
    except NonFinite:
        raise
    except (json.JSONDecodeError, RecursionError):
        pass
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object")
    obj, _ = _DECODER.raw_decode(text[start:])
    return obj


def action_text(raw: Any) -> str:
    """The text recorded for ``raw``: itself for a string, JSON for a dict or list (so
    the trajectory stays JSON), ``repr`` for anything else."""
    if isinstance(raw, str):
        return raw
    if isinstance(raw, dict | list):
        try:
            return json.dumps(raw, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            pass
    return repr(raw)


def _parse_structured(raw: dict[str, Any] | list[Any]) -> Action:
    """A dict or list in OpenAI shape: re-read as JSON, so it passes the same checks as
    text; an assistant message without calls is the final answer (its content)."""
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
    except ValueError:
        return Action("invalid", text="arguments contain NaN or an infinity; send finite numbers")
    except (TypeError, RecursionError):
        return Action("invalid", text="action is not JSON-serialisable; send strings, numbers, "
                      "booleans, lists and objects only")
    if len(text) > MAX_ACTION_CHARS:
        return Action("invalid", text=f"action longer than {MAX_ACTION_CHARS} characters")
    obj = json.loads(text)
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
    candidates = [m.group(1) for m in _TOOL_CALL.finditer(raw)]
    candidates += [m.group(1) for m in _FENCE.finditer(raw)]
    candidates.append(raw)
    for chunk in candidates:
        try:
            action = _from_obj(_decode(chunk))
        except NonFinite as exc:
            return Action("invalid", text=f"{exc}; send finite numbers")
        except (ValueError, RecursionError, TypeError):
            continue
        if action is not None:
            return action
    if _INTENT.search(raw):
        return Action("invalid", text="could not parse the tool call; send "
                      '{"name": TOOL, "arguments": {...}} or <tool_call>…</tool_call>')
    return Action("answer", text=raw.strip())
