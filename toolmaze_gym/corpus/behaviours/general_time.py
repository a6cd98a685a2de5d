"""Time-zone lookups and date-time arithmetic (General domain).

Offsets follow the real rules, summer time included, from the pinned tzdata
(``world.zones``), never the host's tz database, so a conversion is the same on
every machine and agrees with what a careful agent knows. A zone lookup reports
the offset in force at the world's clock; a conversion, the offset at the instant
converted. Converting and shifting commute, which is what lets two different
chains reach one instant.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from toolmaze_gym.corpus.behaviours import (
    CallContext,
    ToolError,
    add_minutes,
    behaviour,
    not_found,
    out_of_range,
)
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.corpus.behaviours.weather import city_of
from toolmaze_gym.values.catalog import parse_datetime
from toolmaze_gym.world import zones


def parse_instant(value: str, field: str) -> datetime:
    """An aware datetime; a value without offset is read as UTC. One whose instant
    lies outside the years 1-9999 in UTC (0001-01-01T00:00+14:00) is a 422, so every
    later conversion of it to UTC is safe."""
    try:
        dt = parse_datetime(value.strip())
    except ValueError:
        raise ToolError(422, "invalid_parameter", f"{value!r} is not an ISO 8601 date-time",
                        field) from None
    if dt.tzinfo is None:
        return dt.replace(tzinfo=UTC)
    in_zone(dt, UTC, field)
    return dt


def in_zone(when: datetime, tz: tzinfo, field: str) -> datetime:
    """``when`` as local time in ``tz``; a local date past 9999-12-31 or before year 1
    is a 422 naming ``field``, never an OverflowError."""
    try:
        return when.astimezone(tz)
    except OverflowError:
        raise out_of_range(field, f"{field} {format_instant(when)} in {tz}") from None


def format_instant(dt: datetime) -> str:
    """ISO 8601 with seconds; UTC is written 'Z', any other offset as +HH:MM."""
    off = dt.utcoffset() or timedelta(0)
    if off == timedelta(0) and dt.tzinfo is UTC:
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    sign = "-" if off < timedelta(0) else "+"
    minutes = abs(int(off.total_seconds())) // 60
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def zone_of(ctx: CallContext, tz: str, canonical: str) -> ZoneInfo:
    if tz not in ctx.world.geo.timezones:
        raise not_found("time zone", tz, field_name(ctx, canonical))
    return zones.zone(tz)


@behaviour("time.city_timezone")
def city_timezone(ctx: CallContext, city: str) -> dict:
    c = city_of(ctx, city)
    return {"city": c.name, "timezone": c.timezone, "country_code": c.country_code,
            "utc_offset_hours": ctx.world.geo.utc_offset_hours(c.timezone),
            "raw_offset_hours": zones.standard_offset_hours(c.timezone, ctx.world.now)}


@behaviour("time.convert")
def convert(ctx: CallContext, instant: str, to_timezone: str) -> dict:
    when = parse_instant(instant, field_name(ctx, "instant"))
    local = in_zone(when, zone_of(ctx, to_timezone, "to_timezone"), field_name(ctx, "instant"))
    hours = (local.utcoffset() or timedelta(0)).total_seconds() / 3600
    return {"datetime": format_instant(local), "timezone": to_timezone,
            "utc_offset_hours": hours, "source": format_instant(when)}


@behaviour("time.shift")
def shift(ctx: CallContext, instant: str, minutes: int) -> dict:
    when = parse_instant(instant, field_name(ctx, "instant"))
    later = add_minutes(when, minutes, field_name(ctx, "instant"))
    return {"datetime": format_instant(later),
            "minutes": minutes, "source": format_instant(when)}
