"""A question when an order will come asks its delivery date.

toolmaze-v10's c4-0024 asks to "Order 3 Orbit Edge Polarized Sunglasses for
diego.varga@acme-corp.com, shipped to Rome (when will it come?)". A question inside
parentheses is no question sentence to the library (``tasks.questions``: a sentence
that opens with a question word), the scenario declares no cue for the delivery date,
and a run that told the date nowhere passed (the blind review of toolmaze-v10, issue
27); the reference itself told it only in an expense note shared with a friend.

So a question that asks when something will come, in its own words ("when will it
come?", "when will they arrive", "when does the parcel get here?", in parentheses or
not), asks the user to be told the delivery date of the order: the scenario's estimated
delivery. Where several steps give one (the shipping quote and the order), they give one
date, asked once; where they give different dates (two orders), the question does not
say which, and none is asked here.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.scenarios import Scenario

_WHEN = re.compile(
    r"\bwhen\s+(?:will|would|does|do|should|is|are)\s+"
    r"(?:it|they|that|this|(?:the|my|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+)?)\s+"
    r"(?:come|arrive|land|reach|turn\s+up|show\s+up|get\s+(?:here|there|in)"
    r"|be\s+(?:delivered|here|there|in))\b", re.I)
DELIVERY = "estimated_delivery"  # the output field of a delivery date
_FORMATS = ("%Y-%m-%d", "%m/%d/%Y")  # an ISO date, a US date (an order's)


def asks_when_it_comes(query: str) -> bool:
    """Whether ``query`` asks when something will come (see the module)."""
    return bool(_WHEN.search(query))


def _day(value: Any) -> date | None:
    for f in _FORMATS:
        try:
            return datetime.strptime(str(value)[:10], f).date()
        except ValueError:
            continue
    return None


def delivery_refs(task: Task, sc: Scenario, corpus: Corpus) -> list[str]:
    """The delivery date (``step.estimated_delivery``) a question when the order will
    come asks, once: the first step's that gives it (none: no such question, no such
    step, or steps that give different dates)."""
    from toolmaze_gym.grading.asked_facts import output_type, reference_outputs

    if not asks_when_it_comes(task.query):
        return []
    slot_of = {step: slot for slot, step in task.meta.get("steps", {}).items()}
    found: list[tuple[str, date]] = []
    for st in sc.steps:
        ref = f"{st.id}.{DELIVERY}"
        t, slot = output_type(corpus, sc, ref), slot_of.get(st.id)
        if t is None or slot is None or slot not in task.slot_by_id:
            continue
        outs = reference_outputs(task, corpus, slot)
        day = _day(outs.get(f"{t}@{DELIVERY}"))
        if day is not None:
            found.append((ref, day))
    if not found or len({d for _, d in found}) > 1:
        return []
    return [found[0][0]]
