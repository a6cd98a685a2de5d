"""Words a request needs because of what its scenario does (tasks/scoped_words.py):
the toolmaze-v9 review's and play-test's counter-examples (issue 28) put back into
today's phrasings are reported by the library check, and the library passes it."""

from __future__ import annotations

import dataclasses

import pytest

from toolmaze_gym.tasks.scenarios import check_scenario, load_library
from toolmaze_gym.tasks.scoped_words import scoped_problems

LIB = {s.id: s for s in load_library()}


@pytest.mark.parametrize("sid", sorted(LIB))
def test_every_phrasing_says_what_its_steps_need(sid):
    assert scoped_problems(LIB[sid]) == []


# (scenario, phrasing, today's words, the words toolmaze-v9 shipped, the rule)
V9_SCOPED = [
    # c4-0028: "the per diem per person" for a 3-day trip, graded as the trip's total
    ("fin-offsite-cost-sheet-and-approval", 1,
     "the per diem allowance per person for the whole trip", "the per diem per person",
     "per diem without its period"),
    ("tr-err-conference-flight-car-allowance", 1,
     "my per diem allowance in {city} for the whole trip, converted",
     "my daily allowance for {city} converted", "per diem without its period"),
    # c4-0088: "the meeting time" of a Rome meeting the agent finds, no clock named
    ("off-new-hire-first-day-setup", 1, "the meeting time in {city} time and the room",
     "the meeting time and the room", "meeting time with no clock"),
    ("off-client-visit-welcome", 0, "the meeting time ({city} time)", "the time",
     "meeting time with no clock"),
    # c1-0066: "send ... a confirmation" to an e-mail address, sent as a push
    ("fin-save-share-of-net-pay", 1, "a push notification confirming it,",
     "a confirmation", "push not called a push"),
]


@pytest.mark.parametrize(("sid", "k", "now", "v9", "rule"), V9_SCOPED)
def test_a_v9_phrasing_put_back_is_reported_by_the_library_check(sid, k, now, v9, rule,
                                                                  corpus):
    sc = LIB[sid]
    assert now in sc.phrasings[k] and check_scenario(sc, corpus) == []
    old = sc.phrasings[k].replace(now, v9)
    broken = dataclasses.replace(sc, phrasings=(*sc.phrasings[:k], old, *sc.phrasings[k + 1:]))
    assert any(f"phrasings[{k}]: {rule}" in p for p in check_scenario(broken, corpus))


def test_a_period_said_before_the_per_diem_is_its_period():
    """"the {days}-day per-diem per person" names the period; "per person" alone not."""
    sc = LIB["tr-offsite-flight-footprint-sheet"]
    assert any("{days}-day per-diem per person" in p for p in sc.phrasings)
    assert scoped_problems(sc) == []


def test_the_new_hire_is_invited_to_their_own_welcome_meeting():
    """c4-0088: a room for 3 and only the manager invited; the hire is invited too, at
    the booked room's time."""
    sc = LIB["off-new-hire-first-day-setup"]
    invited = {a.ref for s in sc.steps if s.use == "office.cal.schedule"
               for a in s.args if a.role == "attendee"}
    assert invited == {"manager", "hire"}
    assert all(p.count("{hire}") == 2 and "invit" in p for p in sc.phrasings)  # the hire, asked


def test_the_itinerary_that_shows_the_visa_and_landing_asks_them_in_every_phrasing():
    """c4-0090: "an itinerary showing the visa type and landing time" was asked in one
    phrasing and graded in none (the play-test's wrong landing time in the title
    passed); every phrasing now asks the title for both, and the title asks them."""
    sc = LIB["tr-err-visa-landing-hotel-and-allowance"]
    title = next(a for s in sc.steps if s.id == "itinerary" for a in s.args)
    assert {"visa.visa_type", "landing.datetime"} <= set(title.mention)
    assert all("visa type and the local landing time" in p for p in sc.phrasings)
