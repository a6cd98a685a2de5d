"""An unlabelled clock written beside the city where a thing happens (grading version 21).

A datetime is an instant; a text that writes its clock with no zone is read at the
value's own offset (``mentions``), so for a meeting at 08:00Z a bare "08:00" passes.
But where the request sets the thing in one named city ("book a room for 3 people in
Rome") and writes no clock of its own, the reader of "Mon 24 Aug 10:00 in Rome Tesla"
reads the clock of the place the text names beside it: 10:00 in Rome is 08:00 UTC
(toolmaze-v9 review c4-0088, settled by replay: the bare Rome clock failed while the
bare UTC clock and "10:00 Rome time" passed). So a text that names that city also
says the instant by its bare clock read on that city's clock; the bare UTC clock still
passes as before, and any other clock ("11:00") tells another instant.

A request that names a visitor's place reads bare clocks there only
(``asked_zone.visit_offset``); one that writes a clock itself ("Talk in Singapore at
13:00 UTC") or names cities on two clocks (a flight's two ends) sets no one venue.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from toolmaze_gym.grading.asked_zone import (
    at_offset,
    cities_in,
    clock_written,
    day_and_offset,
    offset_on,
    visit_offset,
)
from toolmaze_gym.mentions import mentions

# A pseudo-type (``arguments.PSEUDO_TYPES``): an entry (AT_VENUE, (datetime, on the
# venue's clock, city)) is the instant told as ever, or by its clock on the city's with
# the city named in the text.
AT_VENUE = "at_venue_clock"
_CITY = "city_name"
_DATETIME = "iso_datetime"


def venue_reading(query: str, value: Any) -> tuple[Any, str, str] | None:
    """(``value``, it written at the venue's offset, the venue city) where the request
    sets things in one city on another clock than the value's (``_venue``); else None."""
    venue = _venue(query, str(value))
    return None if venue is None else (value, at_offset(value, venue[1]), venue[0])


@lru_cache(maxsize=1024)  # per task and value: a grade resolves each text rule often
def _venue(query: str, value: str) -> tuple[str, str] | None:
    """(city, offset) of the one city the request names, where the request writes no
    clock, names no visit, and that city's clock on the value's day is not its own."""
    told = day_and_offset(value)
    if told is None or clock_written(query) or visit_offset(query, value) is not None:
        return None
    day, own = told
    named = {(name, offset_on(zone, day)) for name, zone in cities_in(query)}
    if len({offset for _, offset in named}) != 1:
        return None
    city, offset = min(named)
    return (city, offset) if offset not in (None, own) else None


def venue_clock_said(text: str, reading: Any) -> bool:
    """Whether ``text`` tells the instant of ``reading`` (``venue_reading``) as ever, or
    names the venue city and tells it on the city's clock (a bare "10:00" for 08:00Z
    in Rome)."""
    if not isinstance(reading, tuple) or len(reading) != 3:
        return False
    instant, at_venue, city = reading
    return mentions(text, _DATETIME, instant) \
        or (mentions(text, _CITY, city) and mentions(text, _DATETIME, at_venue))
