"""An unlabelled clock beside the city the request sets things in is that city's clock
(grading version 21, toolmaze-v9 review c4-0088): the leadership post "Mon 24 Aug 10:00
in Rome Tesla" tells the 08:00 UTC welcome meeting in Rome right, as the bare UTC clock
did before; "11:00" tells another instant."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.venue_clock import AT_VENUE, venue_reading
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

START = "2026-08-24T08:00:00Z"
ROME = ("Please book a room for 3 people in Rome at the first 30-minute opening on "
        "Monday 24 August and post the meeting time and the room.")
REPLAY = Path(__file__).parents[1] / "data/reviews/v9/actions/c4-0088.unl1000.txt"


@pytest.mark.parametrize(("query", "venue"), [
    (ROME, ("2026-08-24T10:00:00+02:00", "rome")),
    ("Set up the interview at 13:00 UTC in our Rome office.", None),  # a clock given
    ("Email me the meeting time.", None),  # no city
    ("Fly Madrid to New York and tell me when I land.", None),  # two clocks
    ("x@y.org is visiting our Rome office. Email them the time.", None),  # a visit: its rule
    ("Book a room in London at the first opening.", None),  # London's own clock is UTC+1
])
def test_the_venue_is_the_one_city_of_a_request_that_writes_no_clock(query, venue):
    reading = venue_reading(query, START)
    if query.startswith("Book a room in London"):
        assert reading is not None and reading[1].endswith("+01:00")
        return
    assert (reading[1:] if reading else None) == venue


@pytest.mark.parametrize(("text", "said"), [
    ("Mon 24 Aug 10:00 in Rome Tesla", True),  # the Rome clock, Rome named
    ("Mon 24 Aug 08:00 in Rome Tesla", True),  # the bare UTC clock, as before
    ("Mon 24 Aug 10:00 Rome time", True),
    ("Mon 24 Aug 11:00 in Rome Tesla", False),  # another instant
    ("Mon 24 Aug 10:00 UTC in Rome Tesla", False),  # the UTC clock two hours off
    ("Mon 24 Aug 10:00 in the Tesla room", False),  # no city: the value's own clock
])
def test_a_bare_clock_beside_the_venue_is_read_on_its_clock(text, said):
    assert says(text, AT_VENUE, venue_reading(ROME, START)) is said


def _post(text: str) -> bool:
    lines = [line for line in REPLAY.read_text().splitlines() if line.strip()]
    s = PlaySession(get_task("tmz-v9-c4-0088"), "P0", prompt="failure_aware")
    for line in lines[:-2]:
        s.handle(line)
    s.handle('post_slack_message {"channel": "leadership", "text": '
             f'"Yuki Novak\'s welcome meeting with Leo: {text}"}}')
    s.handle("finish Done.")
    return s.env.record()["grade"]["success"]


@pytest.mark.parametrize(("text", "ok"), [
    ("Mon 24 Aug 10:00 in Rome Tesla", True),
    ("Mon 24 Aug 08:00 in Rome Tesla", True),
    ("Mon 24 Aug 11:00 in Rome Tesla", False),
])
def test_the_welcome_post_is_graded_on_the_rome_clock(text, ok):
    assert _post(text) is ok
