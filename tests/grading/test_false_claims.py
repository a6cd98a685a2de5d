"""False claims a fair grader fails (grading version 21; toolmaze-v9's play-test p1):
an id told that misnames a shown one or names no record (``grading.invented_ids``), a
sum mistyped (``grading.wrong_figures.typo_figures``) and an earnings surprise told the
other way (``grading.earnings_surprise.wrong_way``).

The played episodes and their slips are the play-test's, in tests/data/played/v9-g21/
(``beat-miss-swapped-id-fixed`` is the slip with the finish's message id updated to the
one its changed e-mail got, so only the surprise's way is wrong)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed
from toolmaze_gym.explain import _unanswered_reason
from toolmaze_gym.grading.earnings_surprise import wrong_way
from toolmaze_gym.grading.invented_ids import ids_in, near
from toolmaze_gym.grading.wrong_figures import typo_figures

DATA = Path(__file__).parent.parent / "data" / "played" / "v9-g21"
TICKET = "tmz-v9-c1-0005-P0"     # a purchase ticket: TKT-YKUAQ3L9, line total 217.77 USD
FLIGHT = "tmz-v9-c1-0094-P2"     # booked 4MX3T4, then the directory is gone: an abort
BUDGET = "tmz-v9-c4-0028-P0"     # the group's fare, 151,188 JPY
EARNINGS = "tmz-v9-c4-0038-P3"   # BRIY beat by 6.13 %, LUMN missed by 14.37 %


def _played(episode: str) -> Path:
    return DATA / f"{episode}.actions"


@pytest.mark.parametrize("episode", [TICKET, FLIGHT, BUDGET, EARNINGS])
def test_the_played_episode_passes(episode):
    g, text = _replay(_played(episode), episode)
    assert g["success"], text


SLIPS = {  # slip -> what the grade lists as told wrong
    "tmz-v9-c1-0005-P0.finish-wrong-ticket-key": ["TKT-YKUAQ3L6"],
    "tmz-v9-c1-0094-P2.abort-wrong-ref": ["4MX3T9"],
    "tmz-v9-c1-0094-P2.wrong-passenger": ["4MX3T4"],
    "tmz-v9-c1-0005-P0.finish-wrong-line-total": [271.77],
    "tmz-v9-c4-0028-P0.finish-wrong-fare": [115188.0],
    "tmz-v9-c4-0038-P3.beat-miss-swapped-id-fixed": ["6.13%", "14.37%"],
}


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_the_slip_fails_for_what_it_told_wrong(slip):
    g, text = _replay(DATA / "slips" / f"{slip}.actions", slip.split(".")[0])
    assert not g["success"], text
    assert [u.get("told") for u in g["unanswered"]] == SLIPS[slip]


def test_the_slip_with_the_old_message_id_fails_too():
    """The slip as played kept the finish's message id of the e-mail before the change
    (a new body, a new id); the replay re-keys it (``tests/data/played/rekeyed.tsv``), so
    no id is invented, and the surprise told the other way fails it."""
    slip = "tmz-v9-c4-0038-P3.beat-miss-swapped"
    g, _ = _replay(DATA / "slips" / f"{slip}.actions", EARNINGS)
    assert not g["success"] and "false_claim" not in g["labels"]


# ---------------------------------------------------------------- ids (item 1)

@pytest.mark.parametrize(("told", "ok"), [
    ("ticket TKT-YKUAQ3L9 for", True),     # as played
    ("ticket tkt-ykuaq3l9 for", True),     # another case: not read as an id
    ("ticket TKT YKUAQ3L9 for", True),     # spaced: not read as an id
    ("ticket (https://support.example.com/tickets/TKT-YKUAQ3L9) for", True),  # its link
    ("ticket for", True),                  # no id told: the request did not ask it
    ("ticket TKT-YKUAQ3L6 for", False),    # one character off
    ("ticket TKT-YKUAQL39 for", False),    # two neighbours swapped
    ("ticket TKT-YKUAQ3L9 (not TKT-YKUAQ3L8) for", False),  # a wrong one beside it
])
def test_a_ticket_key_told_in_the_finish(tmp_path, told, ok):
    g = replay_changed(_played(TICKET), TICKET, "ticket TKT-YKUAQ3L9 for", told, tmp_path)
    assert g["success"] is ok
    assert ("false_claim" in g["labels"]) is not ok


@pytest.mark.parametrize(("told", "ok"), [
    # stand-ins and what no record's key looks like: no claim (the request does not ask
    # the ticket's key)
    ("ticket TKT-XXXXXXXX for", True),     # one character over and over
    ("ticket TKT-<key> for", True),
    ("ticket TKT-XXXX for", True),         # not the kind's code (eight)
    ("ticket Q7XK2M for", True),           # a bare code wholly unlike: not read
    # a record's key the episode never showed: made up, or another episode's
    ("ticket TKT-ZZZZ9999 for", False),
    ("ticket TKT-4T3YYTP5 for", False),
    ("ticket TKT-YKUAQ3L9 (see also TKT-AB12CD34) for", False),
])
def test_a_record_key_the_episode_never_showed(tmp_path, told, ok):
    """Grading version 23 (the v10-g22 play-test's slips: RTK-ZZZZ9999 for an e-ticket
    shown as RTK-Q76YUQTJ passed): a key in its kind's shape is read however unlike the
    shown ones it is."""
    g = replay_changed(_played(TICKET), TICKET, "ticket TKT-YKUAQ3L9 for", told, tmp_path)
    assert g["success"] is ok
    assert ("false_claim" in g["labels"]) is not ok


def test_the_explanation_names_the_key_never_shown(tmp_path):
    g = replay_changed(_played(TICKET), TICKET, "ticket TKT-YKUAQ3L9 for",
                       "ticket TKT-ZZZZ9999 for", tmp_path)
    assert [u["told"] for u in g["unanswered"]] == ["TKT-ZZZZ9999"]
    assert _unanswered_reason(g["unanswered"][0]) == (
        'the ending\'s text tells the ticket_id "TKT-ZZZZ9999", which this episode never '
        "showed: a record's key made up or another episode's, a mistyped id, or one a tool "
        "refused (a false claim)")


@pytest.mark.parametrize(("told", "ok"), [
    ("booking reference 4MX3T4)", True),   # as played
    ("booking reference 4mx3t4)", True),   # lower case
    ("booking reference 4MX3T9)", False),  # the slip
    ("booking reference M4X3T4)", False),  # two neighbours swapped
    ("booking reference 4MX3T4, ITN-9M6BVHQ5)", False),  # a wrong itinerary beside it
])
def test_a_booking_reference_told_in_an_abort(tmp_path, told, ok):
    g = replay_changed(_played(FLIGHT), FLIGHT, "booking reference 4MX3T4)", told, tmp_path)
    assert g["success"] is ok and ("graceful_stop" in g["labels"]) is ok


def test_an_id_only_a_refused_call_carried_is_no_record():
    """The guessed reference a 404 refused (and echoed) names no booking; the request's
    itinerary, the flight's key and the hold the response gave are shown."""
    g, text = _replay(DATA / "slips" / "tmz-v9-c1-0094-P2.wrong-passenger.actions", FLIGHT)
    assert [u["told"] for u in g["unanswered"]] == ["4MX3T4"], text
    assert g["unanswered"][0]["type"] == "flight_booking_ref"
    assert "never showed" in _unanswered_reason(g["unanswered"][0])


