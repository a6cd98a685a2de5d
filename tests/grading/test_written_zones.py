"""A meeting time told in a written local zone ("10:00 Uhr MESZ", "10:00 CEST",
"10:00 Zurich time") is the UTC instant it names; the same clock in another zone is
not (issue 28, v4 draft-2: "11:30 Uhr MESZ", "10:30 London time", "12:27 CEST").
Played on toolmaze-v3's welcome-note task (a meeting at 2026-08-21T08:00Z in Zurich)."""

from __future__ import annotations

import pytest

from tests.grading._helpers import FINISH, call, graded, play, suite
from toolmaze_gym.mentions import mentions

TASK = "tmz-v3-c1-0082"
BODY = ("Welcome! We meet on 21 Aug 2026 at {time}. Forecast: clear, high 18.5 °C "
        "(65.3 °F). News: Retail sales in Switzerland rise 16 percent.")


def _welcomed(time: str) -> bool:
    task = next(t for t in suite() if t.id == TASK)
    acts = [call(c, bodyContent=BODY.format(time=time)) if c.tool == "send_mail_message"
            else call(c) for c in task.default_path.calls]
    return graded(play(task, "P0", [*acts, FINISH])).success


@pytest.mark.parametrize(("time", "success"), [
    ("10:00 CEST", True), ("10:00 Uhr MESZ", True), ("10:00 Zurich time", True),
    ("08:00 UTC", True),
    # subtly wrong: the UTC clock labelled local, the local clock labelled UTC
    ("08:00 CEST", False), ("10:00 UTC", False), ("08:00 Zurich time", False),
])
def test_a_meeting_time_in_a_written_zone(time, success):
    assert _welcomed(time) is success


@pytest.mark.parametrize(("text", "value", "said"), [
    ("26.08.2026 um 11:30 Uhr MESZ", "2026-08-26T09:30:00Z", True),
    ("26 Aug 2026, 10:30 London time", "2026-08-26T09:30:00Z", True),
    ("2026-08-26 11:30 CEST", "2026-08-26T09:30:00Z", True),
    ("26 Aug 2026 at 12:27 CEST", "2026-08-26T12:27:00+02:00", True),
    ("26 Aug 2026, 09:30 London time", "2026-08-26T09:30:00Z", False),
    ("26 Aug 2026 at 10:27 CEST", "2026-08-26T12:27:00+02:00", False),
    ("26 Aug 2026 at 12:27 London time", "2026-08-26T12:27:00+02:00", False),
    ("26 Aug 2026 at 11:30 et 12:00", "2026-08-26T09:30:00Z", False),
])
def test_written_zones_fold(text, value, said):
    assert mentions(text, "iso_datetime", value) is said


@pytest.mark.parametrize(("text", "said"), [
    ("Wednesday 26 August 2026 at 8 am UTC", True),     # v7 play-test c3-0006 P2
    ("26/08/2026, 8 am UTC", True),
    ("26 Aug 2026 at 8 a.m. UTC", True),
    ("26 Aug 2026, 8am (UTC)", True),
    ("26 Aug 2026 at 8 pm UTC", False),                 # the other half of the day
    ("26 Aug 2026 at 9 am UTC", False),
    ("26 Aug 2026: 8 amazing offers", False),           # no clock
    ("26 Aug 2026, 1.8 am UTC", False),
])
def test_a_whole_hour_told_with_its_half_of_the_day(text, said):
    """"8 am UTC" is 08:00 UTC (grading version 17): a reader reads the hour whole."""
    assert mentions(text, "iso_datetime", "2026-08-26T08:00:00Z") is said
