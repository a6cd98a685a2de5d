"""A time the request asks in a named zone is told on that zone's clock (grading version 19).

A step that converts an instant into a zone (``timezone_convert``, ``convert_datetime``)
works out the clock the user asked for: toolmaze-v8's c4-0001 sets up a call with a
friend in Vienna "at 12:00 UTC on Sunday 30 August in their local time", and c3-0012
asks "find out when I land, local time" before booking a room. Neither local time was
in any must-mention, so a call invitation and an e-mail that never told Lena 14:00,
and a finish that never told the user the landing at 11:24, passed (the v8 blind
review, settled by replay).

So where the request asks a zone (``asked_zone.zone_asked``: "local time", or a
sentence asking a time that names a city on that clock), no text or answer of the task
already grades the converted instant, and it is asked for itself, it is asked of the
episode. A conversion is asked for itself where no later step reads it (c4-0001: the
call is booked at the UTC instant; the Vienna clock is there only to be told), or where
the request asks to "find out when ..." in that zone (c3-0012; ``_found_out``). One a
later step reads, unasked ("schedule the welcome home scene for that local time", v8
c1-0009), is a step on the way to an Action, graded there. Then a text the
agent sent (the Action it belongs to, an invitation or an e-mail to the person it is
for) or the final answer must write that zone's clock, in any competent format (14:00,
2 pm, 14h). The date may go unwritten where the text writes no date at all ("you land
at 11:24 local time"): the request fixed the day; a text that writes another date
beside the clock tells another instant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.grading.asked_facts import Asked, reference_outputs
from toolmaze_gym.grading.asked_zone import zone_asked
from toolmaze_gym.mentions import DATETIME_TYPES, FREE_TEXT, dates_written, wall_clock_mentioned
from toolmaze_gym.tasks.model import Task

DATETIME = "iso_datetime"
_KEYS = (f"{DATETIME}@datetime", DATETIME)  # a conversion's result, named or by type
# "14h" alone, as French and German readers write a whole hour
_WHOLE_HOUR = re.compile(r"(?<![\d:])(\d{1,2})\s?h(?![\w:])", re.I)


# "Find out when I land, local time, and ...": to the clause's end (a stop, a semicolon)
_FIND_OUT = re.compile(r"\bfind out when\b[^.;!?]*", re.I)


def _found_out(query: str, value: Any) -> bool:
    """Whether a "find out when ..." clause of ``query`` asks ``value``'s zone."""
    return any(zone_asked(m[0], value) for m in _FIND_OUT.finditer(query))


def _read(task: Task) -> set[str]:
    """The slots whose output a later step takes as a value, not as words of a text (an
    e-mail that quotes the Vienna clock is where it is told, not a step it is read by)."""
    return {i.source.slot for s in task.slots for i in s.inputs
            if not i.source.is_literal and i.type != FREE_TEXT}


def _graded(task: Task) -> set[str]:
    """The slots whose datetime a text or the final answer of ``task`` already grades."""
    marks = [m for s in task.slots for i in s.inputs for m in i.mentions] + list(task.answer)
    return {m[2] for m in marks if len(m) >= 4 and m[0] in DATETIME_TYPES}


def zone_asks(task: Task, corpus: Corpus) -> tuple[Asked, ...]:
    """Each instant a step of ``task`` converts into a zone the request asks, that no
    text or answer grades, as ``Task.answer`` lists a value (the reference run's)."""
    graded, read, out = _graded(task), _read(task), []
    for slot in task.slots:
        if slot.id in graded or not any(i.role == "instant" for i in slot.inputs):
            continue
        outs = reference_outputs(task, corpus, slot.id)
        key = next((k for k in _KEYS if k in outs), None)
        if key is None or not any(k.partition("@")[0] == "timezone" for k in outs):
            continue  # no conversion into a zone (a shift by minutes keeps its zone)
        if zone_asked(task.query, outs[key]) \
                and (slot.id not in read or _found_out(task.query, outs[key])):
            out.append((DATETIME, outs[key], slot.id, key))
    return tuple(out)


def clock_told(text: str, value: Any) -> bool:
    """Whether ``text`` writes ``value``'s clock in its own zone (``wall_clock_mentioned``),
    its date beside it or, where the text writes no date, the request's."""
    if not isinstance(text, str) or not text.strip():
        return False
    text = _WHOLE_HOUR.sub(lambda m: f"{m[1]}:00", text)
    if wall_clock_mentioned(text, DATETIME, value):
        return True
    day = str(value)[:10]
    return not dates_written(text, day[:4]) \
        and wall_clock_mentioned(f"{text} ({day})", DATETIME, value)


def free_texts(corpus: Corpus, tool: str, args: Any) -> list[str]:
    """The words of ``tool``'s free-text arguments in ``args`` (a subject, a body): an
    Action's instant (a room booked at 13:24+08:00) is a value it takes, not a clock
    told to anyone."""
    if not isinstance(args, dict) or tool not in corpus:
        return []
    spec = corpus[tool]
    names = {p.name for p in spec.params if p.type == FREE_TEXT}
    return [v for k, v in args.items() if k in names and isinstance(v, str)] \
        if spec.category == "Action" else []


def told_anywhere(texts: Iterable[str], answer: str, value: Any) -> bool:
    """Whether the final answer or any text the agent sent tells ``value``'s clock."""
    return clock_told(answer, value) or any(clock_told(t, value) for t in texts)