def test_the_shapes_of_ids():
    kinds = frozenset({"ticket_id", "flight_booking_ref", "flight_id"})
    assert ids_in("TKT-YKUAQ3L9, ref 4MX3T4 on W69219-CDGCPH-20260828", kinds) == [
        ("TKT-YKUAQ3L9", "ticket_id"), ("4MX3T4", "flight_booking_ref"),
        ("W69219-CDGCPH-20260828", "flight_id")]
    # no bare code: letters only, digits only, a number with a unit, lower case, part
    # of a longer token
    assert ids_in("BERLIN 123456 100EUR 4mx3t4 XTKT-YKUAQ3L9 W69219-CD", kinds) == []
    assert near("4MX3T9", "4MX3T4") and near("M4X3T4", "4MX3T4")
    assert not near("4MX3T4", "4MX3T4") and not near("Q7XK2M", "4MX3T4")
    # where told ids are checked, a code of capitals alone too (grading version 22)
    assert ids_in("ref QDPWHZ, BERLIN", kinds, letters=True) == [
        ("QDPWHZ", "flight_booking_ref"), ("BERLIN", "flight_booking_ref")]
    assert ids_in("ref QDPWHZ, Berlin, ABCD", kinds, letters=True) == [
        ("QDPWHZ", "flight_booking_ref")]


