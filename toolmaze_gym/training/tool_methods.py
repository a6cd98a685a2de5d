"""ToolMaze tool schemas as Python methods, the form TRL's ``environment_factory`` takes.

TRL 1.16 turns every public method of an environment class into a tool and renders
its schema with ``transformers.utils.get_json_schema`` (type hints for the types,
a Google-style docstring for the descriptions, parameters without a default are
required). The catalogue is fixed per class, and ToolMaze tasks each offer their
own 9–19 of 270 tools, so one class per tool set is generated here; the trainer
gets a ``{tool-set key: class}`` mapping (TRL's multi-environment mode, where
each example's ``environment`` column picks the class and only that class's
tools are shown). The model then calls ``get_quote_snapshot(symbol=...)``
exactly as it does in evaluation, not through a generic ``call_tool`` wrapper
whose call format would not transfer.

``get_json_schema`` knows types, descriptions and enums (a trailing
``(choices: [...])``); the other facts of a schema (ranges, lengths, patterns,
defaults) are written into the parameter's description, as the compact tool
rendering does. A parameter named like a Python keyword (``from``) cannot be
declared in a signature; its ``inspect.Parameter`` is built under a stand-in name
and renamed (the method itself takes ``**arguments``, so calls pass any name).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Callable
from typing import Any

from toolmaze_gym.agents.compact_tools import bounds

_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool,
                           "array": list, "object": dict}
# get_json_schema cuts a description at the first "Args:", "Returns:" or "Raises:".
_SECTION = re.compile(r"\b(Args|Returns|Raises):")


def toolset_key(tools: list[dict[str, Any]]) -> str:
    """A short stable name for a set of tools (order-insensitive)."""
    names = sorted(t.get("function", t)["name"] for t in tools)
    return hashlib.blake2b("\n".join(names).encode(), digest_size=6).hexdigest()


def _text(value: Any) -> str:
    return re.sub(r"\s+", " ", _SECTION.sub(r"\1 -", str(value or ""))).strip()


def _facts(schema: dict[str, Any]) -> list[str]:
    """The facts of a parameter schema that ``get_json_schema`` cannot express, worded
    as the compact tool docs word them (one bounds renderer for every prompt)."""
    facts = bounds(schema)
    if "pattern" in schema:
        facts.append(f"re {schema['pattern']}")
    if "default" in schema:
        facts.append(f"default {json.dumps(schema['default'], ensure_ascii=False)}")
    return facts


def describe(schema: dict[str, Any]) -> str:
    """A parameter's docstring line: its description, the facts, then the enum as
    ``get_json_schema`` parses it."""
    text = _text(schema.get("description")) or "(no description)"
    facts = _facts(schema)
    if facts:
        text += f" ({'; '.join(facts)})"
    if "enum" in schema:
        text += f" (choices: {json.dumps(schema['enum'], ensure_ascii=False)})"
    return text


def _parameter(name: str, annotation: type, required: bool) -> inspect.Parameter:
    default = inspect.Parameter.empty if required else None
    if name.isidentifier() and not _is_keyword(name):
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                 annotation=annotation)
    param = inspect.Parameter("_arg", inspect.Parameter.KEYWORD_ONLY, default=default,
                              annotation=annotation)
    param._name = name  # type: ignore[attr-defined]  # see the module docstring
    return param


def _is_keyword(name: str) -> bool:
    import keyword

    return keyword.iskeyword(name)


def tool_method(tool: dict[str, Any], call: Callable[[Any, str, dict[str, Any]], str]
                ) -> Callable[..., str]:
    """A method named after ``tool`` whose schema (per ``get_json_schema``) carries the
    tool's description and parameters; calling it runs ``call(self, name, arguments)``."""
    fn = tool.get("function", tool)
    name = fn["name"]
    params = fn.get("parameters") or {}
    props: dict[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or ())

    def method(self: Any, **arguments: Any) -> str:
        return call(self, name, arguments)

    annotations = {p: _TYPES.get(str(s.get("type")), str) for p, s in props.items()}
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    signature += [_parameter(p, annotations[p], p in required) for p in props]
    method.__name__ = method.__qualname__ = name
    # no return annotation: get_json_schema would add a "return" entry to the prompt
    method.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        signature, __validate_parameters__=False)
    method.__annotations__ = annotations
    args = "\n".join(f"    {p}: {describe(s)}" for p, s in props.items())
    method.__doc__ = _text(fn.get("description")) or name
    if args:
        method.__doc__ += f"\n\nArgs:\n{args}"
    return method
