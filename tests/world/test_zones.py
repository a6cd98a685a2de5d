"""Time zones follow the real rules (summer time included) from the pinned tzdata only."""

from __future__ import annotations

import re
import tomllib
import zoneinfo
from datetime import datetime, timedelta
from importlib import metadata, resources
from pathlib import Path

import pytest

from toolmaze_gym.world import World, zones

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("zone", "day", "hours"), [
    ("America/New_York", "2026-08-18", -4.0),
    ("Europe/Vienna", "2026-08-18", 2.0),
    ("America/New_York", "2026-01-18", -5.0),
    ("Europe/Vienna", "2026-01-18", 1.0),
    # The southern hemisphere has its summer in January.
    ("Australia/Sydney", "2026-01-18", 11.0),
    ("Australia/Sydney", "2026-08-18", 10.0),
    ("Asia/Kolkata", "2026-08-18", 5.5),
    ("Asia/Tokyo", "2026-08-18", 9.0),
])
def test_offsets_follow_summer_time(world, zone, day, hours):
    noon = datetime.fromisoformat(f"{day}T12:00:00")
    assert zones.offset_hours(zone, noon) == hours
    assert world.geo.utc_offset_hours(zone, noon) == hours


def test_the_offset_changes_on_the_night_clocks_go_forward():
    # Europe moves to summer time at 01:00 UTC on the last Sunday of March.
    before = datetime(2026, 3, 29, 0, 59)
    assert zones.offset_hours("Europe/Vienna", before) == 1.0
    assert zones.offset_hours("Europe/Vienna", before + timedelta(minutes=2)) == 2.0


def test_a_local_time_maps_to_utc_with_the_offset_of_its_day():
    assert zones.local_to_utc("America/New_York", datetime(2026, 8, 18, 9, 0)) \
        == datetime(2026, 8, 18, 13, 0)
    assert zones.local_to_utc("America/New_York", datetime(2026, 1, 18, 9, 0)) \
        == datetime(2026, 1, 18, 14, 0)


def test_every_world_zone_is_in_the_pinned_database(world):
    for name in world.geo.timezones:
        assert zones.zone(name).key == name
    for city in world.geo.cities:
        assert city.timezone in world.geo.timezones


def test_unknown_or_path_like_zone_names_are_refused():
    for bad in ("Mars/Olympus", "", "../../etc/passwd", "/etc/localtime"):
        with pytest.raises(zones.UnknownZone):
            zones.zone(bad)


def test_the_hosts_zoneinfo_is_never_read(tmp_path):
    """A forged America/New_York on the search path changes nothing."""
    forged = tmp_path / "America"
    forged.mkdir()
    utc = Path(str(resources.files("tzdata").joinpath("zoneinfo", "UTC")))
    (forged / "New_York").write_bytes(utc.read_bytes())
    zones.zone.cache_clear()
    zoneinfo.reset_tzpath(to=[str(tmp_path)])
    try:
        assert zoneinfo.ZoneInfo.no_cache("America/New_York").utcoffset(
            datetime(2026, 8, 18)) == timedelta(0)  # the stdlib would take the forgery
        assert zones.offset_hours("America/New_York", datetime(2026, 8, 18, 12)) == -4.0
    finally:
        zoneinfo.reset_tzpath()
        zones.zone.cache_clear()


def test_tzdata_is_pinned_to_the_installed_release():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = [d for d in deps if re.match(r"tzdata\b", d)]
    assert pins == [f"tzdata=={metadata.version('tzdata')}"]
    assert re.fullmatch(r"20\d\d[a-z]", zones.TZDATA_VERSION)


def test_flights_leave_between_six_and_ten_local_time_in_summer_and_winter():
    """Departures are drawn as local times on the requested day; their UTC form must
    convert back to that local time under the real rules (a fixed standard offset puts
    New York summer departures an hour late, up to 23:00)."""
    for seed, day in ((0, "2026-08-25"), (3, "2026-12-20")):
        w = World(seed)
        t = w.travel
        for a, b in (("New York", "London"), ("Vienna", "Paris"), ("Sydney", "Tokyo"),
                     ("Chicago", "Toronto"), ("Madrid", "New York")):
            pa, pb = t.place(a), t.place(b)
            if not t.valid_day(day):
                continue
            for f in t.flights(pa, pb, day):
                local = zones.to_local(pa.city.timezone, f.departure)
                assert local.date().isoformat() == day, (a, b, f.flight_id, local)
                assert 6 <= local.hour <= 22 and (local.hour, local.minute) <= (22, 0), \
                    (a, b, f.flight_id, local)


def test_the_standard_offset_leaves_summer_time_out():
    summer, winter = datetime(2026, 8, 18, 12), datetime(2026, 1, 18, 12)
    assert zones.standard_offset_hours("Europe/Vienna", summer) == 1.0
    assert zones.standard_offset_hours("Europe/Vienna", winter) == 1.0
    assert zones.standard_offset_hours("Australia/Sydney", winter) == 10.0
