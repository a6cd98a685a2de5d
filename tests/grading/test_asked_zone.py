"""A time the request asks in a zone must be told as that zone's clock (grading version
16, the toolmaze-v6 play-test's _ZONE slips): the same instant in another zone, or no
time at all, leaves the asked time untold. Replayed on the played v6 episodes, one
text changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.asked_zone import asked_clock, zone_asked
from toolmaze_gym.mentions import mentions, wall_clock_mentioned

V6 = Path(__file__).parent.parent / "data" / "played" / "v6"
CALL = "tmz-v6-c2-0077-P1"  # an SMS in Italian with the call's time in Mexico City
PICKUP = "tmz-v6-c3-0032-P3"  # an SMS with the pick-up time "in local time"
MEXICO = "2026-08-25T11:00:00-06:00"


@pytest.mark.parametrize(("query", "asked"), [
    ("send them an SMS with the call link and what time that is in Mexico City.", True),
    ("pick-up should be 45 minutes after the flight lands, in local time.", True),
    ("I'd like a notification: local start time, and the weather.", True),
    ("what time that is in Madrid.", False),   # Madrid's clock is not at -06:00
    ("Book a call in Mexico City. Send them the link.", False),  # no time asked there
    # toolmaze-v10 review c4-0093 (grading version 22)
    ("find the arrival time in the destination's time zone and the temperature there", True),
    ("find the arrival time and the destination's weather", False),
])
def test_a_zone_is_asked_by_local_time_or_a_city_where_a_time_is_asked(query, asked):
    assert zone_asked(query, MEXICO) is asked


def test_the_wall_clock_is_the_time_written_in_the_values_own_zone():
    assert mentions("martedì 25 agosto alle 17:00 UTC", "iso_datetime", MEXICO)
    assert not wall_clock_mentioned("martedì 25 agosto alle 17:00 UTC", "iso_datetime", MEXICO)
    assert wall_clock_mentioned("25 agosto alle 11:00 ora di Città del Messico",
                                "iso_datetime", MEXICO)
    assert wall_clock_mentioned("Tuesday 25 August, 11:00 am local time", "iso_datetime",
                                MEXICO)
    assert wall_clock_mentioned("2026-08-25T11:00:00-06:00", "iso_datetime", MEXICO)
    assert not wall_clock_mentioned("2026-08-25T17:00:00Z", "iso_datetime", MEXICO)


def _sms(tmp_path: Path, episode: str, old: str, new: str) -> bool:
    return replay_changed(V6 / f"{episode}.actions", episode, old, new, tmp_path,
                          count=1)["success"]


@pytest.mark.parametrize(("said", "success"), [
    ("alle 17:00 UTC, cioè alle 11:00 ora di Città del Messico", True),
    ("alle 11:00 ora di Città del Messico", True),
    ("alle 17:00 UTC", False),                                     # the instant only
    ("alle 17:00 UTC, cioè alle 12:00 ora di Città del Messico", False),  # another clock
])
def test_the_call_time_is_told_as_mexico_citys_clock(tmp_path, said, success):
    old = "alle 17:00 UTC, cioè alle 11:00 ora di Città del Messico"
    assert _sms(tmp_path, CALL, old, said) is success


@pytest.mark.parametrize(("said", "success"), [
    ("at 11:13 local time", True),
    ("at 11:13 am", True),
    ("at 09:13 UTC", False),  # the same instant in UTC: the driver must convert it
])
def test_the_pick_up_is_told_in_local_time(tmp_path, said, success):
    assert _sms(tmp_path, PICKUP, "at 11:13 local time", said) is success


SHIFTED_FIRST = V6.parent / "v9" / "probes" / "tmz-v9-c3-0043-P3.status-and-time-tools.actions"
LOCAL = "pick-up should be 60 minutes after the flight lands, in local time."


def test_the_asked_clock_is_the_reference_values_zone():
    """The shift answered in UTC before the conversion: the pick-up is still asked on
    the reference value's clock (+02:00), not the UTC one the episode's value carries
    (grading version 21, v9 play-test c3-0043 P3)."""
    assert asked_clock(LOCAL, "2026-08-29T08:58:00Z", "2026-08-29T10:58:00+02:00") \
        == "2026-08-29T10:58:00+02:00"
    assert asked_clock("Text the driver when they land.", "2026-08-29T08:58:00Z",
                       "2026-08-29T10:58:00+02:00") is None  # no zone asked


@pytest.mark.parametrize(("said", "success"), [
    ("10:58 Barcelona time", True),
    ("10:58 local time", True),
    ("08:58 UTC", False),  # the same instant in UTC: the driver must convert it
    ("11:58 Barcelona time", False),  # another instant
])
def test_a_pick_up_shifted_then_converted_is_told_in_local_time(tmp_path, said, success):
    episode = "tmz-v9-c3-0043-P3"
    got = replay_changed(SHIFTED_FIRST, episode, "10:58 Barcelona time", said, tmp_path,
                         count=1)
    assert got["success"] is success
