"""The toolmaze-v14 blind review's open conventions (tests/data/reviews/v14), each held
by a check that fails on the v14 wording it was found in."""

from __future__ import annotations

import re
from datetime import date, timedelta

from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task

LIB = {sc.id: sc for sc in load_library()}
# What tells a reader the high in Fahrenheit goes beside the Celsius one, not instead.
_BESIDE = re.compile(r"\btoo\b|\bas well\b|\balso\b|Celsius|°C|\bboth\b", re.I)


def _v14(short: str) -> str:
    return get_task(f"tmz-v14-{short}", "toolmaze-v14").query


def _sentence_of(text: str, word: str) -> str:
    return next(s for s in re.split(r"(?<=[.!?])\s+", text) if word in s)


def test_c4_0082_a_high_in_fahrenheit_is_asked_beside_celsius():
    """v14 c4-0082: "(with the high in Fahrenheit)" read as °F instead of °C; every
    phrasing of a scenario whose texts ask the high in both units says it is asked as
    well (one that asks °F only, "the day's high in Fahrenheit", may say so)."""
    assert not _BESIDE.search(_sentence_of(_v14("c4-0082"), "Fahrenheit"))
    both = [sc for sc in LIB.values() if {"high_c", "fahrenheit"} <= {
        a.rpartition(".")[2] for st in sc.steps for arg in st.args for a in arg.mention}]
    assert "fin-trip-spending-money" in {sc.id for sc in both}
    for sc in both:
        for phrasing in sc.phrasings:
            if "high in Fahrenheit" in phrasing:
                assert _BESIDE.search(_sentence_of(phrasing, "Fahrenheit")), (sc.id, phrasing)


def test_c1_0074_the_forecast_names_its_day():
    """v14 c1-0074: "the forecast for check-in day" after a second stay was priced; every
    phrasing names the first stay's check-in date for the forecast."""
    assert "forecast for check-in day" in _v14("c1-0074")
    for phrasing in LIB["tr-hotel-book-price-second-stay"].phrasings:
        assert phrasing.count("{check_in}") == 2, phrasing


def test_c1_0074_the_other_trip_comes_after_this_stay():
    """A second stay priced "on another trip" does not overlap the stay just booked."""
    sc = LIB["tr-hotel-book-price-second-stay"]
    gen = ScenarioGenerator()
    for seed in range(6):
        task = gen.generate(sc, "C1", seed, f"x-{seed}")
        stay = next(s for s in task.slots if s.id == "s1")
        args = {i.role: i.source.value for i in stay.inputs}
        rate = next(s for s in task.slots
                    if s.id != "s1" and any(i.role == "check_in" for i in s.inputs))
        again = {i.role: i.source.value for i in rate.inputs}
        out = date.fromisoformat(args["check_in"]) + timedelta(days=int(args["nights"]))
        assert date.fromisoformat(again["check_in"]) >= out, task.query


def test_c2_0030_the_gross_dividend_is_asked_by_name():
    """v14 c2-0030 (weak): "estimate my yearly dividends ... in JPY; I keep 85 %" left
    open whether the gross is asked in JPY; every phrasing asks before and after."""
    assert "before and after" not in _v14("c2-0030")
    for phrasing in LIB["fin-dividend-income-after-tax"].phrasings:
        assert re.search(r"before and after|annual dividend in", phrasing), phrasing
