"""What a text asked to tell "the plan" must carry (grading version 21).

toolmaze-v9's c4-0012 set up two reviews (Elif Hughes on "Meeting minutes" in a session
with me, liam.kowalski@globex.net on "Architecture overview" offline, chased by 22
August) and asked to "post the plan in the design channel"; the post was graded on the
session's Singapore time alone, so "Elif: 16:00 Singapore time, 31 Aug" passed, and so
did a plan with the reviewers and documents swapped.

A plan is who does what, and when: where the clause that asks for an Action's text
says "the plan" ("the schedule", "the assignments", "the arrangements"), the text must
carry each title and date the reference run's own text tells of what the earlier
steps made (a value of the steps it reads); where that text tells different people in
different clauses (who does what), each of them too (of the steps it reads, or named in
the request), each in one clause with the titles told beside them (``told_together``).
A plan of one person's day need not name them (v9 c4-0075: "a home notification with
the plan" for a guest's arrival asks the welcome scene's time, not the guest). A request that spells
the plan out ("a summary of the plan (room, time and the file's link)", "the plan with
the meeting time and the room") asks what it lists (``noted_facts``), not this.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.asked_facts import reference_outputs
from toolmaze_gym.grading.told_together import PERSON, TOLD_TOGETHER, clauses
from toolmaze_gym.mentions import FREE_TEXT
from toolmaze_gym.tasks.model import Slot, Task

_PLAN = re.compile(r"\bthe (?:plan|schedule|assignments|arrangements)\b"
                   r"(?!\s*(?:\(|:|with\b))", re.I)
_PEOPLE = frozenset({"person_name", "email"})
_DATES = frozenset({"iso_date", "iso_datetime"})
_PLAN_TYPES = _PEOPLE | _DATES | {FREE_TEXT}

Fact = tuple[str, Any, str, str]  # (type, value, slot, key); slot "" for the request's


def plan_asked(asking: Sequence[str]) -> bool:
    """Whether a clause asking for a text asks it "the plan", not spelled out."""
    return any(_PLAN.search(c) for c in asking)


def _instant(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def _facts(task: Task, corpus: Corpus, slot: Slot, text: str) -> list[Fact]:
    """The people, titles and dates ``text`` (the reference run's) tells: of the steps
    the slot reads, and the people the request names."""
    out: list[Fact] = []
    for up, t in slot.reads:
        if t not in _PLAN_TYPES or up not in task.slot_by_id:
            continue
        for key, v in reference_outputs(task, corpus, up).items():
            if key.partition("@")[0] == t and isinstance(v, str) and says(text, t, v) \
                    and all((t, v) != f[:2] for f in out):  # a key and its type@field
                out.append((t, v, up, key))
    for e in task.entities:
        t, v = e.get("type"), e.get("value")
        if t in _PEOPLE and isinstance(v, str) and says(text, t, v) \
                and all(v != f[1] for f in out):
            out.append((t, v, "", ""))
    return out


def _new(fact: Fact, asked: list[tuple[Any, ...]]) -> bool:
    """Whether ``fact`` is not asked yet (a time asked on another clock is)."""
    t, v, slot, key = fact
    for m in asked:
        if len(m) >= 4 and slot and (m[2], m[3]) == (slot, key):
            return False
        if m[1] == v or (t in _DATES and m[0] in _DATES
                         and _instant(v) is not None and _instant(v) == _instant(m[1])):
            return False
    return True


def _entry(fact: Fact) -> tuple[Any, ...]:
    t, v, slot, key = fact
    shown = PERSON if t in _PEOPLE else t
    return (shown, v, slot, key) if slot else (shown, v)


def _pairs(facts: list[Fact], text: str) -> list[tuple[Any, ...]]:
    """Each person with each title the reference text tells in the same clause, where
    two or more of its clauses name people (none: it tells no one's share apart)."""
    people = [f for f in facts if f[0] in _PEOPLE]
    titles = [f for f in facts if f[0] == FREE_TEXT]
    rows = [([p for p in people if says(c, p[0], p[1])],
             [x for x in titles if says(c, x[0], x[1])]) for c in clauses(text)]
    if sum(1 for who, _ in rows if who) < 2:
        return []
    return [(TOLD_TOGETHER, ((PERSON, p[1]), (FREE_TEXT, x[1])))
            for who, what in rows for p in who for x in what]


def plan_asks(task: Task, corpus: Corpus, slot: Slot, asking: Sequence[str], text: str,
              asked: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
    """The entries a text asked "the plan" (``asking``: the request's clauses asking
    for it) must say beyond those ``asked`` already, its reference being ``text``."""
    if not plan_asked(asking):
        return ()
    facts = _facts(task, corpus, slot, text)
    pairs = _pairs(facts, text)
    have = list(asked)
    out: list[tuple[Any, ...]] = []
    for f in facts:
        if (pairs or f[0] not in _PEOPLE) and _new(f, have):
            have.append(f)
            out.append(_entry(f))
    return tuple(out) + tuple(pairs)
