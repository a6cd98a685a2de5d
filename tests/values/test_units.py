"""Unit and format variants of core types: their invariants fit their unit."""

from __future__ import annotations

from toolmaze_gym import values
from toolmaze_gym.values import CheckContext


def test_epoch_timestamps_are_fresh_or_stale_against_the_clock(world):
    t = values.get("unix_time")
    now = t.sample(world, "k")
    ctx = CheckContext(world)
    assert t.violation(now, ctx) is None
    assert "days away" in t.violation(now - 5 * 86400, ctx)
    stale = next(c for c in t.corruptions if c.kind == "stale")
    bad, detail = stale.fn(now, ctx, "k")
    assert isinstance(bad, int) and t.violation(bad, ctx) and "stale" in detail
    assert t.same(now, now + 30)  # to the minute


def test_us_dates_normalise_to_iso(world):
    t = values.get("us_date")
    ctx = CheckContext(world)
    assert t.violation("12/31/2026", ctx) is None
    assert t.violation("2026-12-31", ctx) and t.violation("13/01/2026", ctx)
    assert t.same("03/02/2026", "03/02/2026") and t.normalise("03/02/2026") == "2026-03-02"


def test_units_have_their_own_plausible_ranges(world):
    ctx = CheckContext(world)
    assert values.get("wind_mph").violation(150, ctx) is None
    assert values.get("wind_mph").violation(250, ctx)
    assert values.get("distance_mi").violation(12000, ctx) is None
    assert values.get("rating_10").violation(11, ctx)
