"""Docs and parameters agree on units, over all tools: what the docs say is °C is °C."""

from __future__ import annotations

import pytest

from toolmaze_gym import values
from toolmaze_gym.corpus import EpisodeState, load_corpus
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.corpus.spec import OutputField, Param, ToolSpec
from toolmaze_gym.corpus.units_lint import (
    UNITS,
    corpus_problems,
    marked_unit,
    named_units,
    tool_problems,
)

CORPUS = load_corpus()


def _spec(description: str, params=(), returns=()) -> ToolSpec:
    return ToolSpec("t", "IoT", "Action", description, "iot.set_setpoint", tuple(params),
                    tuple(returns))


@pytest.mark.parametrize(("text", "units"), [
    ("Hold temperature in °F, 40-95", ["°F"]),
    ("Temperature in Celsius", ["°C"]),
    ("wind in km/h", ["km/h"]),  # a speed, not also a distance
    ("great-circle distance in miles", ["mi"]),
    ("Payout amount in cents (minor units of the currency)", ["cents"]),
    ("observation time, Unix epoch seconds", ["epoch s"]),
    ("Consumption in kWh", ["kWh"]),
    # Rates, examples and date formats measure nothing.
    ("Tariff per kWh", []),
    ("Due date, YYYY-MM-DD", []),
    ("a fraction (0.0125 = 1.25 %)", ["fraction"]),
    ("One-line report, e.g. 'Light rain, 14.2 °C (57.6 °F).'", []),
    ("Searches working hours 08:00-18:00 UTC", []),
])
def test_units_are_read_from_prose(text, units):
    assert [u.name for u in named_units(text)] == units


@pytest.mark.parametrize(("name", "unit"), [
    ("hold_temp_f", "°F"), ("holdTempC", "°C"), ("indoorTemperatureF", "°F"),
    ("distance_mi", "mi"), ("amount_cents", "cents"), ("wind_kph", "km/h"),
    ("check_in", None), ("currency", None), ("utc_offset_hours", "hours"),
])
def test_units_are_read_from_names(name, unit):
    u = marked_unit(name)
    assert (u.name if u else None) == unit


def test_a_description_that_takes_another_unit_than_the_parameter_is_reported():
    """The ecobee bug: 'Takes °C' over a parameter in °F."""
    f_param = Param("hold_temp_f", "temperature_f", "Hold temperature in °F")
    c_field = OutputField("holdTempC", "temperature_c")
    bad = _spec("Hold a temperature. Takes °C and reports it in °F and °C.", [f_param],
                [c_field, OutputField("holdTempF", "temperature_f")])
    assert any("takes °C" in m for m in tool_problems(bad))
    good = _spec("Hold a temperature. Takes °F and reports it in °F and °C.", [f_param],
                 [c_field, OutputField("holdTempF", "temperature_f")])
    assert tool_problems(good) == []


def test_a_parameter_whose_name_or_description_says_another_unit_is_reported():
    misnamed = _spec("Set it.", [Param("setpoint_f", "temperature_c", "Set point")])
    assert any("name says °F" in m for m in tool_problems(misnamed))
    misdescribed = _spec("Set it.", [Param("setpoint", "temperature_c", "Set point in °F")])
    assert any("description says °F" in m for m in tool_problems(misdescribed))
    far = _spec("Distance of a route.", returns=[OutputField("distance", "distance_km",
                                                             "distance in miles")])
    assert any("says mi" in m for m in tool_problems(far))


def test_a_tool_description_naming_a_unit_nothing_carries_is_reported():
    spec = _spec("Route length in miles.", returns=[OutputField("distance_km", "distance_km")])
    assert any("mentions mi" in m for m in tool_problems(spec))


def test_every_tool_states_the_units_its_types_carry():
    assert len(CORPUS.tools) == 270
    assert corpus_problems(CORPUS) == []


def test_type_descriptions_state_their_own_unit():
    """The doc line of every field ("distance in kilometres") names its type's unit."""
    for u in UNITS:
        for t in u.types:
            stated = named_units(values.get(t).description)
            assert u in stated, (t, values.get(t).description)


def test_ecobee_takes_fahrenheit_as_its_docs_say(sim):
    spec = CORPUS["ecobee_set_hold"]
    assert "Takes the hold temperature in °F" in spec.description
    state = EpisodeState()
    args = valid_arguments(sim, spec, state, "ecobee")
    body = sim.call("ecobee_set_hold", {**args, "hold_temp_f": 70}, state).body
    assert body["holdTempF"] == 69.8 and body["holdTempC"] == 21.0, body
