"""What a text asked to carry "the change" must carry.

toolmaze-v10's c4-0023 has a flight cancelled for a strike (a refund of 70.86 GBP) and
the traveller booked on a train instead, and asks to "send pablo.varga@acme-corp.com a
push with the change and a short summary of today's top business story". The push was
asked the news summary alone, so a push with the news sentence and nothing of the
switch passed (the blind review of toolmaze-v10, issue 27).

A change is what the request's bookings and cancellations did. So where the clause that
asks for an Action's text says "the change" ("the changes"; not "the change in percent"
or "the change since purchase", a figure, nor "the change (the train, ...)", spelled
out: ``noted_facts`` reads a list), the text is asked, of each step before it that
books, reserves, holds, reschedules or cancels something and whose results its
reference text tells (read directly, or through steps that only work from them: a
refund converted and formatted):

* the record it made or undid, by any of its names (a train by its number or its
  ticket, a flight by its number or booking code: ``data/world/record_names.json``);
* each figure of its own response the text carries that no other step works from (a
  room's price; the fare a later step files as an expense is a step on the way, as
  ``all_of_it`` reads it). A figure another step works out of it (the refund converted
  into the user's currency) is not asked: the refund in the airline's currency tells the
  change too (toolmaze-v9 play-test c4-0054, "refund 80.50 EUR" in the push), and the
  request asks the converted one of the user.

What the reference text leaves out is not asked, so the reference run passes as
before; the other facts of a booking (its ticket beside its train, its departure) are
the agent's to add or not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.all_of_it import results
from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.asked_facts import output_type, reference_outputs, scenario_of
from toolmaze_gym.tasks.action_cues import action_steps, action_tools
from toolmaze_gym.tasks.model import Slot, Task
from toolmaze_gym.tasks.scenarios import Scenario, StepSpec
from toolmaze_gym.world.base import load_data

# "the change(s)", not a figure's change ("in percent", "since purchase") nor a list.
_CHANGE = re.compile(r"\bthe\s+changes?\b(?!\s*[(:])(?!\s+(?:since|of|from|over|between)\b)"
                     r"(?!\s+in\s+(?:per\s*cent|percent|%|value|price))", re.I)
# The behaviours of Actions that change a booking (a tool's ``behaviour``).
_CHANGING = re.compile(r"book|reserv|hold|reschedul|cancel")

Entry = tuple[str, Any, str, str]  # (type, reference value, slot, output key)


def change_asked(asking: Sequence[str]) -> bool:
    """Whether a clause asking for a text asks it "the change", not spelled out."""
    return any(_CHANGE.search(c) for c in asking)


@cache
def _namings() -> tuple[tuple[str, ...], ...]:
    """Each record's one-key names, a service's own (a train number) before the
    record's reference (its ticket): the name people tell a change by first."""
    data = load_data("record_names.json")
    refs = set(data["references"])
    return tuple(tuple(sorted((n[0] for n in namings if len(n) == 1), key=lambda k: k in refs))
                 for namings in data["records"].values())


def _changes(sc: Scenario, corpus: Corpus, step: StepSpec) -> list[str]:
    """The steps that change a booking whose results ``step`` reads, directly or
    through steps that are no Action (a refund converted, then formatted)."""
    actions = {s.id: cap for s, cap in action_steps(sc, corpus)}
    by_id = {s.id: s for s in sc.steps}
    out: list[str] = []

    def walk(up: str, seen: set[str]) -> None:
        if up in seen or up not in by_id:
            return
        seen.add(up)
        if up in actions:
            if any(_CHANGING.search(corpus[t].behaviour) for t in action_tools(corpus,
                                                                               actions[up])):
                out.append(up)
            return
        for u in by_id[up].upstream():
            walk(u, seen)

    seen: set[str] = {step.id}
    for u in step.upstream():
        walk(u, seen)
    return list(dict.fromkeys(out))


def _joined(task: Task, slot_id: str) -> list[str]:
    """``slot_id`` and the slots a data edge joins to it, either way."""
    near = {u for s in task.slots if s.id == slot_id for u in s.upstream()} \
        | {s.id for s in task.slots if slot_id in s.upstream()}
    return [slot_id, *sorted(near)]


def _record(task: Task, corpus: Corpus, slot_id: str, text: str) -> Entry | None:
    """The record the change in ``slot_id`` made or undid, by the first of its names
    (from that slot or one joined to it) the reference ``text`` tells."""
    own = reference_outputs(task, corpus, slot_id)
    for names in _namings():
        if not any(k in own for k in names):
            continue
        for key in names:
            for s in _joined(task, slot_id):
                value = reference_outputs(task, corpus, s).get(key)
                t = key.partition("@")[0]
                if isinstance(value, str) and says(text, t, value):
                    return (t, value, s, key)
    return None


def _figures(task: Task, corpus: Corpus, sc: Scenario, step: StepSpec, change: str,
             text: str) -> list[Entry]:
    """The figures of the change ``change``'s own response that ``step``'s text carries
    and no other step works from (``all_of_it.results``), as the reference ``text``
    tells them. A figure another step worked from it (a refund converted into the
    user's currency) is not asked: "refund 80.50 EUR" tells the change as well as its
    79.28 CHF (toolmaze-v9 play-test c4-0054), which the request asks of the user."""
    slot_of = {st: slot for slot, st in task.meta.get("steps", {}).items()}
    out: list[Entry] = []
    for ref in results(sc, step, corpus):
        up, field = ref.split(".", 1)
        slot = slot_of.get(up)
        if slot is None or up != change:
            continue
        t = output_type(corpus, sc, ref) or ""
        outs = reference_outputs(task, corpus, slot)
        key = f"{t}@{field}" if f"{t}@{field}" in outs else t
        if key in outs and says(text, t, outs[key]):
            out.append((t, outs[key], slot, key))
    return out


def _new(entry: Entry, asked: list[tuple[Any, ...]]) -> bool:
    """Whether ``entry`` is not asked yet (by its output, or its value)."""
    return all(entry[1] != m[1] and (len(m) < 4 or (m[2], m[3]) != entry[2:4])
               for m in asked)


def change_asks(task: Task, corpus: Corpus, slot: Slot, asking: Sequence[str], text: str,
                asked: tuple[tuple[Any, ...], ...]) -> tuple[Entry, ...]:
    """The entries a text asked "the change" (``asking``: the request's clauses asking
    for it) must say beyond those ``asked`` already, its reference being ``text``."""
    sc = scenario_of(task)
    step_id = task.meta.get("steps", {}).get(slot.id, "")
    step = next((s for s in sc.steps if s.id == step_id), None) if sc else None
    if sc is None or step is None or not change_asked(asking):
        return ()
    slot_of = {st: s for s, st in task.meta.get("steps", {}).items()}
    have, out = list(asked), []
    for change in _changes(sc, corpus, step):
        if change not in slot_of:
            continue
        record = _record(task, corpus, slot_of[change], text)
        for e in ([record] if record else []) + _figures(task, corpus, sc, step, change, text):
            if _new(e, have):
                have.append(e)
                out.append(e)
    return tuple(out)
