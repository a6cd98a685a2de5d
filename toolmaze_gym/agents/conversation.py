"""The conversation a model is shown, the same whatever serves the model.

The env's transcript answers an action it could not parse (a broken call) with a
``tool`` message that answers no call: there was none. OpenAI-compatible servers
refuse such a message, so the ``openai`` policy must show it some other way; if
``hf`` rendered it as a tool result while ``openai`` sent a user message, a weak
model's valid-call and loop figures would depend on how it is served. Both model
policies therefore build their prompt from :func:`model_messages`, and both put
compact tool documentation in the system prompt the same way
(:func:`with_tool_docs`).
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.agents.compact_tools import system_with_tools


def model_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` as every model policy shows them: a ``tool`` message that answers no
    preceding tool call (the env's reply to an unparseable action) becomes a user
    message ``"[<name> response] <content>"``; every other message is kept as it is
    (OpenAI wire format: ``function.arguments`` stays JSON text)."""
    out, open_ids = [], set()
    for m in messages:
        if m.get("role") == "assistant":
            open_ids = {c.get("id") for c in m.get("tool_calls") or ()}
        if m.get("role") == "tool" and m.get("tool_call_id") not in open_ids:
            out.append({"role": "user",
                        "content": f"[{m.get('name') or 'tool'} response] {m.get('content')}"})
            continue
        out.append(m)
    return out


def with_tool_docs(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                   compact: bool, brief: bool = False
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """The messages and the tool schemas to hand the chat template (or the server):
    with ``compact`` (or ``brief``, the shorter compact docs), the tools are documented
    in the system prompt and no schemas go along; otherwise the schemas go as they are."""
    msgs = model_messages(messages)
    if (compact or brief) and tools:
        return system_with_tools(msgs, tools, brief), None
    return msgs, (tools or None)
