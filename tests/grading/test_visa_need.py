"""A visa asked about, not its type, is told by whether one is needed (grading version 22,
toolmaze-v10 play-test c4-0056 P1 ``visa-yes-only``, review c1-0035)."""

from __future__ import annotations

import pytest

from tests.grading.test_played import played_text, replay_variant
from tests.grading.test_reviewed import REVIEWS
from toolmaze_gym.grading.visa_need import (
    VISA_TYPE_KEY,
    need_told_wrong,
    visa_asked_whether,
    visa_need_said,
)

PROBE = (REVIEWS.parent / "played" / "v10" / "probes"
         / "tmz-v10-c4-0056-P1.visa-yes-only.actions")


@pytest.mark.parametrize(("query", "asked"), [
    ("say whether I need a visa there with my passport from CN", True),
    ("note the visa rules, the cheapest flight and its fare", True),
    ("Make an itinerary showing the visa type and landing time", False),
    ("tell me which visa I need", False),
    ("book the cheapest flight to Prague", False),
])
def test_a_request_asks_about_a_visa_or_its_type(query, asked):
    assert visa_asked_whether(query) is asked


@pytest.mark.parametrize(("text", "visa_type", "said"), [
    ("Visa: a traveller with a CN passport needs a visa for the Czech Republic.",
     "consular visa", True),
    ("Visa required: yes", "e-visa", True),
    ("You do not need a visa.", "consular visa", False),
    ("no visa required for German passport", "citizen, no visa", True),
    ("Berlin: visa-free", "visa-free", True),
    ("Visa: not required for a UK passport", "visa-free", True),   # g22 play-test p1 c2-0020
    ("Visa: not required for a UK passport", "consular visa", False),
    ("you don't need a visa", "visa-free", True),
    ("you need a visa", "visa-free", False),
    ("no visa needed", "electronic travel authorisation", False),  # the ETA is needed
    ("you need a visa", "electronic travel authorisation", False),
    ("Prague flight booked", "consular visa", False),
])
def test_a_visa_type_is_told_by_the_need_it_implies(text, visa_type, said):
    assert visa_need_said(text, visa_type) is said


@pytest.mark.parametrize(("old", "new", "success"), [
    ("needs a visa for the Czech Republic", "needs a visa for the Czech Republic", True),
    ("needs a visa for the Czech Republic", "needs a consular visa for the Czech Republic",
     True),
    ("needs a visa for the Czech Republic", "does not need a visa for the Czech Republic",
     False),
    ("Visa: a traveller with a CN passport needs a visa for the Czech Republic.", "", False),
])
def test_the_ticket_tells_the_visa_need_its_way(tmp_path, old, new, success):
    text = played_text(PROBE)
    assert old in text
    g, out = replay_variant(PROBE, text.replace(old, new), "tmz-v10-c4-0056-P1", tmp_path)
    assert g["success"] is success, out


# A visa's need told the other way is a wrong claim (grading version 23, v9-g21 play-test
# c4-0090 P1 ``visaopposite``): the look-up said visa-free for a BR passport in Germany.
SLIP = (REVIEWS.parent / "played" / "v9-g21" / "slips"
        / "tmz-v9-c4-0090-P1.visaopposite.actions")
WRONG = "Visa: a Brazilian passport holder needs a Schengen visa for Germany."


@pytest.mark.parametrize(("text", "visa_type", "wrong"), [
    ("a Brazilian passport holder needs a Schengen visa", "visa-free", "needs a Schengen visa"),
    ("Visa required: yes", "citizen, no visa", "Visa required"),
    ("You do not need a visa.", "consular visa", "do not need a visa"),
    ("no visa needed", "visa-free", ""),
    ("visa-free for 90 days; a longer stay needs a visa", "visa-free", ""),  # both: neither
    ("needs a consular visa", "consular visa", ""),
    ("Flight W65497 lands 21:15", "visa-free", ""),                            # says nothing
    ("no visa needed", "a type the world does not list", ""),
])
def test_a_visa_need_told_the_other_way_is_found(text, visa_type, wrong):
    found = need_told_wrong({"s2": {VISA_TYPE_KEY: visa_type}}, text)
    assert [w for _, _, w in found] == ([wrong] if wrong else [])


def test_two_answers_of_different_need_read_no_text():
    outputs = {"s2": {VISA_TYPE_KEY: "visa-free"}, "s9": {VISA_TYPE_KEY: "consular visa"}}
    assert need_told_wrong(outputs, "you need a visa") == []


@pytest.mark.parametrize(("new", "success", "line"), [
    (WRONG, False, 'the final answer tells the user "needs a Schengen visa", the other way '
                   'from the visa rules this episode looked up: "visa-free"'),
    ("Visa: a Brazilian passport holder needs no visa for Germany.", True, ""),
    ("Visa: visa-free entry for a Brazilian passport.", True, ""),
    ("Visa: none needed for a Brazilian passport (visa-free; a stay over 90 days would need "
     "a visa).", True, ""),
    ("Visa checked.", True, ""),
])
def test_the_final_answer_may_not_claim_the_opposite_visa_need(tmp_path, new, success, line):
    text = played_text(SLIP)
    assert WRONG in text
    g, out = replay_variant(SLIP, text.replace(WRONG, new), "tmz-v9-c4-0090-P1", tmp_path)
    assert g["success"] is success, out
    assert line in out
