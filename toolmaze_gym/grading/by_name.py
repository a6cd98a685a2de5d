"""A text asked to greet its reader by name names them (grading version 21).

toolmaze-v9's c3-0040 asked to "write them a welcome email greeting them by name, with
the start time, ..."; the name was asked nowhere (the scenario's asks were the time,
the forecast and the news), so a mail opening "Hello," passed. Where the clause asking
for an Action's text says "by name" ("by their first name"), the person the reference
run's text names (of the steps it reads, or named in the request) is asked as its
reader is greeted: in full or by the given name ("Dear Elif", ``ADDRESSEE``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.arguments import ADDRESSEE, says
from toolmaze_gym.grading.asked_facts import reference_outputs
from toolmaze_gym.tasks.model import Slot, Task

_BY_NAME = re.compile(r"\bby (?:their |his |her )?(?:first |given |full )?names?\b", re.I)
_NAME = "person_name"


def _names(task: Task, corpus: Corpus, slot: Slot) -> list[tuple[Any, ...]]:
    """Each person's name the slot reads (slot, key), then those the request states."""
    out: list[tuple[Any, ...]] = []
    for up, t in slot.reads:
        if t == _NAME and up in task.slot_by_id:
            out += [(v, up, key) for key, v in reference_outputs(task, corpus, up).items()
                    if key.partition("@")[0] == _NAME and isinstance(v, str)]
    return out + [(e["value"],) for e in task.entities
                  if e.get("type") == _NAME and isinstance(e.get("value"), str)]


def name_asks(task: Task, corpus: Corpus, slot: Slot, asking: Sequence[str], text: str,
              asked: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
    """The name a text asked to greet by name (``asking``: the request's clauses asking
    for it) must tell, its reference being ``text``; () where none is asked or the
    reference names none."""
    if not any(_BY_NAME.search(c) for c in asking):
        return ()
    for name in _names(task, corpus, slot):
        if says(text, _NAME, name[0]):
            if any(len(m) >= 2 and m[1] == name[0] for m in asked):
                return ()
            return ((ADDRESSEE, *name),)
    return ()
