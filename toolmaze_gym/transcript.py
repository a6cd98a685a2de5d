"""The conversation an agent sees: tool schemas and OpenAI-format chat messages.

Shared by the Gymnasium env and the direct runner, so a model sees the same
transcript whichever drives it.
"""

from __future__ import annotations

import json
from typing import Any

from toolmaze_gym.actions import several_calls
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Episode
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suites import task_simulator

# ``json.dumps(obj, ensure_ascii=False)`` builds an encoder per call; this one writes
# the same text, built once (every step of every episode encodes its arguments).
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_SCHEMAS: dict[int, tuple[Any, dict[str, dict[str, Any]]]] = {}


def tool_schemas(task: Task, sim: Simulator) -> list[dict[str, Any]]:
    """The OpenAI schemas of the tools shown for ``task``.

    Built once per tool and corpus (rendering the documentation was a tenth of a
    scripted rollout); the dicts are shared, so treat them as read-only. The tools
    are documented as the task's world edition has them (``task_simulator``: an old
    suite's order tools take no ship-to city).
    """
    corpus = task_simulator(task, sim).corpus
    hit = _SCHEMAS.get(id(corpus))
    if hit is None or hit[0] is not corpus:
        hit = _SCHEMAS[id(corpus)] = (corpus, {})
    cache = hit[1]
    out = []
    for name in task.tools:
        schema = cache.get(name)
        if schema is None:
            schema = cache[name] = corpus[name].openai_schema()
        out.append(schema)
    return out


RESERVED_SCHEMAS: tuple[dict[str, Any], ...] = (
    {"type": "function", "function": {
        "name": "finish",
        "description": "End the episode: the request is complete. Give the final answer "
                       "for the user, with the values they asked for.",
        "parameters": {"type": "object", "properties": {"answer": {
            "type": "string", "description": "The final answer for the user."}},
            "required": ["answer"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "abort",
        "description": "End the episode without completing the request, because it cannot "
                       "be completed with the available tools (say why).",
        "parameters": {"type": "object", "properties": {"reason": {
            "type": "string", "description": "Why the request cannot be completed."}},
            "required": ["reason"], "additionalProperties": False}}},
)


def episode_tools(task: Task, sim: Simulator) -> list[dict[str, Any]]:
    """Every schema an agent is offered: the task's tools, then ``finish`` and ``abort``.

    The reserved calls are schemas too, so a model that only emits calls through its
    chat template's tool format can still end the episode.
    """
    return [*tool_schemas(task, sim), *RESERVED_SCHEMAS]


def append_step(messages: list[dict[str, Any]], episode: Episode, k: int) -> None:
    """Add step ``k`` of ``episode`` to ``messages`` as assistant + tool messages.

    An action that held several calls ran only its first; the tool message says so
    (``with_warning``), so the agent is never left wondering what became of the rest.
    """
    step = episode.steps[k]
    call_id = f"call_{k}"
    content = with_warning(step.observation, several_calls(step.action))
    if step.kind == "call":
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": step.action["name"],
                          "arguments": _ENCODE(step.action["arguments"])}}]})
        messages.append({"role": "tool", "tool_call_id": call_id, "name": step.action["name"],
                         "content": content})
    else:
        messages.append({"role": "assistant", "content": step.raw})
        if step.kind == "invalid":
            messages.append({"role": "tool", "tool_call_id": call_id, "name": "error",
                             "content": content})


def with_warning(observation: str, warning: str) -> str:
    """A tool response (a JSON object) with a top-level ``warning`` added, the way real
    APIs flag a request they served only in part; the response itself is unchanged
    (the recorded observation, which grading reads, never holds the warning)."""
    if not warning or not observation.startswith("{"):
        return observation
    note = _ENCODE(warning)
    return f'{{"warning": {note}}}' if observation == "{}" else \
        f'{observation[:-1]}, "warning": {note}}}'


def template_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of ``messages`` whose tool-call arguments are dicts, not JSON text.

    The transcript keeps OpenAI wire format (``function.arguments`` is a JSON
    string), but Hugging Face chat templates (Qwen2.5, Hermes, TRL's
    ``qwen2_5.jinja``) serialise ``arguments`` themselves, so handing them the
    wire format renders every call double-encoded. Arguments that are already
    a mapping are copied as they are.

    Raises:
        ValueError: a tool call's ``arguments`` is not a JSON object, naming
            the message and call, since a template cannot render it faithfully.
    """
    out = []
    for i, message in enumerate(messages):
        copy = dict(message)
        calls = message.get("tool_calls")
        if calls:
            copy["tool_calls"] = [_decoded_call(call, i, j) for j, call in enumerate(calls)]
        out.append(copy)
    return out


def _decoded_call(call: dict[str, Any], i: int, j: int) -> dict[str, Any]:
    """``call`` with ``function.arguments`` as a dict (message ``i``, call ``j``)."""
    function = dict(call.get("function") or {})
    arguments = function.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            raise ValueError(f"messages[{i}].tool_calls[{j}]: arguments are not valid "
                             f"JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(arguments, dict):
        raise ValueError(f"messages[{i}].tool_calls[{j}]: arguments must be a JSON "
                         f"object, got {type(arguments).__name__}")
    function["arguments"] = dict(arguments)
    return {**call, "function": function}
