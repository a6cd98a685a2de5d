"""A temperature told more finely than the tool printed it passes where the tool's
figure could have been rounded from it (grading version 17): "dew point 6.88 C" for the
tool's 6.9 (v7 review c1-0031, where "7 C" already passed), and a °F figure converted
from a computed °C reading's unrounded value (59.8 °F from 15.448 °C for the tool's
59.7 from 15.4: v7 play-test c2-0078 P3; ``grading.converted_reading``). A figure as
coarse as the tool's keeps the old rules, and a °F figure of a forecast no slack."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.grading.converted_reading import CONVERTED_F, converted_said
from toolmaze_gym.grading.index import task_index
from toolmaze_gym.mentions import mentions
from toolmaze_gym.tasks.suite import get_task

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v7"


@pytest.mark.parametrize(("text", "type_name", "value", "said"), [
    ("dew point 6.88 C", "temperature_c", 6.9, True),
    ("dew point 6.94 °C", "temperature_c", 6.9, True),
    ("Dew point 15.45 °C", "temperature_c", 15.4, True),     # the intervals meet
    ("margin 7.95 °C", "temperature_spread_c", 8.0, True),
    ("59.75 °F", "temperature_f", 59.7, True),
    ("59.8 °F", "temperature_f", 59.7, False),              # see converted_reading
    ("dew point 6.96 C", "temperature_c", 6.9, False),       # rounds to 7.0
    ("dew point 6.84 C", "temperature_c", 6.9, False),       # rounds to 6.8
    ("dew point 7.0 C", "temperature_c", 6.9, False),        # as coarse, another figure
    ("dew point 6.88", "temperature_c", 6.9, False),         # no unit: any number
    ("59.9 °F", "temperature_f", 59.7, False),               # beyond 15.45 °C's 59.81
    ("15.5 °C", "temperature_c", 15.4, False),
])
def test_a_finer_temperature_is_told_where_it_rounds_to_the_tools(text, type_name, value,
                                                                   said):
    assert mentions(text, type_name, value) is said


def test_a_finer_figure_is_no_exact_argument():
    """The generator's checks (``loosely=False``) stay exact."""
    assert not mentions("dew point 6.88 C", "temperature_c", 6.9, loosely=False)


def _posted(tmp_path: Path, dew: str) -> bool:
    """c1-0031's slip episode, its payload told in full with the dew point ``dew``."""
    source = PLAYED / "slips" / "tmz-v7-c1-0031-P2.slip-partial-post.actions"
    lines = source.read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith(("post_webhook", "finish"))]
    lines += ['get_iot_device_status {"device_id": "SN-YEQN2JU5"}',
              'post_webhook {"url": "https://hooks.example.com/hvac/office-fan", "payload": '
              f'"Zurich office: 23.2 C, humidity 35 %, AQI 16, dew point {dew} C; sensor '
              'battery 39 %."}', "finish Posted."]
    path = tmp_path / "tmz-v7-c1-0031-P0.actions"
    path.write_text("\n".join(lines), encoding="utf-8")
    return _replay(path, "tmz-v7-c1-0031-P0")[0]["success"]


@pytest.mark.parametrize(("dew", "success"), [
    ("6.9", True), ("6.88", True), ("7", True), ("7.0", False), ("6.96", False)])
def test_the_ventilation_payload_tells_the_dew_point_finer(tmp_path, dew, success):
    assert _posted(tmp_path, dew) is success


@pytest.mark.parametrize(("text", "said"), [
    ("Dew point 15.4 °C / 59.8 °F", True), ("59.6 °F", True), ("59.75 °F", True),
    ("59.9 °F", False), ("59.8", False)])
def test_a_converted_reading_carries_the_celsius_rounding(text, said):
    assert converted_said(text, 59.7) is said


def _converted_entries(task_id: str) -> list:
    idx = task_index(get_task(task_id), Simulator().corpus)
    return [m for exp in idx.expected for _, spec in exp.texts
            for _, groups in spec.names for group in groups for m in group
            if m[0] == CONVERTED_F]


def test_only_a_computed_readings_fahrenheit_carries_the_slack():
    """c2-0078 converts the dew point a calculator computed; c3-0022 a forecast's high."""
    assert [r.value for _, r in _converted_entries("tmz-v7-c2-0078")] == [59.7]
    assert _converted_entries("tmz-v7-c3-0022") == []


def _pushed(tmp_path: Path, fahrenheit: str) -> bool:
    """c2-0078 P3's F598 probe with the °F figure ``fahrenheit``."""
    source = PLAYED / "probes" / "tmz-v7-c2-0078-P3.variant-F598.actions"
    return replay_changed(source, "tmz-v7-c2-0078-P3", "59.8 °F", f"{fahrenheit} °F",
                          tmp_path)["success"]


@pytest.mark.parametrize(("fahrenheit", "success"), [
    ("59.7", True), ("59.8", True), ("59.9", False), ("60.0", False)])
def test_the_dew_points_fahrenheit_from_the_unrounded_reading(tmp_path, fahrenheit, success):
    assert _pushed(tmp_path, fahrenheit) is success
