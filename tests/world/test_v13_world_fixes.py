"""World edition 10: the toolmaze-v13 blind review's world oddities (issue 28), each as
edition 9 answers it (toolmaze-v12 and v13 replay on it) and gone on edition 10."""

from __future__ import annotations

import pytest

from toolmaze_gym.world import get_world
from toolmaze_gym.world.geo import normal_high, normal_low

V13, V14 = 9, 10
CITIES = ("Seattle", "Madrid", "San Francisco", "Barcelona", "Sydney", "Oslo", "Delhi",
          "Singapore", "Buenos Aires", "Toronto")


def _weather(edition: int, city: str, day: str):
    geo = get_world(0, edition).geo
    return geo.weather(geo.city(city), day)


def test_an_august_night_in_seattle_is_as_cool_as_its_nights_are():
    """c4-0074: a Seattle low of 21.2 °C on 31 August (normal about 13 °C) on edition 9;
    on edition 10 the same day's high and a night near the normal low."""
    old, new = _weather(V13, "Seattle", "2026-08-31"), _weather(V14, "Seattle", "2026-08-31")
    assert old.low_c == 21.2 and old.high_c == new.high_c
    assert abs(new.low_c - 13) <= 4


@pytest.mark.parametrize("city", CITIES)
def test_every_night_is_near_the_month_s_normal_low(city):
    """Over a year of days the low stays within a few degrees of the month's normal low
    and below the day's high; on edition 9 Madrid's August nights ran 9 °C warm."""
    geo = get_world(0, V14).geo
    for month in range(1, 13):
        for dom in (3, 17, 28):
            day = f"2026-{month:02d}-{dom:02d}"
            w = geo.weather(geo.city(city), day)
            night, normal = normal_low(city, month), normal_high(city, month)
            assert abs(w.low_c - night) <= 4.0 + 1e-9, (day, w)
            assert w.high_c - w.low_c >= 2.0 - 0.05, (day, w)
            assert normal is not None and night < normal


def test_madrid_has_no_harbour_hotel():
    """c2-0080: "Motel One Madrid Harbour" on edition 9; on edition 10 inland cities have
    no harbour district, and a harbour city still may."""
    def areas(edition: int, city: str) -> set[str]:
        w = get_world(0, edition)
        place = next(p for p in w.travel.places if p.city.name == city)
        return {h.name for h in w.travel.hotels(place)}
    assert any(n.endswith("Harbour") for n in areas(V13, "Madrid"))
    for city in ("Madrid", "Paris", "Berlin", "Zurich", "Delhi", "Mexico City", "Prague"):
        assert not any(n.endswith("Harbour") for n in areas(V14, city)), city
    coastal = [c for c in ("Sydney", "Barcelona", "Lisbon", "Oslo", "Hong Kong", "Seattle")
               if any(n.endswith("Harbour") for n in areas(V14, c))]
    assert coastal, "no harbour city kept a harbour hotel"


def _carriers(edition: int, a: str, b: str) -> set[str]:
    w = get_world(0, edition)
    pa, pb = (next(p for p in w.travel.places if p.city.name == c) for c in (a, b))
    return {c for c, _ in w.travel._carriers(pa, pb)}


@pytest.mark.parametrize("route", [("Zurich", "Oslo"), ("Vienna", "Munich"),
                                   ("Rome", "Milan"), ("Zurich", "Lisbon")])
def test_vueling_flies_from_spain_only(route):
    """The v13 review met Vueling (based in Spain) on Zurich-Oslo, Vienna-Munich,
    Rome-Milan and Zurich-Lisbon on edition 9; on edition 10 it flies routes with an end in
    Spain, and Barcelona-Rome keeps it."""
    assert "VY" in _carriers(V13, *route)
    assert "VY" not in _carriers(V14, *route)
    assert "VY" in _carriers(V14, "Barcelona", "Rome")


def test_no_league_title_is_clinched_in_august():
    """c4-0010: "Amsterdam FC clinch title with two games to spare" in mid-August (edition
    9); on edition 10 no city's sports news in August tells a title clinched."""
    def headlines(edition: int) -> list[str]:
        news = get_world(0, edition).news
        return [news.top_story("sports", city, rank).headline
                for city in ("Amsterdam", "London", "Madrid", "Milan", "Sydney", "Tokyo")
                for rank in range(4)]
    assert any("clinch title" in h for h in headlines(V13))
    assert not any("clinch title" in h for h in headlines(V14))
    assert get_world(0, V14).news.misfit("Amsterdam FC clinch title with two games to spare",
                                          "Amsterdam")


def test_a_battery_sensor_runs_on_a_battery():
    """c1-0002: a hallway sensor "Awair Element" (USB-powered) reported battery_pct 32 on
    edition 9; on edition 10 no battery-reporting sensor is a mains-powered model."""
    assert "Awair Element" in get_world(0, V13).devices._models("sensor")
    models = get_world(0, V14).devices._models("sensor")
    assert "Awair Element" not in models and len(models) == 5
