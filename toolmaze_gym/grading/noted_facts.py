"""Each fact a request asks an Action's text to note (grading version 18).

toolmaze-v7's c4-0099 asked for "a to-do ... noting SO-4DNKM2FU's delivery date, the
return, refund and new order", and the task graded the to-do on the delivery date,
the return and the new order: the refund was told in the final answer, so the
scenario left it out of the to-do's asks, and a to-do without it passed (issue 27).

So where the request names an Action that writes a text (its step's cue: "to-do",
"e-mail", "notify"), the rest of that clause (to a sentence stop, a semicolon or
"then") is read for the scenario's output cues ("refund"), and each output named
there that the reference run's own text carries is asked of the agent's text too.
An output the reference text leaves out is not added: the reference run passes as
before, and a clause that runs on into another errand asks nothing it cannot show.

Since grading version 21 a text the task graph asks nothing of is read too: toolmaze-v9
play-test p4 c4-0090 P1 asked "an itinerary showing the visa type and landing time",
and a title with the wrong landing time passed. A fact another argument of the same
call carries (a to-do's due date) is not asked of its text as well (``_carried``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.action_clauses import asking_clauses
from toolmaze_gym.grading.all_of_it import results, says_all
from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.asked_change import change_asks
from toolmaze_gym.grading.asked_facts import (
    action_words,
    output_type,
    reference_outputs,
    scenario_of,
)
from toolmaze_gym.grading.asked_plan import plan_asks
from toolmaze_gym.grading.asked_summary import summaries_named
from toolmaze_gym.grading.by_name import name_asks
from toolmaze_gym.grading.second_figure import MONEY, second_figures
from toolmaze_gym.mentions import FREE_TEXT
from toolmaze_gym.tasks.asks import cue_spans
from toolmaze_gym.tasks.model import Slot, Task
from toolmaze_gym.tasks.scenarios import Scenario, StepSpec


def _named(own: list[tuple[int, int]], longer: list[tuple[int, int]]) -> bool:
    """Whether a clause names an output by one of its cue words said on its own (its
    spans ``own``), not as part of a longer cue of another output (spans ``longer``):
    "the new temperature" names the set point (its cue), not the reading whose cue is
    "temperature" (toolmaze-v9 c1-0067: "notify the household of the new temperature"
    asked the old reading too)."""
    return any(not any(x <= a and b <= y and y - x > b - a for x, y in longer)
               for a, b in own)


def outputs_named(clause: str, sc: Scenario) -> list[str]:
    """The scenario outputs (``step.field``) ``clause`` names by a cue (``_named``)."""
    return list(_outputs_named(clause, sc.cues))


@lru_cache(maxsize=4096)  # a step's clauses are read for each of its texts, and again
# for what they leave out (``asked_elsewhere``)
def _outputs_named(clause: str, cues: tuple[tuple[str, tuple[str, ...]], ...]
                   ) -> tuple[str, ...]:
    """``outputs_named`` by the scenario's ``cues``: each cue's spans found once per
    clause, not once more for every other output it is compared with."""
    spans = [(ref, [span for w in words for span in cue_spans(clause, w)])
             for ref, words in cues if "." in ref]  # refs are a table's keys: unique
    return tuple(ref for ref, own in spans
                 if own and _named(own, [span for other, found in spans
                                         if other != ref for span in found]))


def _noted_refs(query: str, sc: Scenario, step: StepSpec, corpus: Corpus,
                words: tuple[str, ...]) -> list[str]:
    """The outputs the clauses of ``step``'s cue ``words`` ask its texts to note."""
    if not words:
        return []
    clauses = asking_clauses(query, sc, step, corpus)
    named = {ref for c in clauses for ref in outputs_named(c, sc)}
    out = [ref for ref, _ in sc.cues if ref in named]
    out += [ref for ref in summaries_named(clauses, sc, step) if ref not in out]
    if says_all(query, words):  # version 21: "with all of it" (``all_of_it``)
        out += [ref for ref in results(sc, step, corpus) if ref not in out]
    return out


def _carried(own: Slot, slot: str, field: str, value: Any) -> bool:
    """Whether another argument of the call ``own`` carries the output: a to-do's due
    date is told by its due date, not its title (toolmaze-v3 c3-0059: "make me a task
    due 2026-08-22 to wrap the gift", the gift's delivery date)."""
    return any(i.type != FREE_TEXT and ((i.source.slot == slot and i.source.field == field)
                                        or (i.source.is_literal and i.source.value == value))
               for i in own.inputs)


