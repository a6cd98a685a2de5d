"""Helpers shared by the Office behaviours: time parsing, lookups, state tables.

Every Office tool keeps what it changes under an ``office.*`` namespace of the
episode state, so a later Source call sees the change and two providers of one
capability see the same records.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, not_found, parse_utc
from toolmaze_gym.world.office import ISO
from toolmaze_gym.world.people import Person

MAX_AHEAD_DAYS = 366


def table(ctx: CallContext, name: str) -> dict[str, Any]:
    return ctx.state.table(f"office.{name}")


def peek(ctx: CallContext, name: str) -> Any:
    """A namespace for reading only: a Source call leaves the episode state as it was."""
    return ctx.state.data.get(f"office.{name}") or {}


def seq(ctx: CallContext, name: str) -> list[Any]:
    return ctx.state.seq(f"office.{name}")


def counter(ctx: CallContext, name: str) -> int:
    return ctx.state.counter(f"office.{name}")


@lru_cache(maxsize=16_384)
def iso(dt: datetime) -> str:
    return dt.strftime(ISO)


@lru_cache(maxsize=16_384)
def when(value: str, field: str) -> datetime:
    """A naive UTC datetime on the minute; offsets are folded in (cached: datetimes are
    immutable, and a malformed value raises, which is never cached)."""
    return parse_utc(value, field).replace(second=0, microsecond=0)


@lru_cache(maxsize=64)
def _window(now: datetime) -> tuple[datetime, datetime]:
    return now - timedelta(minutes=1), now + timedelta(days=MAX_AHEAD_DAYS)


def future(ctx: CallContext, value: str, field: str) -> datetime:
    """A datetime that must not lie in the past nor more than a year ahead."""
    dt = when(value, field)
    lo, hi = _window(ctx.world.now)
    if dt < lo:
        raise ToolError(422, "invalid_parameter", f"{field} {value} is in the past", field)
    if dt > hi:
        raise ToolError(422, "invalid_parameter", f"{field} {value} is more than a year ahead",
                        field)
    return dt


@lru_cache(maxsize=64)
def _day_window(now: datetime) -> tuple[date, date]:
    today = now.date()
    return today, today + timedelta(days=MAX_AHEAD_DAYS)


def future_day(ctx: CallContext, value: str, field: str) -> date:
    try:
        d = date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(422, "invalid_parameter", f"{field} {value!r} is not YYYY-MM-DD",
                        field) from None
    today, last = _day_window(ctx.world.now)
    if not today <= d <= last:
        raise ToolError(422, "invalid_parameter",
                        f"{field} {value} must be between today and a year ahead", field)
    return d


def duration(value: int, field: str, lo: int = 5, hi: int = 1440) -> int:
    if not lo <= value <= hi:
        raise ToolError(422, "invalid_parameter",
                        f"{field} must be between {lo} and {hi} minutes", field)
    return int(value)


def person_by_name(ctx: CallContext, name: str, field: str) -> Person:
    p = ctx.world.people.by_name(name)
    if p is None:
        raise not_found("contact", name, field)
    return p


def person_by_email(ctx: CallContext, email: str, field: str) -> Person:
    p = ctx.world.people.by_email(email)
    if p is None:
        raise not_found("user", email, field)
    return p


_WORD = re.compile(r"\S+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def words(text: str) -> int:
    return len(_WORD.findall(text))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text.strip()) if s.strip()]
