"""Compact tool rendering keeps every fact of the JSON schemas, in less text."""

from __future__ import annotations

import json

from toolmaze_gym.agents.compact_tools import (
    brief_description,
    render_tool,
    render_tools,
    system_with_tools,
)


def _param_line(text: str, name: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.startswith(f"- {name}: ")]
    assert len(lines) == 1, f"parameter {name!r} rendered {len(lines)} times"
    return lines[0]


def test_every_corpus_tool_keeps_names_types_enums_ranges_and_patterns(corpus):
    for spec in corpus.tools.values():
        schema = spec.openai_schema()
        fn = schema["function"]
        text = render_tool(schema)
        assert text.startswith(f"## {fn['name']}\n")
        assert fn["description"] in text
        params = fn["parameters"]
        for name, p in params["properties"].items():
            line = _param_line(text, name)
            assert line.startswith(f"- {name}: {p['type']}")
            assert ("optional" in line) is (name not in params["required"]), line
            for v in p.get("enum", ()):
                assert json.dumps(v) in line
            if "minimum" in p or "maximum" in p:
                lo, hi = p.get("minimum"), p.get("maximum")
                assert (f"{lo}..{hi}" if lo is not None and hi is not None
                        else f">= {lo}" if lo is not None else f"<= {hi}") in line
            if "minLength" in p or "maxLength" in p:
                lo, hi = p.get("minLength"), p.get("maxLength")
                assert (f"len {lo}..{hi}" if lo is not None and hi is not None
                        else f"len >= {lo}" if lo is not None else f"len <= {hi}") in line
            if "pattern" in p:
                assert f"re {p['pattern']}" in line
            if p.get("description"):
                assert line.endswith(f" - {p['description']}")
        assert ("Other arguments are accepted" in text) is (
            params.get("additionalProperties", True) is not False)


def test_rare_schema_keywords_are_rendered_not_dropped():
    tool = {"type": "function", "function": {
        "name": "set_mode", "description": "Set the mode.",
        "parameters": {"type": "object", "properties": {
            "mode": {"type": "string", "enum": ["eco", "boost"], "default": "eco"},
            "level": {"type": ["integer", "null"], "exclusiveMinimum": 0, "multipleOf": 5},
        }, "required": ["mode"]}}}
    text = render_tool(tool)
    assert _param_line(text, "mode") == '- mode: string (one of "eco", "boost"; default "eco")'
    assert _param_line(text, "level") == ("- level: integer|null (optional; > 0; "
                                          "multipleOf=5)")
    assert "Other arguments are accepted too." in text


def test_compact_docs_go_into_the_system_message_and_are_shorter(corpus):
    tools = [corpus.tools[name].openai_schema() for name in list(corpus.tools)[:12]]
    messages = [{"role": "system", "content": "Be careful."}, {"role": "user", "content": "Hi"}]
    out = system_with_tools(messages, tools)
    assert messages[0]["content"] == "Be careful."  # the input is not modified
    assert out[0]["content"].startswith("Be careful.\n\n# Tools\n")
    assert out[1] == messages[1]
    assert len(render_tools(tools)) < 0.8 * len(json.dumps(tools))
    assert system_with_tools(messages[1:], tools)[0]["role"] == "system"


def test_brief_docs_name_every_response_field_and_keep_every_rule(corpus):
    """Brief docs drop the glosses of the response fields and nothing else: the tool's
    own sentence, each field's name in order, the relations after the list, and every
    argument line stay as the compact docs write them."""
    for spec in corpus.tools.values():
        schema = spec.openai_schema()
        doc = schema["function"]["description"]
        names = ", ".join(f.name for f in spec.returns)
        head = f"{spec.description} Returns: {names}."
        brief = brief_description(doc)
        assert brief.startswith(head), (spec.name, brief)
        relations = brief[len(head):]
        assert doc.endswith(relations), spec.name  # the relations, untouched
        assert bool(relations) is bool(spec.checks or spec.restated_pairs()), spec.name
        full, short = render_tool(schema), render_tool(schema, brief=True)
        assert [ln for ln in short.splitlines() if ln.startswith("- ")] == \
            [ln for ln in full.splitlines() if ln.startswith("- ")]
        assert len(short) < len(full)


def test_brief_docs_leave_a_description_of_another_shape_as_it_is():
    for text in ("Send an e-mail.", "Quote. Returns: price (an amount (in EUR); never",
                 "Quote. Returns: price) oops.", "Quote. Returns: no glosses here."):
        assert brief_description(text) == text
    assert brief_description("Quote. Returns: a.b (x (y). z); c (w). a.b = 2 × c.") == \
        "Quote. Returns: a.b, c. a.b = 2 × c."


def test_brief_docs_are_the_shorter_system_message(corpus):
    tools = [corpus.tools[name].openai_schema() for name in list(corpus.tools)[:12]]
    messages = [{"role": "user", "content": "Hi"}]
    brief = system_with_tools(messages, tools, brief=True)[0]["content"]
    assert brief == render_tools(tools, brief=True)
    assert len(brief) < 0.8 * len(render_tools(tools))