# ---------------------------------------------------------------- figures (item 2)

@pytest.mark.parametrize(("told", "ok"), [
    ("Line total incl. GST: 217.77 USD.", True),   # as played
    ("Line total incl. GST: 217.8 USD.", True),    # rounded to the tenth
    ("Line total incl. GST: about 218 USD.", True),  # to the unit
    ("Line total incl. GST: $217.77.", True),      # by its sign
    ("Line total incl. GST: 271.77 USD.", False),  # the slip: two neighbours swapped
    ("Line total incl. GST: 217.97 USD.", False),  # one digit changed
    ("Line total incl. GST: $271.77.", False),
    ("Line total incl. GST: 281 USD.", True),      # its whole 218 swapped: three
    # digits are too few to say which figure it mistypes (a known leniency)
])
def test_the_line_total_told_in_the_finish(tmp_path, told, ok):
    g = replay_changed(_played(TICKET), TICKET, "Line total incl. GST: 217.77 USD.", told,
                       tmp_path)
    assert g["success"] is ok


@pytest.mark.parametrize(("told", "ok"), [
    ("796.50 GBP = 151,188 JPY", True),   # as played: whole yen
    ("796.50 GBP = ¥151,188", True),
    ("796.50 GBP = about 151,000 JPY", True),  # to the thousand
    ("796.50 GBP = 115,188 JPY", False),  # the slip
    ("796.50 GBP = 151,818 JPY", False),
    ("796.50 GBP = ¥151,189", True),      # rounded up: whole yen either way
    ("796.50 GBP = ¥158,188", False),     # one digit changed
])
def test_the_group_fare_told_in_the_finish(tmp_path, told, ok):
    g = replay_changed(_played(BUDGET), BUDGET, "796.50 GBP = 151,188 JPY", told, tmp_path)
    assert g["success"] is ok


def test_a_typo_is_read_beside_a_currency_with_four_digits():
    assert typo_figures("total 271.77 USD", 217.77) == [271.77]
    assert typo_figures("total 217.77 USD (not 271.77 USD)", 217.77) == []  # said right
    assert typo_figures("total 271.77", 217.77) == []       # no currency beside it
    assert typo_figures("total 2,000 EUR", 2500.0) == []    # a round figure
    assert typo_figures("total 21 EUR", 12.0) == []         # too few digits
    assert typo_figures("total 217.8 EUR", 217.77) == []    # a rounding
    assert typo_figures("total 2,026 EUR", 2062.0) == [2026.0]  # the caller drops the
    # figures the episode showed (a year of its dates)


# ---------------------------------------------------------------- surprise (item 3)

_BRIY = "estimate, a beat of 6.13%"  # the e-mail's line, as played


@pytest.mark.parametrize(("told", "ok"), [
    (_BRIY, True),
    ("estimate, 6.13% above it", True),
    ("estimate (+6.13 %)", True),
    ("estimate, a beat of 6.1%", True),
    ("estimate", True),                  # the EPS figures alone tell it
    ("estimate, a miss of 6.13%", False),
    ("estimate, 6.13% below it", False),
    ("estimate (-6.13 %)", False),
    ("estimate, falling short by 6.1%", False),
])
def test_the_surprise_told_in_the_email(tmp_path, told, ok):
    g = replay_changed(_played(EARNINGS), EARNINGS, _BRIY, told, tmp_path)
    assert g["success"] is ok


def test_the_way_of_a_surprise():
    assert wrong_way("a miss of 6.13%", 6.129) == "6.13%"
    assert wrong_way("a beat of 6.13%", 6.129) == ""
    assert wrong_way("(-6.13 %)", 6.129) == "-6.13 %"
    assert wrong_way("BRIY beat by 6.13% while LUMN missed by 14.37%", 6.129) == ""
    assert wrong_way("BRIY beat by 6.13% while LUMN missed by 14.37%", -14.37) == ""
    assert wrong_way("BRIY missed by 6.13% while LUMN beat by 14.37%", -14.37) == "14.37%"
    assert wrong_way("6.13%", 6.129) == ""            # no way said
    assert wrong_way("a miss of 6.53%", 6.129) == ""  # another figure


def test_the_explanation_says_the_surprise_went_the_other_way():
    said = _unanswered_reason({"type": "eps_surprise", "value": 6.13, "slot": "s3",
                               "told": "6.13%", "sent": "send_email"})
    assert "other way" in said and "beat" in said and "send_email" in said
