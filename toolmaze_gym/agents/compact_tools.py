"""Compact tool documentation: the facts of the JSON schemas in far fewer tokens.

On CPU a model's prefill dominates, and a first turn with 9–19 JSON tool schemas
is 3–4k tokens, mostly braces, quotes and repeated keys. This renders the same
facts — each tool's name and description (which states what it returns), each
parameter's name, type, whether it is required, enum, numeric range, length
bounds, pattern, default and description — as a few plain lines per tool, to be
placed in the system prompt instead of the chat template's JSON ``<tools>`` block.

A schema keyword this renderer does not know is written as ``key=<json>``, so no
fact is ever dropped silently.

``brief`` docs are shorter still, for a small model on a CPU whose every step pays
for each prompt token twice (once in training, once per evaluated turn): the
response is named field by field without each field's gloss (``Returns: city,
temperature_c, ...``). The arguments and their bounds, the tool's own sentence and
the relations between fields (``line_total = unit_price × qty``) stay; what goes is
what each returned value is and where it lies (``never negative``, ``within the
city's climate band``, ``equals the requested city``), which are witnesses of
silent faults. So brief docs trade P3–P4 evidence for a first turn about a third
shorter: compare runs only under the same docs.
"""

from __future__ import annotations

import json
from typing import Any

HEADER = ("# Tools\n"
          "Each tool: its name, what it does and returns, then one line per argument: "
          "name: type (required unless marked optional; allowed values, ranges inclusive, "
          "len = length in characters, re = regular expression) - meaning.")
CALL_FORMAT = ('Call a tool with one JSON object inside <tool_call></tool_call> tags: '
               '<tool_call>\n{"name": <tool-name>, "arguments": <args-json-object>}\n</tool_call>')

_KNOWN = {"type", "description", "enum", "minimum", "maximum", "exclusiveMinimum",
          "exclusiveMaximum", "minLength", "maxLength", "pattern", "default"}


def render_tools(tools: list[dict[str, Any]], brief: bool = False) -> str:
    """The compact documentation of ``tools`` (OpenAI function schemas); ``brief``:
    the response's fields by name only (:func:`brief_description`)."""
    return "\n\n".join([HEADER, *(render_tool(t, brief) for t in tools), CALL_FORMAT])


def system_with_tools(messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                      brief: bool = False) -> list[dict[str, Any]]:
    """A copy of ``messages`` whose system message ends with the compact tool docs
    (a system message is inserted when there is none)."""
    docs = render_tools(tools, brief)
    out = [dict(m) for m in messages]
    if out and out[0].get("role") == "system":
        out[0]["content"] = f"{out[0].get('content') or ''}\n\n{docs}"
    else:
        out.insert(0, {"role": "system", "content": docs})
    return out


def render_tool(tool: dict[str, Any], brief: bool = False) -> str:
    fn = tool.get("function", tool)
    params = fn.get("parameters") or {}
    props: dict[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or ())
    lines = [f"## {fn['name']}"]
    if fn.get("description"):
        text = str(fn["description"])
        lines.append(brief_description(text) if brief else text)
    for name, schema in props.items():
        lines.append(f"- {_param(name, schema, name in required)}")
    extra = {k: v for k, v in params.items()
             if k not in {"type", "properties", "required", "additionalProperties"}}
    if params.get("additionalProperties", True) is not False:
        lines.append("Other arguments are accepted too.")
    if extra:
        lines.append(" ".join(f"{k}={_json(v)}" for k, v in extra.items()))
    return "\n".join(lines)


RETURNS = " Returns: "


def brief_description(text: str) -> str:
    """A tool description (``ToolSpec.doc``: ``<what it does> Returns: name (gloss);
    name (gloss). <relations>``) with the glosses left out: ``<what it does>
    Returns: name, name. <relations>``. A description in another shape (a gloss that
    never closes, no ``Returns:``) is returned as it is, so nothing is cut blindly."""
    head, sep, rest = text.partition(RETURNS)
    if not sep:
        return text
    names, field, depth, closed = [], "", 0, False
    for i, ch in enumerate(rest):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            closed = depth == 0
            if depth < 0:
                return text
        elif depth == 0 and closed and ch in ";.":
            names.append(field.strip())
            field, closed = "", False
            if ch == ".":
                return f"{head}{RETURNS}{', '.join(names)}.{rest[i + 1:]}"
        elif depth == 0:
            field += ch
    return text


def _param(name: str, schema: dict[str, Any], required: bool) -> str:
    kind = schema.get("type", "any")
    kind = "|".join(kind) if isinstance(kind, list) else str(kind)
    facts = [] if required else ["optional"]
    if "enum" in schema:
        facts.append("one of " + ", ".join(_json(v) for v in schema["enum"]))
    facts += bounds(schema)
    if "pattern" in schema:
        facts.append(f"re {schema['pattern']}")
    if "default" in schema:
        facts.append(f"default {_json(schema['default'])}")
    facts += [f"{k}={_json(v)}" for k, v in schema.items() if k not in _KNOWN]
    text = f"{name}: {kind}"
    if facts:
        text += f" ({'; '.join(facts)})"
    if schema.get("description"):
        text += f" - {schema['description']}"
    return text


def bounds(schema: dict[str, Any]) -> list[str]:
    """The numeric range and length bounds of a parameter schema, as every prompt of
    the project writes them (compact docs here, the GRPO tool methods' descriptions):
    ``a..b`` for inclusive bounds, ``>= a`` / ``<= b`` for one, ``> a`` / ``< b`` for
    exclusive ones, and ``len ...`` for string lengths."""
    facts = _range(schema, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    return facts + [f"len {x}" for x in _range(schema, "minLength", "maxLength", None, None)]


def _range(schema: dict[str, Any], lo: str, hi: str, xlo: str | None,
           xhi: str | None) -> list[str]:
    """``a..b`` for inclusive bounds, ``>= a`` / ``<= b`` for one, ``> a`` / ``< b``
    for exclusive ones."""
    low, high = schema.get(lo), schema.get(hi)
    out = []
    if low is not None and high is not None:
        out.append(f"{_json(low)}..{_json(high)}")
    elif low is not None:
        out.append(f">= {_json(low)}")
    elif high is not None:
        out.append(f"<= {_json(high)}")
    if xlo and schema.get(xlo) is not None:
        out.append(f"> {_json(schema[xlo])}")
    if xhi and schema.get(xhi) is not None:
        out.append(f"< {_json(schema[xhi])}")
    return out


def _json(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)
