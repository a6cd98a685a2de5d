"""A text asked to carry "the change" carries each booking and cancellation the request
made, the record by any of its names (toolmaze-v10 review c4-0023: "a push with the
change and a short summary of today's top business story" passed with the news sentence
alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_reviewed import _grade
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.asked_change import change_asked
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.tasks.suite import get_task

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v10" / "actions"
TASK = "tmz-v10-c4-0023"
_NEWS = "News: Crescent Media will move 899 staff into its new Berlin headquarters this year."
_REF = ("Flight AZ3262 (scheduled) cancelled, refund 70.86 GBP (Pound Sterling). Emma Bauer "
        "now takes train TGV1769-PGLMIC-20261010 Paris Gare de Lyon to Milano Centrale, "
        "departing 14:00 UTC on Saturday 10 October, ticket RTK-J563XDP8; fare 70.02 EUR "
        f"filed on the trip. {_NEWS}")


@pytest.mark.parametrize(("clause", "asked"), [
    ("send pablo a push with the change and a short summary of the news", True),
    ("push leo the change with a short summary of today's top travel story", True),
    ("post the changes in #travel", True),
    ("post the change (the train, Paris to Milan on 10 Oct) in #travel", False),  # a list
    ("post the change: the train and the refund", False),                          # a list
    ("text me what's the change in percent", False),                       # a figure
    ("log today's price, the change since purchase and the value", False),  # a figure
    ("send pablo a push with a short summary of the news", False),
])
def test_the_change_is_asked_unless_it_names_a_figure_or_is_spelled_out(clause, asked):
    assert change_asked([clause]) is asked


def test_the_change_asks_the_cancelled_flight_and_the_new_train():
    push = next(s for s in with_noted(get_task(TASK), load_corpus()).slots if s.id == "s10")
    asked = {(m[0], m[1]) for i in push.inputs for m in i.mentions}
    # not the fare (a later step files it as an expense, an errand of its own), nor the
    # refund in GBP (worked from the cancellation's 80.50 EUR: asked of the user)
    assert asked == {
        ("text", "Crescent Media will move 899 staff into its new Berlin headquarters "
                 "this year."),
        ("flight_id", "AZ3262-CDGMXP-20261010"), ("train_id", "TGV1769-PGLMIC-20261010"),
    }


def _push(tmp_path: Path, message: str) -> tuple[dict, str]:
    source = ACTIONS / "c4-0023.ref.txt"
    text = source.read_text(encoding="utf-8")
    assert _REF in text
    path = tmp_path / source.name
    path.write_text(text.replace(_REF, message), encoding="utf-8")
    return _grade(path, TASK)


@pytest.mark.parametrize(("message", "success"), [
    (_REF, True),                                                       # the reference
    ("AZ 3262 is off; 70.86 GBP comes back. Emma takes TGV 1769 from Paris to Milan "
     f"on Sat 10 Oct instead. {_NEWS}", True),                          # own words
    ("Booking 7XCPQ4 cancelled (refund GBP 70.86); Emma's new ticket is RTK-J563XDP8, "
     f"Paris to Milan, 10 October. {_NEWS}", True),                     # by the codes
    ("Flight AZ3262 cancelled, refund 70.86 GBP. Emma Bauer now takes train TGV1769. "
     f"{_NEWS}", True),                                                 # no fare, no time
    ("Flight AZ3262 cancelled, refund 80.50 EUR. Emma Bauer now takes train TGV1769. "
     f"{_NEWS}", True),                                     # the airline's own currency
    ("Flight AZ3262 cancelled. Emma Bauer now takes train TGV1769. " + _NEWS, True),
    ("Flight AZ3262 cancelled, refund 70.86 GBP. Emma Bauer now takes the train. " + _NEWS,
     False),                                                            # which train?
    ("Refund 70.86 GBP. Emma Bauer now takes train TGV1769. " + _NEWS, False),  # which flight?
    ("Emma Bauer now takes train TGV1769. " + _NEWS, False),           # no cancellation
    ("Flight AZ3262 cancelled, refund 80.50 GBP. Emma Bauer now takes train TGV1769. "
     + _NEWS, False),                                   # a wrong refund (unconverted_sum)
])
def test_c4_0023s_push_with_the_change(message, success, tmp_path):
    g, reason = _push(tmp_path, message)
    assert g["success"] is success, reason


def test_a_push_without_the_change_is_explained_by_what_it_leaves_out():
    g, reason = _grade(ACTIONS / "c4-0023.newsonly.txt", TASK)
    assert not g["success"]
    assert 'does not mention "TGV1769-PGLMIC-20261010" (train_id' in reason
    assert 'or "RTK-J563XDP8"' in reason  # the ticket names the train too
    assert '"AZ3262-CDGMXP-20261010" (flight_id' in reason and 'or "7XCPQ4"' in reason
