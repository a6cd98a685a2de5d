"""Repeated calls: the loop a small model falls into, found so that it never pays.

A model that has learnt the call format but not the task repeats one valid call
until the step limit (the last ``make train-demo`` model did so in 36 of 36
episodes). Under a per-episode share of valid calls such a loop scored almost the
best partial credit a failing episode could get. A call is a *repeat* when the
same tool was already called with the same arguments and that earlier call was
answered cleanly (no error status, no fault): asking again cannot tell the agent
anything new. Calling again after an error or a corrupted answer is a retry, the
recovery the benchmark rewards, and is never a repeat. Arguments compare as
canonical JSON (key order ignored).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from toolmaze_gym.episode import Step


def call_key(step: Step) -> str:
    """The identity of a call: its tool and canonical arguments."""
    args = step.action.get("arguments")
    return json.dumps([step.action.get("name"), args], sort_keys=True, ensure_ascii=False,
                      default=str)


def repeat_indices(steps: Sequence[Step]) -> set[int]:
    """Indices of the calls that repeat an earlier, cleanly answered identical call."""
    answered: set[str] = set()
    repeats: set[int] = set()
    for i, step in enumerate(steps):
        if step.kind != "call":
            continue
        key = call_key(step)
        if key in answered:
            repeats.add(i)
        elif step.clean_ok:
            answered.add(key)
    return repeats
