"""A weather condition the request narrows to a figure is asked of no text (grading
version 22, toolmaze-v10 review c1-0083)."""

from __future__ import annotations

from toolmaze_gym.grading.asked_condition import without_narrowed_condition
from toolmaze_gym.tasks.suite import get_task

CONDITION = "weather_condition"


def _asked(task) -> list:
    return [m for s in task.slots for i in s.inputs for m in i.mentions if m[0] == CONDITION]


def test_the_forecast_narrowed_to_its_high_asks_no_condition():
    """"email them ... the forecast (high in °C and °F)": the scenario's mail carries
    the condition, the request asks the high."""
    task = get_task("tmz-v10-c1-0083")
    assert "the forecast (high in °C and °F)" in task.query
    assert _asked(task) and not _asked(without_narrowed_condition(task))


def test_the_weather_asked_whole_keeps_its_condition():
    """c3-0086 asks "what the weather will be like (the high in Celsius and
    Fahrenheit)": the weather itself, glossed, so the condition stays asked."""
    task = get_task("tmz-v10-c3-0086")
    assert _asked(task) and without_narrowed_condition(task) == task