def _noted(task: Task, corpus: Corpus, sc: Scenario, refs: list[str]
           ) -> list[tuple[str, Any, str, str, str]]:
    """Each output of ``refs`` the reference run offers, as (type, value, slot, output
    key, field): what a text of the step is asked to note, once per step, not per text."""
    slot_of = {st: slot for slot, st in task.meta.get("steps", {}).items()}
    out = []
    for ref in refs:
        up, field = ref.split(".", 1)
        slot = slot_of.get(up)
        if slot is None or slot not in task.slot_by_id:
            continue
        t = output_type(corpus, sc, ref)
        if t is None:
            continue
        outs = reference_outputs(task, corpus, slot)
        key = f"{t}@{field}" if f"{t}@{field}" in outs else t
        if key in outs:
            out.append((t, outs[key], slot, key, field))
    return out


def _by_value(mention: tuple[Any, ...]) -> tuple[str, Any]:
    """A mention recorded without its step output (a task built before outputs were
    recorded, toolmaze-v1 and v2) as (type, value): a fact a clause names is asked once,
    not again beside it by its output, which would ask the figure written twice."""
    value = mention[1]
    return (mention[0], value if isinstance(value, str | int | float) else repr(value))


def _extra(noted: list[tuple[str, Any, str, str, str]], text: str,
           have: set[tuple[str, str]], own: Slot) -> tuple[tuple[Any, ...], ...]:
    """The mentions the clause naming the step asks (``noted``) that its text ``text``
    lacks, less those another argument of the call carries (``_carried``)."""
    out: list[tuple[Any, ...]] = []
    for t, value, slot, key, field in noted:
        if (slot, key) not in have and _by_value((t, value)) not in have \
                and says(text, t, value) \
                and not _carried(own, slot, field, value):
            have.add((slot, key))
            out.append((t, value, slot, key))
    return tuple(out)


def _seconds(task: Task, corpus: Corpus, asks: tuple[tuple[Any, ...], ...], text: str,
             have: set[tuple[str, str]]) -> tuple[tuple[Any, ...], ...]:
    """The figures a text is asked beside an equal one (``second_figure``)."""
    out: list[tuple[Any, ...]] = []
    for m in asks:
        if len(m) < 4 or m[0] != MONEY or not isinstance(m[1], int | float):
            continue
        for slot, key in second_figures(task.slot_by_id, m[2], m[1], text,
                                        lambda s: reference_outputs(task, corpus, s)):
            if (slot, key) not in have:
                have.add((slot, key))
                out.append((MONEY, m[1], slot, key))
    return tuple(out)


def _own_asks(task: Task, corpus: Corpus, asking: Sequence[str], slot: Slot, text: str,
              asked: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
    """What the clauses asking for the text (``asking``) ask in words no output cue
    carries: "the plan" (``asked_plan``), a greeting "by name" (``by_name``; grading
    version 21), "the change" (``asked_change``)."""
    if not asking:
        return ()
    plan = plan_asks(task, corpus, slot, asking, text, asked)
    plan += change_asks(task, corpus, slot, asking, text, asked + plan)
    return plan + name_asks(task, corpus, slot, asking, text, asked + plan)


def with_noted(task: Task, corpus: Corpus) -> Task:
    """``task`` with each Action text's asks completed by what the request asks it to
    note (the same task where nothing is added). What a step's clauses ask is read
    once per step; only whether each text says it is read per text."""
    sc = scenario_of(task)
    if sc is None:
        return task
    steps = {s.id: s for s in sc.steps}
    words_of = action_words(sc, corpus)
    changed, slots = False, []
    for slot in task.slots:
        step = steps.get(task.meta.get("steps", {}).get(slot.id, ""))
        texts = [k for k, inp in enumerate(slot.inputs)
                 if isinstance(inp.source.value, str) and inp.source.is_literal]
        if step is None or not texts:
            slots.append(slot)
            continue
        words = words_of.get(step.id, ())
        noted = _noted(task, corpus, sc, _noted_refs(task.query, sc, step, corpus, words))
        asking = asking_clauses(task.query, sc, step, corpus) if words else ()
        inputs, grew = list(slot.inputs), False
        for k in texts:
            inp = inputs[k]
            text = inp.source.value
            have = {(m[2], m[3]) if len(m) >= 4 else _by_value(m) for m in inp.mentions}
            more = _extra(noted, text, have, slot) \
                + _seconds(task, corpus, inp.mentions, text, have)
            more += _own_asks(task, corpus, asking, slot, text, inp.mentions + more)
            if more:
                inputs[k], grew = replace(inp, mentions=inp.mentions + more), True
        changed |= grew
        slots.append(replace(slot, inputs=tuple(inputs)) if grew else slot)
    return replace(task, slots=tuple(slots)) if changed else task
