"""Every tool that names a zone, reports an offset or converts a time follows the real
rules (the pinned tzdata, summer time included), so a careful agent's own conversion
agrees with the tools'."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from toolmaze_gym.corpus import EpisodeState, load_corpus
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.values.catalog import parse_datetime
from toolmaze_gym.world import zones

CORPUS = load_corpus()
ZONE_TYPES = {"timezone", "utc_offset_hours"}
# Instants on both sides of the northern and southern summers.
INSTANTS = ("2026-08-18T12:00:00Z", "2026-01-18T12:00:00Z", "2026-03-29T00:30:00Z",
            "2026-10-25T01:30:00Z")
ZONES = ("America/New_York", "Europe/Vienna", "Australia/Sydney", "Asia/Kolkata",
         "America/Sao_Paulo", "UTC")
CITIES = ("New York", "Vienna", "Sydney", "London", "Mumbai", "Toronto")


def _zone_tools() -> list[str]:
    return sorted(n for n, t in CORPUS.tools.items()
                  if ZONE_TYPES & ({p.type for p in t.params} | {f.type for f in t.returns}))


def test_the_zone_tools_are_the_ones_expected():
    assert set(_zone_tools()) >= {"get_city_timezone", "worldtime_lookup", "convert_datetime",
                                  "timezone_convert", "geocode_city", "get_airport_info"}


def _fields(spec, type_name):
    return [f.name for f in spec.returns if f.type == type_name]


@pytest.mark.parametrize("tool", _zone_tools())
def test_zone_tools_report_the_offset_in_force(sim, world, tool):
    """A reported zone is the city's; a reported offset is the zone's at the instant the
    response is about (the converted instant, else the world's clock)."""
    spec = CORPUS[tool]
    tz_params = [p.name for p in spec.params if p.type == "timezone"]
    dt_params = [p.name for p in spec.params if p.type == "iso_datetime"]
    city_params = [p.name for p in spec.params if p.type == "city_name"]
    cases = [valid_arguments(sim, spec, EpisodeState(), "tz")]
    if city_params:
        cases = [{**cases[0], city_params[0]: c} for c in CITIES]
    if tz_params and dt_params:
        cases = [{dt_params[0]: at, tz_params[0]: z} for at in INSTANTS for z in ZONES]
    for args in cases:
        body = sim.call(tool, args, EpisodeState()).body
        assert "error" not in body, (tool, args, body)
        names = [body[f] for f in _fields(spec, "timezone")] + [args[p] for p in tz_params]
        assert names, tool
        zone = names[0]
        assert all(n == zone for n in names), (tool, body)
        instant = world.now
        for f in _fields(spec, "iso_datetime"):
            local = parse_datetime(body[f])
            assert local.utcoffset() == zones.offset(zone, local), (tool, args, body)
            instant = local
        for f in _fields(spec, "utc_offset_hours"):
            want = zones.standard_offset_hours if spec.output(f).canonical == "raw_offset_hours" \
                else zones.offset_hours
            assert body[f] == want(zone, instant), (tool, args, body)


def test_a_city_lookup_then_conversion_gives_summer_and_winter_times(sim):
    for at, want in (("2026-08-18T12:00:00Z", "2026-08-18T08:00:00-04:00"),
                     ("2026-01-18T12:00:00Z", "2026-01-18T07:00:00-05:00")):
        zone = sim.call("worldtime_lookup", {"location": "New York"},
                        EpisodeState()).body["zone.timezone"]
        out = sim.call("timezone_convert", {"time": at, "target_tz": zone}, EpisodeState())
        assert out.body["conversion.result"] == want
    vienna = sim.call("convert_datetime", {"datetime": "2026-08-18T12:00:00Z",
                                           "to_timezone": "Europe/Vienna"}, EpisodeState())
    assert vienna.body["converted"] == "2026-08-18T14:00:00+02:00"
    assert vienna.body["utc_offset_hours"] == 2.0


def test_the_world_clock_offset_is_summer_time_in_august(sim, world):
    assert world.now.month == 8  # seed 0's clock: northern summer
    ny = sim.call("get_city_timezone", {"city": "New York"}, EpisodeState()).body
    assert ny["utc_offset_hours"] == -4.0
    vienna = sim.call("worldtime_lookup", {"location": "Vienna"}, EpisodeState()).body
    assert vienna["zone.utc_offset"] == 2.0 and vienna["zone.raw_offset"] == 1.0


def test_scheduled_departures_are_local_times_on_the_requested_day(sim, world):
    """search_flights takes a local date and reports UTC; converted back with the real
    rules, each departure falls on that local day between 06:00 and 22:00."""
    day = (world.now + timedelta(days=5)).date().isoformat()
    for a, b in (("New York", "London"), ("Vienna", "Rome"), ("Sydney", "Singapore"),
                 ("Los Angeles", "Tokyo"), ("Toronto", "Paris")):
        body = sim.call("search_flights", {"origin": a, "destination": b, "date": day},
                        EpisodeState()).body
        assert "error" not in body, body
        local = zones.to_local(world.geo.city(a).timezone,
                               datetime.fromisoformat(body["departure"].replace("Z", "")))
        assert local.date().isoformat() == day and 6 <= local.hour <= 22, (a, b, local)
