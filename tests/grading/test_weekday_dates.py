"""A weekday of the coming week names its date (grading version 21, toolmaze-v9 review
c2-0010: "moved to Friday, 5:00 PM your time (Tokyo)" on Tuesday 18 August 2026)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym.grading.weekday_dates import weekdays_dated
from toolmaze_gym.mentions import mentions
from toolmaze_gym.world import get_world

TODAY = "2026-08-18"  # a Tuesday, the clock toolmaze-v9's tasks are played on
V9 = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"
SMS = "Friday, 5:00 PM your time (Tokyo)"
MOVED = "2026-08-21T17:00:00+09:00"


def test_the_episodes_clock_is_a_tuesday():
    assert get_world(0).today == TODAY


@pytest.mark.parametrize(("text", "dated"), [
    ("to Friday, 5:00 PM", "to Friday 21 August 2026, 5:00 PM"),
    ("Wednesday at 9", "Wednesday 19 August 2026 at 9"),
    ("Mon 10:00", "Mon 24 August 2026 10:00"),          # the coming Monday, next week
    ("Friday 21 August, 17:00", "Friday 21 August, 17:00"),   # a date of its own
    ("Friday at 17:00 (28 August)", "Friday at 17:00 (28 August)"),
    ("Friday the 21st", "Friday the 21st"),
    ("Tuesday at 5", "Tuesday at 5"),                   # today, or a week on?
    ("next Friday", "next Friday"),                     # this week's or the next?
    ("a fine day", "a fine day"),
])
def test_a_bare_weekday_of_the_coming_week_is_dated(text, dated):
    assert weekdays_dated(text, TODAY) == dated


@pytest.mark.parametrize(("text", "said"), [
    (SMS, True),
    ("Thursday, 5:00 PM your time (Tokyo)", False),      # a wrong weekday
    ("Friday, 8:00 AM your time (Tokyo)", False),        # a wrong clock
    ("Friday, 5:00 PM", True),                           # the attendee's own clock
])
def test_a_weekday_and_a_clock_tell_the_instant(text, said):
    assert mentions(weekdays_dated(text, TODAY), "iso_datetime", MOVED) is said


def _sms(tmp_path: Path, said: str) -> bool:
    from tests.grading.test_reviewed import _grade

    text = (V9 / "c2-0010.weekday.txt").read_text(encoding="utf-8")
    assert SMS in text
    path = tmp_path / "c2-0010.variant.txt"
    path.write_text(text.replace(SMS, said), encoding="utf-8")
    return _grade(path, "tmz-v9-c2-0010")[0]["success"]


@pytest.mark.parametrize(("said", "success"), [
    (SMS, True),
    ("Thursday, 5:00 PM your time (Tokyo)", False),
    ("next Friday, 5:00 PM your time (Tokyo)", False),
    ("Friday, 8:00 AM your time (Tokyo)", False),
])
def test_the_sms_tells_the_new_time_by_its_weekday(tmp_path, said, success):
    assert _sms(tmp_path, said) is success
