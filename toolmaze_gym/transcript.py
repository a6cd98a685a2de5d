"""The conversation an agent sees: tool schemas and OpenAI-format chat messages.

Shared by the Gymnasium env and the direct runner, so a model sees the same
transcript whichever drives it.
"""

from __future__ import annotations

import json
from typing import Any

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Episode
from toolmaze_gym.tasks.model import Task

_SCHEMAS: dict[int, tuple[Any, dict[str, dict[str, Any]]]] = {}


def tool_schemas(task: Task, sim: Simulator) -> list[dict[str, Any]]:
    """The OpenAI schemas of the tools shown for ``task``.

    Built once per tool and corpus (rendering the documentation was a tenth of a
    scripted rollout); the dicts are shared, so treat them as read-only.
    """
    corpus = sim.corpus
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


def append_step(messages: list[dict[str, Any]], episode: Episode, k: int) -> None:
    """Add step ``k`` of ``episode`` to ``messages`` as assistant + tool messages."""
    step = episode.steps[k]
    call_id = f"call_{k}"
    if step.kind == "call":
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": step.action["name"],
                          "arguments": json.dumps(step.action["arguments"],
                                                  ensure_ascii=False)}}]})
        messages.append({"role": "tool", "tool_call_id": call_id, "name": step.action["name"],
                         "content": step.observation})
    else:
        messages.append({"role": "assistant", "content": step.raw})
        if step.kind == "invalid":
            messages.append({"role": "tool", "tool_call_id": call_id, "name": "error",
                             "content": step.observation})
