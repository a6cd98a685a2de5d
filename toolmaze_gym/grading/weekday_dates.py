"""A weekday of the coming week names its date (grading version 21, toolmaze-v9 review
c2-0010).

On Tuesday 18 August an SMS that moves a meeting "to Friday, 5:00 PM your time
(Tokyo)" tells the attendee 21 August as surely as "Friday 21 August" does: a reader
takes a bare weekday for the next day of that name, from the day it is written. So a
text's date or time is read with each bare weekday of the coming six days dated from
the episode's clock (the world's ``today``, the clock the agent is shown). Not dated:
a weekday in a text that writes a date of its own ("Friday 21 August": the date is
read, and a wrong one stays wrong), today's own weekday and "next Friday" (today or a
week on, this week's or the next: the reader cannot tell); a wrong weekday ("Thursday")
names a wrong date.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache

from toolmaze_gym.mentions import dates_written

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SHORT = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_MONTH = r"(?i:" + "|".join(m[:3] for m in _MONTHS) + r")"
# A date written after a weekday: "Friday 21 August", "Fri, Aug 21", "Friday the 21st",
# "Friday 21/08", "Friday 21.08.", "Friday 2026-08-21" (a clock is none: "Friday, 5:00").
_DATE_AFTER = (r",?\s*(?:the\s+)?(?:" + _MONTH + r"|\d{1,2}(?:st|nd|rd|th)\b"
               r"|\d{1,2}\s+(?:of\s+)?" + _MONTH + r"|\d{1,2}/\d{1,2}|\d{1,2}\.\d{1,2}\."
               r"|\d{4}-\d{2}-\d{2})")
# A weekday in full (any case) or its capitalised short form, not after "next".
_BARE = re.compile(r"(?<!\bnext )(?<!\bNext )\b(?:(?i:(" + "|".join(_DAYS) + r"))|("
                   + "|".join(_SHORT) + r"))\b(?!" + _DATE_AFTER + ")")


@lru_cache(maxsize=4096)
def weekdays_dated(text: str, today: str) -> str:
    """``text`` with each bare weekday of the six days after ``today`` (YYYY-MM-DD)
    followed by its date ("Friday 21 August 2026"); ``text`` as it is where it writes a
    date of its own (a weekday beside a date is read by the date; one beside another
    date stays unread rather than read two ways) or no ``today`` is known."""
    if not today or not isinstance(text, str) or dates_written(text, today[:4]):
        return text  # a text that writes a date says the day by it
    start = date.fromisoformat(today[:10])

    def dated(m: re.Match[str]) -> str:
        weekday = _DAYS.index(m[1].lower()) if m[1] else _SHORT.index(m[2])
        ahead = (weekday - start.weekday()) % 7
        if ahead == 0:
            return m[0]
        day = start + timedelta(days=ahead)
        return f"{m[0]} {day.day} {_MONTHS[day.month - 1]} {day.year}"

    return _BARE.sub(dated, text)
