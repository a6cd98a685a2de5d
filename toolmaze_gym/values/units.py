"""The same quantities in other units and formats, as other providers report them.

Alternatives of a corpus group agree on facts but not on conventions: one API
reports miles where another reports kilometres, epoch seconds where another
writes ISO 8601, a date as MM/DD/YYYY. Each convention is its own semantic type
so its invariant, normaliser and corruptions fit the unit (a plausible wind in
mph is not a plausible wind in km/h). The corpus adapters convert between them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import number_type, pattern_type
from toolmaze_gym.values.types import CheckContext, Corruption, SemanticType, register

number_type("distance_mi", 0, 15535, "distance in miles, never negative",
            sample_lo=1, sample_hi=3000)
number_type("wind_mph", 0, 190, "wind speed in mph, never negative", sample_hi=40)
number_type("precipitation_in", 0, 20, "precipitation in inches, never negative", sample_hi=2)
number_type("weight_lb", 0, 22046, "a weight in pounds, never negative",
            sample_lo=0.2, sample_hi=66)
number_type("duration_hours", 0, 168, "a duration in hours, never negative",
            sample_lo=0.25, sample_hi=4)
number_type("rating_10", 0, 10, "a score out of 10", sample_lo=5, sample_hi=10, literal=True)

# ---------------------------------------------------------------- dates and times


def _us_date_sample(world: Any, key: str) -> str:
    day = world.now + timedelta(days=hashing.randint(1, 13, "us_date", key))
    return day.strftime("%m/%d/%Y")


def _us_date_norm(v: Any) -> str:
    m, d, y = str(v).strip().split("/")
    return f"{y}-{m}-{d}"


pattern_type("us_date", r"^(0[1-9]|1[0-2])/(0[1-9]|[12][0-9]|3[01])/[0-9]{4}$",
             "a calendar date, MM/DD/YYYY (US order)", _us_date_sample,
             normalise=_us_date_norm)


def _epoch_now(world: Any) -> int:
    return int(world.now.replace(tzinfo=UTC).timestamp())


def _fresh_epoch(value: Any, ctx: CheckContext) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return "unix_time must be a whole number of seconds"
    age = _epoch_now(ctx.world) - value
    if abs(age) > 24 * 3600:
        when = datetime.fromtimestamp(value, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return (f"unix_time {value} ({when}) is {abs(age) // 86400} days away from now "
                f"({ctx.world.now_iso})")
    return None


def _stale_epoch(value: Any, ctx: CheckContext, key: str):
    days = hashing.randint(3, 45, "stale", key)
    bad = _epoch_now(ctx.world) - days * 86400 - hashing.randint(0, 3600, "stale-s", key)
    return bad, f"unix_time {bad} is {days} days old; the data is stale"


register(SemanticType(
    name="unix_time", schema={"type": "integer", "minimum": 0},
    description="when the data was observed, in Unix epoch seconds (UTC); live data is "
                "less than 24 h old",
    sample=lambda world, key: _epoch_now(world), check=_fresh_epoch,
    normalise=lambda v: int(v) // 60,
    corruptions=(Corruption("stale_timestamp", "stale", _stale_epoch),)))
