"""World edition 4: the toolmaze-v6 blind review's world oddities (issue 28), each told
as the v6 player read it on edition 3 and gone on edition 4: a "clear" day in Mumbai's
monsoon (c2-0058), English dates and bare units in a Spanish or French translation
(c4-0068, c2-0058), an "eco" set point higher in milder weather (c4-0025) and an "eco
setback" that raises a thermostat (c4-0005)."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.behaviours.general_text import translate
from toolmaze_gym.corpus.behaviours.iot_climate import eco_setpoint
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world
from toolmaze_gym.world.geo import condition_choices, in_wet_season
from toolmaze_gym.world.localise import localised

V6, V7 = 3, 4
WELCOME = ("Welcome to London, Priya Tanaka! Your hotel is booked from Monday 31 August "
           "for 2 nights (reservation HR-MPUN2M8F). Forecast: partly cloudy, high 23.7 C / "
           "74.7 F.")
SHIPPING = ("Shipping 1 to Mumbai takes 8 days (due Wednesday 26 August); forecast there "
            "that day: clear, high 26.3 C / 79.3 F.")


def _translated(text: str, target: str, edition: int, corpus) -> str:
    sim = Simulator(corpus, get_world(0, edition))
    return sim.call("translate_v3", {"contents": text, "target_language_code": target},
                    EpisodeState()).body["translation.translated_text"]


def test_mumbai_in_the_monsoon_was_clear_in_v6_and_is_not_now():
    day = "2026-08-26"
    v6, v7 = get_world(0, V6), get_world(0, V7)
    assert v6.geo.weather(v6.geo.city("Mumbai"), day).condition == "clear"
    assert v7.geo.weather(v7.geo.city("Mumbai"), day).condition not in {"clear",
                                                                        "partly cloudy"}


def test_no_wet_season_day_is_clear_on_edition_4():
    w = get_world(0, V7)
    for city in ("Mumbai", "Delhi", "Hong Kong", "Mexico City"):
        for n in range(10, 32):
            day = f"2026-08-{n:02d}" if city != "Hong Kong" else f"2026-07-{n:02d}"
            cond = w.geo.weather(w.geo.city(city), day).condition
            assert cond not in {"clear", "partly cloudy"}, (city, day, cond)


def test_a_dry_season_month_keeps_every_sky():
    assert in_wet_season("Mumbai", 8) and not in_wet_season("Mumbai", 1)
    assert "clear" in condition_choices("Mumbai", 1, 31.0, wet_season=True)
    assert "clear" in condition_choices("Mumbai", 8, 29.0, wet_season=False)
    assert "clear" not in condition_choices("Mumbai", 8, 29.0, wet_season=True)


def test_translations_said_english_dates_in_v6_and_the_language_now(corpus):
    assert "desde el Monday 31 August" in _translated(WELCOME, "es", V6, corpus)
    es = _translated(WELCOME, "es", V7, corpus)
    assert "desde el lunes 31 de agosto" in es and "23.7 °C / 74.7 °F" in es
    assert "le Wednesday 26 August" in _translated(SHIPPING, "fr", V6, corpus)
    fr = _translated(SHIPPING, "fr", V7, corpus)
    assert "arrivée le mercredi 26 août" in fr and "26.3 °C / 79.3 °F" in fr


@pytest.mark.parametrize("target,said", [
    ("de", "Samstag, 1. August"), ("fr", "samedi 1er août"), ("it", "sabato 1 agosto"),
    ("nl", "zaterdag 1 augustus"), ("pt", "sábado, 1 de agosto"), ("ja", "Saturday 1 August"),
])
def test_a_date_is_said_as_each_language_says_it(target, said):
    assert localised("Saturday 1 August, 12.5 C", target) == f"{said}, 12.5 °C"


def test_a_letter_after_a_figure_that_is_no_unit_stays():
    assert localised("Gate 12 Cafe, 3 F-16s, 20 °C", "fr") == "Gate 12 Cafe, 3 F-16s, 20 °C"


def test_untranslated_text_is_not_localised():
    """A text the phrasebook does not hold stays tagged and as written."""
    out = translate(None, "Meet me Monday 31 August at 20 C", "es")["translated_text"]
    assert out == "[es] Meet me Monday 31 August at 20 C"


class _Ctx:
    def __init__(self, edition: int) -> None:
        self.world = get_world(0, edition)


@pytest.mark.parametrize("outdoor", [17.0, 20.0, 25.9])
def test_eco_heating_is_lower_on_a_mild_day_from_edition_4(outdoor):
    assert eco_setpoint(_Ctx(V6), outdoor) == {"setpoint_c": 21.0, "mode": "auto",
                                              "outdoor_c": outdoor}
    mild = eco_setpoint(_Ctx(V7), outdoor)
    cold = eco_setpoint(_Ctx(V7), 10.0)
    assert mild["mode"] == cold["mode"] == "heat"
    assert mild["setpoint_c"] < cold["setpoint_c"] == 19.0


def test_eco_setpoints_never_rise_as_it_gets_milder():
    heat = [eco_setpoint(_Ctx(V7), t / 2) for t in range(-20, 52)]
    points = [r["setpoint_c"] for r in heat if r["mode"] == "heat"]
    assert points == sorted(points, reverse=True)


def test_a_heating_thermostat_is_held_above_the_eco_setpoint_from_edition_4():
    """v6 c4-0005's Oslo cabin thermostat was held at 18.5 °C, so the eco setpoint of
    19 °C raised it; on edition 4 every heating thermostat is held above 19 °C."""
    v6, v7 = get_world(0, V6), get_world(0, V7)
    cabin = v6.devices.registry["TH-DZ8RE8BY"]
    assert v6.devices.thermostat_default(cabin)["setpoint_c"] == 18.5
    held = [v7.devices.thermostat_default(d) for d in v7.devices.registry.values()
            if d.kind == "thermostat"]
    heating = [h["setpoint_c"] for h in held if h["mode"] == "heat"]
    assert heating and min(heating) > 19.0


def test_a_time_on_a_date_is_said_in_the_languages_order_and_comes_back_english():
    english = "Sorry, our call at 09:00 UTC on Sunday 23 August is off; Monday 31 August?"
    dutch = localised(english, "nl")
    assert dutch == "Sorry, our call at zondag 23 augustus, 09:00 UTC is off; maandag 31 augustus?"
    assert localised(dutch, "en") == english
    assert localised(localised("Saturday 1 August", "fr"), "en") == "Saturday 1 August"


def test_wet_seasons_name_cities_of_the_world_and_no_dry_month():
    from toolmaze_gym.world.base import load_data

    wet = {k: set(v) for k, v in load_data("wet_months.json").items() if not k.startswith("_")}
    dry = {k: set(v) for k, v in load_data("dry_months.json").items() if not k.startswith("_")}
    cities = {row[0] for row in load_data("cities.json")}
    assert set(wet) <= cities
    assert all(not wet[c] & dry.get(c, set()) for c in wet), "a month both wet and dry"
