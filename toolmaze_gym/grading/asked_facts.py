"""Facts a request asks to be told that its task declares no ask for (grading version 18).

A task's ``answer`` lists what the final answer must tell; a request can ask more than
its scenario declared when the task was built. toolmaze-v6's c4-0005 asked "how much
did the Chicago house and the Oslo cabin use this month?" and graded only the cabin
bill; c4-0050 asked "tell me the total before shipping in CAD" and graded nothing;
toolmaze-v7's c1-0010 asked for the earnings "(actual vs. estimated EPS)" and graded
them only in the post to #facilities, a message to the team, not to the user. A final
answer that left them out, or told them wrong, passed (issue 27).

So the request's questions are read as the library reads them when it builds a task
(``tasks.questions``: "tell me ...", a question sentence), and so is a wish for a fact
("I'd like the ... (actual vs. estimated EPS)"); an output of the task's scenario whose
cue word (``Scenario.cues``) falls inside one is asked to be told. It must be in the
final answer unless the task already grades it there (``answer``) or in a text sent
to the user themself (an argument bound to the scenario's ``$me``: "tell me the
balance by a push to me"), where the text's own asks grade it. A text asked (a news
digest: v3 c3-0006 "give me a short digest of the latest climate news") is not asked
here: it is told in the agent's own words, often in the file or message it writes.

A question when an order will come ("(when will it come?)") asks its delivery date
(``asked_delivery``; toolmaze-v10 review c4-0024).

A sum is also asked by its rate (grading version 19, ``priced_refs``): toolmaze-v8's
c4-0005 asks "how much did the Chicago house and the Oslo cabin use this month? The
home pays 0.29 a kWh; ...", and the home's cost at that tariff (117.85) was graded
nowhere. A step that prices a quantity the request asks (the home's use in kWh) at a
price the request states (its tariff), and whose sum no later step reads, works out a
sum the request asks for by giving the price. One that a later step reads (the cabin's
cost in NOK, converted into the asked bill in USD) is a step on the way to another ask,
and a sum worked from a sum (a projection at 5 % a year) is no price of a quantity.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.grading.arguments import MONEY
from toolmaze_gym.mentions import FREE_TEXT, mentions
from toolmaze_gym.tasks.action_cues import action_steps, default_cues, step_cues
from toolmaze_gym.tasks.asks import cue_in
from toolmaze_gym.tasks.execution import slot_outputs
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.questions import question_sentences, telling_clauses
from toolmaze_gym.tasks.scenario_gen import _mention_type
from toolmaze_gym.tasks.scenarios import Scenario, read_library

# "I'd like the 2026-Q1 earnings of 6758 (actual vs. estimated EPS), an alert ...": a
# wish for a fact, up to the next comma, stop or "and" outside a parenthesis.
_WISH = re.compile(r"\b(?:I'd|I would) like (?:to know |to hear )?the\b", re.I)
_WISH_END = re.compile(r"[,.;!?]|\band\b|\bthen\b")
_COMMA = re.compile(r",")
_STOP = re.compile(r"[.!?](?=\s)")  # a sentence's end: a stop before a space

Asked = tuple[str, Any, str, str]  # (type, reference value, slot, output key)


@cache
def _scenarios() -> dict[str, Scenario]:
    return {sc.id: sc for sc in read_library()}


def until(text: str, end: re.Pattern[str]) -> str:
    """``text`` up to the first match of ``end`` outside a parenthesis (a match where
    the parentheses opened up to and with its first character are all closed). Only
    where ``end`` matches is the depth counted: every text rule reads its clause so."""
    depth, counted = 0, 0
    for m in _anywhere(end).finditer(text):
        k = m.start()
        depth += text.count("(", counted, k + 1) - text.count(")", counted, k + 1)
        counted = k + 1
        if depth <= 0:
            return text[:k]
    return text


@lru_cache(maxsize=64)
def _anywhere(end: re.Pattern[str]) -> re.Pattern[str]:
    """``end`` as a lookahead: found at every position it matches, overlapping or not,
    as ``end.match(text, k)`` finds it at ``k``."""
    return re.compile(f"(?={end.pattern})", end.flags)


# Where the clause of an Action's cue ends: a stop, a semicolon or "then".
ACTION_CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|\bthen\b")


def cue_starts(query: str, words: Iterable[str]) -> tuple[int, ...]:
    """Where ``query`` says each cue word of an Action (``words``), as a whole word in
    any case: the one reading of "the clause that asks for this text" that the asks of
    a text (``noted_facts``, ``all_of_it``, ``asked_elsewhere``) all start from."""
    return _cue_starts(query, tuple(words))


@lru_cache(maxsize=1024)  # read once per request and Action, not once per rule and text
def _cue_starts(query: str, words: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(m.start() for w in words for m in _cue_word(w).finditer(query))


@lru_cache(maxsize=4096)  # one per cue word: more than ``re``'s own cache holds
def _cue_word(word: str) -> re.Pattern[str]:
    """``word`` as a whole word in any case. A cue that ends in a sign ("give #", "tell
    #") is read up to the sign: the request writes the channel right after it ("give
    #it-helpdesk a one-line summary", toolmaze-v10 play-test c1-0046), where a
    phrasing's placeholder leaves a space (``tasks.asks.cue_in``)."""
    head = r"(?<!\w)" if _WORD.match(word[:1]) else ""
    tail = r"(?!\w)" if _WORD.match(word[-1:]) else ""
    return re.compile(rf"{head}{re.escape(word)}{tail}", re.I)


_WORD = re.compile(r"\w")


def clause_on(query: str, at: int) -> str:
    """``query`` from ``at`` to the end of its clause (``ACTION_CLAUSE_END``)."""
    return until(query[at:], ACTION_CLAUSE_END)


def wish_clauses(query: str) -> list[str]:
    """Each "I'd like the ..." clause, a parenthesis inside it kept whole."""
    return [query[m.start(): m.end()] + until(query[m.end():], _WISH_END)
            for m in _WISH.finditer(query)]


def told_clauses(query: str) -> list[str]:
    """Where the request asks to be told something: its question sentences, its wishes,
    and its telling clauses up to the first comma ("Tell me when SO-4DNKM2FU will come,
    return SO-Q57JV9L3 ... and create a to-do noting ... the return" asks the return
    for the to-do, not for the answer: a list after the comma is read as the next
    errand, which at worst grades less)."""
    return ([until(c, _COMMA) for c in telling_clauses(query)] + question_sentences(query)
            + wish_clauses(query))


@lru_cache(maxsize=512)
def action_words(sc: Scenario, corpus: Corpus) -> dict[str, tuple[str, ...]]:
    """The words that ask for each Action step of ``sc``, by step id: read once per
    scenario and corpus (shared: read-only), where each text's rules would read every
    step's capability again and each task's index reads them three times."""
    own = {ref: words for ref, words in sc.cues if "." not in ref}
    return {s.id: tuple(step_cues(corpus, s, cap, own, default_cues()))
            for s, cap in action_steps(sc, corpus)}


def _action_words(sc: Scenario, corpus: Corpus) -> list[str]:
    """The words that ask for each Action step of ``sc`` that writes a text."""
    texts = {s.id for s in sc.steps if any(a.kind == "text" for a in s.args)}
    return [w for sid, words in action_words(sc, corpus).items() if sid in texts
            for w in words]


def _for_a_text(clause: str, words: list[str]) -> bool:
    """Whether ``clause`` lists what a text holds: its lead-in before a colon asks for
    an Action's text ("send back SO-V32ANH72 with the reason spelled out: when it
    arrives, my departure and the replacement order?", v7 c4-0059)."""
    lead = clause.rpartition(":")[0]
    return bool(lead) and any(cue_in(lead, w) for w in words)


def in_sentence(query: str, clause: str) -> str:
    """``clause`` from its sentence's start, as a reader takes it (grading version 19).

    The library's splitter ends a sentence at any stop, so a question after a URL
    begins at the URL's last dot: "com/dashboard/holdings: what are my 5 ADA worth
    ...?" of "Update my tracker at https://hooks.example.com/dashboard/holdings: what
    ...?" (toolmaze-v8 c3-0070), and its lead-in lost the Action it asks the content of.
    A clause that starts inside a word runs back to the last stop before a space."""
    at = query.find(clause)
    if at <= 0 or query[at - 1].isspace():
        return clause
    stops = [m.end() for m in _STOP.finditer(query) if m.end() <= at]
    return query[stops[-1] if stops else 0: at].lstrip() + clause


def asked_refs(query: str, sc: Scenario, corpus: Corpus) -> list[str]:
    """The scenario outputs (``step.field``) a question or wish of ``query`` names by a
    cue, in the order of the scenario's cues."""
    words = _action_words(sc, corpus)
    clauses = [c for c in told_clauses(query)
               if not _for_a_text(in_sentence(query, c), words)]
    return [ref for ref, words in sc.cues if "." in ref
            and any(cue_in(q, w) for q in clauses for w in words)]


def priced_refs(task: Task, sc: Scenario, corpus: Corpus, asked: list[str]) -> list[str]:
    """The sums (``step.field``) of each step that prices ``asked`` quantities (no sums)
    at a price the request states, and whose result no step reads (see the module
    docstring: the home's cost at the tariff the request gives)."""
    read = {a.step for st in sc.steps for a in st.args if a.kind == "field"}
    slot_of = {step: slot for slot, step in task.meta.get("steps", {}).items()}
    out: list[str] = []
    for st in sc.steps:
        fields = [a.ref for a in st.args if a.kind == "field"]
        slot = task.slot_by_id.get(slot_of.get(st.id, ""))
        if st.id in read or slot is None or not fields or not set(fields) <= set(asked):
            continue
        given = [i for i in slot.inputs if i.source.is_literal]
        if not any(i.type == MONEY for i in given) \
                or any(i.type == MONEY for i in slot.inputs if not i.source.is_literal) \
                or not all(mentions(task.query, i.type, i.source.value) for i in given):
            continue
        out += [f"{st.id}.{key.partition('@')[2]}"
                for key in reference_outputs(task, corpus, slot.id)
                if key.partition("@")[0] == MONEY and "@" in key]
    return out


def _to_user(task: Task, sc: Scenario) -> set[tuple[str, str]]:
    """(slot, key) of every value a text sent to the user themself must mention."""
    steps = task.meta.get("steps", {})
    mine = {s.id for s in sc.steps
            if any(a.kind == "param" and a.ref == "me" for a in s.args)}
    out = set()
    for slot in task.slots:
        if steps.get(slot.id) in mine:
            out |= {(m[2], m[3]) for i in slot.inputs for m in i.mentions if len(m) >= 4}
    return out


def reference_outputs(task: Task, corpus: Corpus, slot_id: str) -> dict[str, Any]:
    """What ``slot_id`` offers downstream in the reference run (s*)."""
    calls = [c for c in task.default_path.calls if c.slot == slot_id]
    slot = task.slot_by_id[slot_id]
    provides = corpus.group_by_id[slot.group].provides if slot.group else ()
    try:
        return slot_outputs(corpus, slot, [c.tool for c in calls],
                            [c.response for c in calls], provides) if calls else {}
    except KeyError:  # an older suite's response, before a tool's field was added
        return {}


def scenario_of(task: Task) -> Scenario | None:
    """The library's scenario ``task`` was built from (None: none by its id, or one
    whose steps have changed since: an older suite's task is read as it was built)."""
    sc = _scenarios().get(task.meta.get("scenario", ""))
    steps = task.meta.get("steps", {})
    if sc is None or [steps.get(f"s{k + 1}") for k in range(len(sc.steps))] \
            != [s.id for s in sc.steps] or len(steps) != len(sc.steps):
        return None
    return sc


def output_type(corpus: Corpus, sc: Scenario, ref: str) -> str | None:
    """The type of a scenario output (None: the step has no such output)."""
    try:
        return _mention_type(corpus, sc, ref)
    except KeyError:
        return None


def untold_asks(task: Task, corpus: Corpus) -> tuple[Asked, ...]:
    """The facts the request asks to be told that the task grades nowhere for the user,
    each as ``Task.answer`` lists one (the reference value, resolved per episode)."""
    sc = scenario_of(task)
    if sc is None:
        return ()
    slot_of = {step: slot for slot, step in task.meta.get("steps", {}).items()}
    graded = {(m[2], m[3]) for m in task.answer if len(m) >= 4} | _to_user(task, sc)
    from toolmaze_gym.grading.asked_delivery import DELIVERY, delivery_refs

    out: list[Asked] = []
    refs = asked_refs(task.query, sc, corpus)
    if not any(r.endswith(f".{DELIVERY}") for r in refs):  # "(when will it come?)"
        refs += delivery_refs(task, sc, corpus)
    for ref in refs + priced_refs(task, sc, corpus, refs):
        step, field = ref.split(".", 1)
        slot = slot_of.get(step)
        if slot is None or slot not in task.slot_by_id:
            continue
        t = output_type(corpus, sc, ref)
        if t is None or t == FREE_TEXT:  # a text (a digest) is told in own words: not here
            continue
        ref_out = reference_outputs(task, corpus, slot)
        key = f"{t}@{field}" if f"{t}@{field}" in ref_out else t
        if key in ref_out and (slot, key) not in graded \
                and all((slot, key) != (a[2], a[3]) for a in out):
            out.append((t, ref_out[key], slot, key))
    return tuple(out)


def all_asks(task: Task, corpus: Corpus) -> tuple[tuple[Any, ...], ...]:
    """Every value the final answer must tell: the task's ``answer``, its untold asks, and
    the clocks asked in a zone that no text grades (``zone_told``, grading version 19:
    the answer or any text the agent sent may tell those)."""
    from toolmaze_gym.grading.zone_told import zone_asks  # it reads this module's outputs

    asks = tuple(task.answer) + untold_asks(task, corpus)
    return asks + tuple(z for z in zone_asks(task, corpus)
                        if all((z[2], z[3]) != (a[2], a[3]) for a in asks if len(a) >= 4))
