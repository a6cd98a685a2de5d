"""Values said in people's words: dates, times and decimal counts in a request.

A request is what a person writes, and no person sets "a reminder for
2026-08-31T15:00:00Z" or asks for an amount "rounded to 0 decimal places". The
generator says such values the way ``data/wording/requests.toml`` [say] writes them
("15:00 UTC on Monday 31 August", "rounded to the nearest whole number"); the agent
turns them back into a tool's format, and the grader reads dates and times in words
(``mentions.dates_in`` and the clock reading), so a text the reference run writes in
these words still proves what it must mention. (A time zone is said by its city,
"Toronto time", as ``mentions.spoken_forms`` writes and reads it, like a language.)
"""

from __future__ import annotations

import tomllib
from datetime import date, datetime
from functools import cache
from importlib import resources
from typing import Any

from toolmaze_gym.mentions import DATE_TYPES, DATETIME_TYPES
from toolmaze_gym.values.numbers import is_number

DATA = ("data", "wording", "requests.toml")


@cache
def wording() -> dict[str, Any]:
    """The [say] and [[machine]] tables of the request-wording data file."""
    path = resources.files("toolmaze_gym").joinpath(*DATA)
    return tomllib.loads(path.read_text(encoding="utf-8"))


def say_date(day: date) -> str:
    """"Monday 31 August": the weekday pins the year a request leaves out."""
    return wording()["say"]["date"].format(weekday=day.strftime("%A"), day=day.day,
                                           month=day.strftime("%B"))


def _zone(dt: datetime) -> str:
    """"UTC" for UTC, "UTC+02:00" for an offset, "" for a time without a zone."""
    off = dt.utcoffset()
    if off is None:
        return ""
    utc = wording()["say"]["utc"]
    if not off:
        return utc
    sign, minutes = ("-", -off) if off.total_seconds() < 0 else ("+", off)
    h, m = divmod(int(minutes.total_seconds()) // 60, 60)
    return f"{utc}{sign}{h:02d}:{m:02d}"


def say_datetime(dt: datetime) -> str:
    """"15:00 UTC on Monday 31 August": the clock in 24-hour time with its zone, at
    the value's own offset (the grader reads the zone written after the clock)."""
    clock = dt.strftime("%H:%M:%S" if dt.second else "%H:%M")
    text = wording()["say"]["datetime"].format(clock=clock, zone=_zone(dt),
                                               date=say_date(dt.date()))
    return " ".join(text.split())


@cache
def _country_names() -> dict[str, str]:
    from toolmaze_gym.world.base import load_data  # the world's countries, by code

    names = {row[1]: row[2] for row in load_data("cities.json")}
    return {**names, **wording()["say"]["country_names"]}


def country_in(code: str) -> str | None:
    """How a request says a country code after "in": its name, with "the" where the
    name takes it ("in the Netherlands"); None for a code of no known country."""
    key = str(code).strip().upper()
    name = _country_names().get(key)
    if name is None:
        return None
    return f"the {name}" if key in wording()["say"]["countries_with_the"] else name


def country_adjective(code: str) -> str | None:
    """How a request says a country code before "VAT": its adjective ("German VAT",
    not "DE VAT": toolmaze-v8 c1-0093); None for a code with no adjective on file."""
    return wording()["say"]["country_adjectives"].get(str(code).strip().upper())


def say_amount(value: Any) -> str | None:
    """An amount of money as people write it in a request, with thousands separators
    from ``amount_grouped_from`` up ("10,203", not "10203": toolmaze-v8 c1-0093);
    None for a smaller amount or a value that is no number (written as it is)."""
    if not is_number(value):
        return None
    if abs(value) < wording()["say"]["amount_grouped_from"]:
        return None
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,}"
    return f"{int(value):,}"


def said(type_: str, value: Any) -> str | None:
    """``value`` in people's words, or None where it is written as it is."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    try:
        if type_ in DATE_TYPES and isinstance(value, str):
            return say_date(date.fromisoformat(value[:10]))
        if type_ in DATETIME_TYPES and isinstance(value, str):
            return say_datetime(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return None
    if type_ == "decimal_places" and isinstance(value, int):
        words = wording()["say"]["decimal_places"]
        return words[value] if 0 <= value < len(words) else None
    return None
