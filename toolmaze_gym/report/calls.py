"""The valid-call rate: the share of an agent's actions that were well-formed tool calls.

A model that cannot play yet (a small base model answering in prose, or emitting
broken JSON) scores near zero here whatever the grader says about its outcomes, so
this is the first figure a fine-tune should move. An action counts as a valid call
when it parsed as a call (``finish`` and ``abort`` included) to a tool the episode
showed, with arguments that satisfy the tool's JSON schema. Validity is decided from
the record alone: the env's 404 for an unshown tool (its error type ``unknown_tool``;
a shown tool's own 404 for an unknown id is a valid call with a wrong value, and a
404 that a fault injected does not count), and the corpus schema for the arguments
(re-checked here because a fault injected on a call hides the simulator's own verdict).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import fastjsonschema

from toolmaze_gym.actions import RESERVED


@cache
def _validator(tool: str) -> Callable[[Any], Any] | None:
    """The compiled argument schema of a corpus tool (None: no such tool)."""
    from toolmaze_gym.corpus import load_corpus

    spec = load_corpus().tools.get(tool)
    return None if spec is None else fastjsonschema.compile(spec.parameters_schema())


def names_shown_tool(step: dict[str, Any]) -> bool:
    """Whether one recorded step parsed as a call (not ``finish``/``abort``) naming a
    tool the episode showed, whatever its arguments."""
    action = step.get("action") or {}
    if action.get("kind") != "call" or _hidden_tool(step):
        return False
    return _validator(str(action.get("name", ""))) is not None


def _hidden_tool(step: dict[str, Any]) -> bool:
    """Whether the step got the env's 404 for a tool the episode did not show (error
    type ``unknown_tool``), not a shown tool's own 404 for an id it does not know
    (``not_found``: a well-formed call with a wrong value), nor an injected fault."""
    if step.get("status") != 404 or step.get("fault"):
        return False
    try:
        error = json.loads(step.get("observation") or "{}").get("error") or {}
    except (json.JSONDecodeError, AttributeError):
        return False
    return isinstance(error, dict) and error.get("type") == "unknown_tool"


def is_valid_call(step: dict[str, Any]) -> bool:
    """Whether one recorded step was a call to a shown tool with schema-valid arguments."""
    action = step.get("action") or {}
    if action.get("kind") in RESERVED:
        return True
    if not names_shown_tool(step):
        return False
    validate = _validator(str(action.get("name", "")))
    try:
        validate(action.get("arguments"))
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _rate(records: Iterable[dict[str, Any]], counts: Callable[[dict[str, Any]], bool]
          ) -> float | None:
    steps = [s for r in records for s in r.get("steps", [])]
    return sum(map(counts, steps)) / len(steps) if steps else None


def named_call_rate(records: Iterable[dict[str, Any]]) -> float | None:
    """Calls naming a shown tool (any arguments) over all actions of the records (None
    when no action was taken): the skill a fine-tune learns before valid arguments."""
    return _rate(records, names_shown_tool)


def valid_call_rate(records: Iterable[dict[str, Any]]) -> float | None:
    """Valid calls over all actions of the records (None when no action was taken)."""
    return _rate(records, is_valid_call)
