"""Weather and geocoding behaviours (General domain).

Every provider reads the same world facts (``Geo.weather``), so alternatives agree
to the decimal once units are adapted; only field names and shapes differ.
"""

from __future__ import annotations

from datetime import date, timedelta

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.world.geo import City

# Forecasts cover yesterday (observed) up to this many days ahead (long-range outlook).
HORIZON_DAYS = 90


def city_of(ctx: CallContext, name: str, canonical: str = "city") -> City:
    city = ctx.world.geo.city(name)
    if city is None:
        raise not_found("city", name, field_name(ctx, canonical))
    return city


def _day(ctx: CallContext, day: str) -> str:
    field = field_name(ctx, "date")
    try:
        d = date.fromisoformat(day)
    except ValueError:
        raise ToolError(422, "invalid_parameter", f"date {day!r} is not YYYY-MM-DD",
                        field) from None
    today = ctx.world.now.date()
    if not today - timedelta(days=1) <= d <= today + timedelta(days=HORIZON_DAYS):
        raise ToolError(422, "out_of_range",
                        f"forecasts cover yesterday to {HORIZON_DAYS} days ahead", field)
    return d.isoformat()


@behaviour("weather.current")
def current(ctx: CallContext, city: str) -> dict:
    c = city_of(ctx, city)
    w = ctx.world.geo.weather(c, ctx.world.today)
    return {"city": c.name, "temp_c": ctx.world.geo.current_temp(c), "condition": w.condition,
            "humidity_pct": w.humidity_pct, "wind_kph": w.wind_kph,
            "observed_at": ctx.world.now_iso}


@behaviour("weather.forecast")
def forecast(ctx: CallContext, city: str, date: str) -> dict:
    c = city_of(ctx, city)
    w = ctx.world.geo.weather(c, _day(ctx, date))
    return {"city": c.name, "date": w.date, "high_c": w.high_c, "low_c": w.low_c,
            "condition": w.condition, "precipitation_mm": w.precipitation_mm,
            "humidity_pct": w.humidity_pct}


@behaviour("geo.geocode")
def geocode(ctx: CallContext, city: str) -> dict:
    c = city_of(ctx, city)
    return {"city": c.name, "lat": c.lat, "lon": c.lon, "country_code": c.country_code,
            "timezone": c.timezone}


@behaviour("weather.forecast_by_coords")
def forecast_by_coords(ctx: CallContext, lat: float, lon: float, date: str) -> dict:
    c = ctx.world.geo.nearest_city(lat, lon)
    if abs(c.lat - lat) > 1.5 or abs(c.lon - lon) > 1.5:
        raise ToolError(404, "not_found", "no weather station near these coordinates",
                        field_name(ctx, "lat"))
    return forecast(ctx, c.name, date)
