"""A lookup resolves against this episode's own values, never the reference run's answer
to another question (grading version 23, the v10-g22 play-test's probe c4-0083 P2
`ship_to_new_york`): the agent's order, shipped to New York, is due 22 Aug where the
reference run's is due 25 Aug, so the weather its SMS must tell is its own 22 Aug
forecast (rain), not the reference's 25 Aug one (clear)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed

G22 = Path(__file__).parent.parent / "data" / "played" / "v10-g22"
EPISODE = "tmz-v10-c4-0083-P2"
SHIPPED = G22 / "probes" / f"{EPISODE}.ship_to_new_york.actions"
RAIN_22 = "il 22 pioggia (11 mm), 22-30,8 °C"


@pytest.mark.parametrize(("path", "success"), [
    (SHIPPED, True),                                                          # its own days
    (G22 / "probes" / f"{EPISODE}.own_coords_exact_temps.actions", True),     # the reference's day
    (G22 / "slips" / f"{EPISODE}.ship_to_new_york_wrong_weather.actions", False),
    (G22 / "slips" / f"{EPISODE}.ship_to_new_york_plus_ref_weather.actions", False),
])
def test_the_weather_is_the_forecast_for_the_episodes_own_delivery_day(path, success):
    g, text = _replay(path, EPISODE)
    assert g["success"] is success, text


def test_the_explanation_names_the_episodes_own_forecast(tmp_path):
    """The wrong weather for the agent's own delivery day fails on this episode's rain,
    never on the reference run's clear sky."""
    _, text = _replay(G22 / "slips" / f"{EPISODE}.ship_to_new_york_wrong_weather.actions",
                      EPISODE)
    assert 'which says "sereno", the weather condition "clear", where the weather to tell ' \
           'is "rain" or "rain"' in text
    assert "leaves out the weather condition \"clear\"" not in text


@pytest.mark.parametrize(("told", "success"), [
    (RAIN_22, True),
    ("il 22 pioggia", True),                      # the condition alone
    ("il 22 rain", True),                         # in English
    ("il 22 sereno, 22-30,8 °C", False),          # the reference run's weather
    ("il 22 sereno e soleggiato", False),         # the same, in its own words
])
def test_the_sms_is_held_to_its_own_days_forecast(tmp_path, told, success):
    assert replay_changed(SHIPPED, EPISODE, RAIN_22, told, tmp_path)["success"] is success
