"""A time told to a visitor is the visited place's clock (grading version 17, v7 review
c3-0022): the welcome note to a Paris visitor that says "we meet at 10:00" tells the
08:00 UTC meeting right, and one that says "08:00" unlabelled tells it two hours off."""

from __future__ import annotations

import re

import pytest

from toolmaze_gym.grading.asked_zone import at_visit_clock, visit_offset
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

TASK = "tmz-v7-c3-0022"  # lucia.fischer@initech.org is visiting our Paris office
START = "2026-08-27T08:00:00Z"
STEPS = [
    'lookup_contact_by_email {"email": "lucia.fischer@initech.org"}',
    'geocode_city {"city": "Paris"}',
    'get_forecast_by_coords {"lat": 48.8566, "lon": 2.3522, "date": "2026-08-27"}',
    'unitconv_temperature {"input_c": 23.5}',
    'newsapi_everything {"q": "business", "city": "Paris"}',
    'query_availability {"date": "2026-08-27", "duration_minutes": 45}',
    'schedule_meeting {"attendee": "lucia.fischer@initech.org", "start": "2026-08-27T08:00:00Z",'
    ' "duration_minutes": 45, "subject": "Welcome to Paris, Lucia Fischer"}',
]


@pytest.mark.parametrize(("query", "offset"), [
    ("x@y.org is visiting our Paris office on Thursday 27 August. Email them the time.",
     "+02:00"),
    ("A client comes to Berlin on Thursday 27 August. Send the meeting time.", "+02:00"),
    ("Please set up the interview at 13:00 UTC in our Dublin office.", None),  # a clock given
    ("Send the meeting time to Paris.", None),  # nobody visits
    ("Sara in person at our Berlin office, and chen, who is in Singapore.", None),  # two zones
])
def test_the_visited_place_is_the_one_city_a_visit_sentence_names(query, offset):
    assert visit_offset(query, START) == offset


def test_the_value_is_the_same_instant_on_the_visited_clock():
    query = "x@y.org is visiting our Paris office on Thursday 27 August."
    assert at_visit_clock(query, START) == "2026-08-27T10:00:00+02:00"
    assert at_visit_clock("Email me the time.", START) == START


def _welcome(said: str) -> bool:
    s = PlaySession(get_task(TASK), "P0", prompt="failure_aware")
    for line in STEPS:
        s.handle(line)
    body = (f"Dear Lucia Fischer, we meet at {said} on Thursday 27 August. Expect clear, "
            "high 23.5 C (74.3 F). Top business news: Quantix Labs opens new headquarters "
            "in Paris")
    out = str(s.handle('create_draft {"to": "lucia.fischer@initech.org", "subject": '
                       f'"Welcome to Paris on Thursday 27 August", "body": "{body}"}}'))
    draft = re.findall(r'"draft_id": "([^"]+)"', out)[-1]
    s.handle(f'send_draft {{"draft_id": "{draft}"}}')
    s.handle("finish Done.")
    return s.env.record()["grade"]["success"]


@pytest.mark.parametrize(("said", "success"), [
    ("10:00", True),             # Paris time, unlabelled
    ("10:00 Paris time", True),
    ("10:00 CEST", True),
    ("08:00 UTC", True),         # the instant, labelled
    ("08:00", False),            # the UTC clock told as if local
    ("09:00", False),
])
def test_the_welcome_note_tells_the_meeting_on_the_paris_clock(said, success):
    assert _welcome(said) is success
