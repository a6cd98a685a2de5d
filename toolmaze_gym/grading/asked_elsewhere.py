"""A value asked to be told to the user is not asked of a text sent for other details
(grading version 21).

A scenario's text template may carry every value of the run ("One SYNJ share costs
467.04 CAD right now. Alert ALR-UD4B7BPR fires at 326.91 USD."), and the task asks
each of its text. But toolmaze-v9's c1-0032 asks "how much a SYNJ share costs in CAD
today? I'd like a price alert at 95% of where it trades now, with the alert details
emailed to lena.varga@northwind.io": the CAD price is asked of the user (the final
answer grades it), the e-mail is asked "the alert details". An e-mail with the alert
only and a finish with the CAD price failed (the v9 blind review, settled by replay).

So where the request's clause that asks for an Action's text (its step's cue, "emailed",
with the words before it back to a comma or a stop, or to the stop where they end a
list: "with the alert details emailed to ...") names what that text holds by the
scenario's output cues, a value of the text that the clause does not name and that
the request asks to be told to the user
(the task's ``answer`` grades it, or a question or wish names it: ``asked_facts``) is
not asked of that text; the currency written right after it in the reference text goes
with it. A clause that names no output, names that value too ("e-mail me the price
and the alert"), or points back at what was asked before ("text me with all that",
"one note with that"), leaves the text's asks as they are; so does a value worked from
named outputs alone (the °F of "the low" a converter gives).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.asked_facts import (
    action_words,
    asked_refs,
    clause_on,
    cue_starts,
    scenario_of,
)
from toolmaze_gym.grading.noted_facts import outputs_named
from toolmaze_gym.grading.second_figure import MONEY
from toolmaze_gym.tasks.model import Input, Task
from toolmaze_gym.tasks.scenarios import Scenario

# "vs." is no stop: "(actual vs. estimated EPS), ..., and a summary for #facilities"
# (toolmaze-v10 c1-0010) is one sentence, whose clause names both EPS figures.
_CLAUSE_START = re.compile(r"(?<!\bvs)[,.;!?](?:\s|$)")
_SENTENCE_END = re.compile(r"(?<!\bvs)[.;!?](?:\s|$)")
_AND = re.compile(r"\band\b", re.I)
_CURRENCY = "currency_code"
# words that point back at what the request asked before: the text holds that too
_BACK = re.compile(r"\b(?:all|that|this|it|those|these|them|everything|above|both)\b", re.I)
# "467.04 CAD": a figure and the code written right after it
_AMOUNT_CODE = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*([A-Z]{3})\b")


def step_clauses(query: str, words: tuple[str, ...]) -> list[str]:
    """Each clause of ``query`` around a cue word of an Action: back to the clause's
    start (``_clause_start``), on to its end (``noted_facts`` reads on)."""
    return [query[_clause_start(query, at): at] + clause_on(query, at)
            for at in cue_starts(query, words)]


def _clause_start(query: str, at: int) -> int:
    """Where the clause holding position ``at`` starts: after the last comma or stop
    before it; where the words from that comma end a list ("..., the 2025-Q3 results
    and the savings interest side by side in a spreadsheet"), after the last stop: the
    list's commas part its items, not clauses (v3 c3-0039)."""
    commas = [s.end() for s in _CLAUSE_START.finditer(query, 0, at)]
    start = commas[-1] if commas else 0
    if _AND.search(query, start, at):
        stops = [s.end() for s in _SENTENCE_END.finditer(query, 0, at)]
        start = stops[-1] if stops else 0
    return start


def _ref(task: Task, mention: tuple[Any, ...]) -> str:
    """The scenario output (``step.field``) a task mention is the value of ("": none)."""
    if len(mention) < 4 or "@" not in str(mention[3]):
        return ""
    step = task.meta.get("steps", {}).get(mention[2], "")
    return f"{step}.{str(mention[3]).partition('@')[2]}" if step else ""


def _codes_after(text: str, amount: Any) -> set[str]:
    """The currency codes ``text`` writes right after the figure ``amount``."""
    out = set()
    for m in _AMOUNT_CODE.finditer(text):
        try:
            if abs(float(m[1].replace(",", "")) - float(amount)) < 0.005:
                out.add(m[2])
        except (TypeError, ValueError):
            continue
    return out


def _worked_from_named(sc: Scenario, ref: str, named: set[str]) -> bool:
    """Whether output ``ref`` is a named output worked on (its step reads named outputs
    only): "the low" names the night's low, and its °F a converter gives with it."""
    step = next((s for s in sc.steps if s.id == ref.partition(".")[0]), None)
    fields = [a.ref for a in step.args if a.kind == "field"] if step is not None else []
    return bool(fields) and all(f in named for f in fields)


def _unasked(task: Task, sc: Scenario, inp: Input, named: set[str], to_user: set[str]
             ) -> set[int]:
    """The positions of ``inp``'s mentions its clause does not ask (see the module)."""
    drop = {k for k, m in enumerate(inp.mentions)
            if (ref := _ref(task, m)) and ref not in named and ref in to_user
            and not _worked_from_named(sc, ref, named)}
    if not drop:
        return drop
    text = str(inp.source.value)
    codes = {c for k in drop if inp.mentions[k][0] == MONEY
             for c in _codes_after(text, inp.mentions[k][1])}
    kept = {c for k, m in enumerate(inp.mentions) if k not in drop and m[0] == MONEY
            for c in _codes_after(text, m[1])}
    return drop | {k for k, m in enumerate(inp.mentions)
                   if m[0] == _CURRENCY and len(m) < 4 and m[1] in codes - kept}


def _to_user(task: Task, sc: Scenario, corpus: Corpus) -> set[str]:
    """The outputs the request asks to be told to the user."""
    answered = {_ref(task, m) for m in task.answer} - {""}
    return answered | set(asked_refs(task.query, sc, corpus))


def _named(task: Task, sc: Scenario, words: tuple[str, ...]) -> set[str]:
    """The outputs the clauses of a step's cue ``words`` name (empty: none names any,
    or one points back at what was asked before: "with all that", "one note with
    that")."""
    if not words:
        return set()
    clauses = step_clauses(task.query, words)
    if any(_BACK.search(c) for c in clauses):
        return set()
    return {ref for c in clauses for ref in outputs_named(c, sc)}


def without_asked_elsewhere(task: Task, corpus: Corpus) -> Task:
    """``task`` with each Action text's asks less the values the request asks to be
    told to the user that the text's clause does not name (the same task where
    nothing is dropped)."""
    sc = scenario_of(task)
    if sc is None:
        return task
    words_of = action_words(sc, corpus)  # once per task, not once per slot
    to_user: set[str] | None = None
    changed, slots = False, []
    for slot in task.slots:
        named = _named(task, sc, words_of.get(task.meta.get("steps", {}).get(slot.id, ""), ()))
        inputs = []
        for inp in slot.inputs:
            if named and inp.mentions and inp.source.is_literal:
                to_user = _to_user(task, sc, corpus) if to_user is None else to_user
                drop = _unasked(task, sc, inp, named, to_user)
                if drop and len(drop) < len(inp.mentions):
                    inp = replace(inp, mentions=tuple(m for k, m in enumerate(inp.mentions)
                                                      if k not in drop))
                    changed = True
            inputs.append(inp)
        slots.append(replace(slot, inputs=tuple(inputs)))
    return replace(task, slots=tuple(slots)) if changed else task
