"""Whether the request asks a time in a named zone, so the clock there must be told.

A datetime is an instant: a text that writes it in any zone says it (``mentions``).
Where the user asks for a time in a zone ("pick-up ... in local time", "what time that
is in Mexico City"), the instant in another zone answers another question: the driver
who reads "09:13 UTC" still has to work out the local clock, and an SMS that gives
only "17:00 UTC" leaves out the Mexico City time it was sent to tell (grading version
16, toolmaze-v6 play-test c2-0077, c3-0032). Then the text must write the value's wall
clock in its own zone (``mentions.wall_clock_mentioned``).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from toolmaze_gym.world import zones
from toolmaze_gym.world.base import load_data

# "local time", "the local pick-up time", "in local time", "local clock"
# "local time", "in local", and the destination's own clock named ("in the destination's
# time zone": grading version 22, toolmaze-v10 review c4-0093, where "15:09 UTC" passed
# for the 17:09 Madrid asked)
_LOCAL = re.compile(r"\blocal\b(?:\s+\w+){0,2}?\s+(?:time|clock)\b|\bin\s+local\b"
                    r"|\bdestination(?:\s+city)?['’]s\s+(?:own\s+)?(?:time\s*zone|clock)\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_TIME = re.compile(r"\btime\b", re.I)
_OFFSET = re.compile(r"(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([+-]\d{2}:\d{2}|Z)$")


def zone_asked(query: str, value: Any) -> bool:
    """Whether ``query`` asks for the datetime ``value`` in its own zone: it says
    "local time", or a sentence that asks a time names a city whose clock on that day
    runs at the value's offset."""
    return _zone_asked(query, str(value))


@lru_cache(maxsize=1024)  # a grade asks once per text per path; bounded: values vary
def _zone_asked(query: str, value: str) -> bool:
    m = _OFFSET.match(value)
    if m is None:
        return False
    if _LOCAL.search(query):
        return True
    day, offset = m[1], "+00:00" if m[2] == "Z" else m[2]
    return any(offset_on(zone, day) == offset
               for sentence in _SENTENCE.split(query) if _TIME.search(sentence)
               for zone in cities_named(sentence))


def cities_named(sentence: str) -> list[str]:
    """The time zones of the gazetteer's cities ``sentence`` names."""
    return [zone for _, zone in cities_in(sentence)]


def cities_in(text: str) -> list[tuple[str, str]]:
    """(name casefolded, time zone) of each gazetteer city ``text`` names."""
    folded = text.casefold()
    return [(name, zone) for name, zone, pattern in _cities() if pattern.search(folded)]


@lru_cache(maxsize=1)
def _cities() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """Each city's pattern compiled once: built on every call, they fell out of
    ``re``'s own cache among the grader's other patterns and were compiled anew."""
    return tuple((c[0].casefold(), c[3], re.compile(rf"\b{re.escape(c[0].casefold())}\b"))
                 for c in load_data("cities.json"))


@lru_cache(maxsize=256)
def offset_on(zone: str, day: str) -> str | None:
    try:
        minutes = int(zones.offset(zone, datetime.fromisoformat(f"{day}T12:00"))
                      .total_seconds() // 60)
    except (ValueError, KeyError):
        return None
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


# "is visiting our Paris office", "comes to Berlin", "who's in Berlin", "in person at"
_VISIT = re.compile(r"\b(?:visit(?:ing|s)?|comes?\s+to|coming\s+to|who(?:'s|\s+is)\s+in"
                    r"|in\s+person\s+at)\b", re.I)
_CLOCK_WRITTEN = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?!\d)")


def visit_offset(query: str, value: Any) -> str | None:
    """The UTC offset, on the datetime ``value``'s day, of the one place the request
    says a person visits ("is visiting our Paris office", "comes to Berlin"), where
    the request writes no clock time of its own: a note to that visitor tells the
    time on the clock there, so an unlabelled "10:00" is Paris time and the UTC clock
    written bare is two hours off (grading version 17, v7 review c3-0022). None where
    no such place is named, two zones are, or it keeps the value's own offset."""
    m = _OFFSET.match(str(value))
    if m is None or _CLOCK_WRITTEN.search(query):
        return None
    day, own = m[1], "+00:00" if m[2] == "Z" else m[2]
    offsets = {offset_on(zone, day) for sentence in _SENTENCE.split(query)
               if _VISIT.search(sentence) for zone in cities_named(sentence)}
    if len(offsets) != 1:
        return None
    offset = offsets.pop()
    return offset if offset not in (None, own) else None


def at_visit_clock(query: str, value: Any) -> Any:
    """``value`` written at the visited place's offset (``visit_offset``): the same
    instant, whose unlabelled clock a text is read at; else ``value`` as it is."""
    offset = visit_offset(query, value)
    return value if offset is None else at_offset(value, offset)


def at_offset(value: Any, offset: str) -> str:
    """The datetime ``value`` written at the UTC offset ``offset`` ("+02:00")."""
    sign = -1 if offset[0] == "-" else 1
    shift = timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6])) * sign
    instant = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return instant.astimezone(timezone(shift)).isoformat(timespec="seconds")


def clock_written(text: str) -> bool:
    """Whether ``text`` writes a clock time ("13:00") of its own."""
    return _CLOCK_WRITTEN.search(text) is not None


def day_and_offset(value: Any) -> tuple[str, str] | None:
    """(day, UTC offset) of an ISO datetime ``value`` with its zone; None for another."""
    m = _OFFSET.match(str(value))
    return None if m is None else (m[1], "+00:00" if m[2] == "Z" else m[2])


def asked_clock(query: str, value: Any, reference: Any) -> Any:
    """The episode's instant ``value`` as the clock the request asks it on, or None
    where the request asks no zone for it (``zone_asked``). The zone is the one the
    reference run's value ``reference`` is in where the request asks that: an agent
    that shifts the UTC landing by an hour and then converts it has the same local
    pick-up time as one that converts first, though the shift it took the value from
    answers in UTC (toolmaze-v9 play-test c3-0043 P3, grading version 21)."""
    for asked in (reference, value):
        told = day_and_offset(asked) if asked is not None else None
        if told is not None and zone_asked(query, asked):
            return at_offset(value, told[1]) if day_and_offset(value) else value
    return None
