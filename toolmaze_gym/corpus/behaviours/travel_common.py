"""Helpers shared by the Travel behaviours: places, dates, names and state tables.

Every Travel tool keeps what it changes under a ``travel.*`` namespace of the
episode state, so two providers of one capability (two booking APIs, say) see the
same seats, rooms and bookings.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, not_found, parse_utc
from toolmaze_gym.values.catalog import make_id as make_id  # re-exported
from toolmaze_gym.world.travel import Place, iso_utc

MAX_STAY_NIGHTS = 30
MAX_RENTAL_DAYS = 90


def table(ctx: CallContext, name: str) -> dict[str, Any]:
    return ctx.state.table(f"travel.{name}")


def counter(ctx: CallContext, name: str) -> int:
    return ctx.state.counter(f"travel.{name}")


def place(ctx: CallContext, city: str, field: str = "city") -> Place:
    p = ctx.world.travel.place(city)
    if p is None:
        raise not_found("city", city, field)
    return p


def route(ctx: CallContext, origin: str, destination: str) -> tuple[Place, Place]:
    a, b = place(ctx, origin, "origin"), place(ctx, destination, "destination")
    if a == b:
        raise ToolError(422, "invalid_parameter", "origin and destination must differ",
                        "destination")
    return a, b


def remember(ctx: CallContext, key: tuple, value: Any) -> Any:
    """Store a pure derived fact in the world's travel memo (bounded: cleared when full)."""
    memo = ctx.world.travel.memo
    if len(memo) >= 100_000:
        memo.clear()
    memo[key] = value
    return value


def _parse_day(ctx: CallContext, value: str) -> tuple[str, bool] | None:
    """(ISO day, bookable) for a date argument, or None when it is no date; memoised."""
    memo = ctx.world.travel.memo
    k = ("day", value)
    try:
        return memo[k]
    except KeyError:
        pass
    try:
        iso = date.fromisoformat(value.strip()[:10]).isoformat()
    except ValueError:
        out = None
    else:
        out = (iso, ctx.world.travel.valid_day(iso))
    return remember(ctx, k, out)


def travel_day(ctx: CallContext, value: str, field: str = "date") -> str:
    """A bookable day: today up to the booking window (about eleven months)."""
    parsed = _parse_day(ctx, value)
    if parsed is None:
        raise ToolError(422, "invalid_parameter", f"{field} {value!r} is not YYYY-MM-DD",
                        field)
    iso, ok = parsed
    if not ok:
        raise ToolError(422, "out_of_range",
                        f"{field} {iso} is outside the bookable window (today to 330 days ahead)",
                        field)
    return iso


@cache
def plus_days(day: str, n: int) -> str:
    """Date arithmetic on ISO strings; cached because stays ask it per night per hotel."""
    return (date.fromisoformat(day) + timedelta(days=n)).isoformat()


def bounded(n: int, hi: int, field: str, what: str) -> int:
    if not 1 <= n <= hi:
        raise ToolError(422, "out_of_range", f"{what} must be between 1 and {hi}", field)
    return int(n)


def person(ctx: CallContext, name: str) -> str:
    """The traveller's name as the directory spells it (the literal check vouched for it)."""
    p = ctx.world.people.by_name(name)
    return p.name if p else " ".join(name.split())


def utc(value: str, field: str) -> datetime:
    return parse_utc(value, field)


def stamp(dt: datetime) -> str:
    return iso_utc(dt)


def need(row: dict[str, Any] | None, kind: str, value: str, field: str) -> dict[str, Any]:
    if row is None:
        raise not_found(kind, value, field)
    return row
