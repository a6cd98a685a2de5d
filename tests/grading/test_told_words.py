"""A weather condition or a status told is one a response showed (grading version 28,
``resolution.told_word``): toolmaze-v12 review c4-0045 (an Italian SMS's "cielo sereno"
for delivery days whose forecasts were never fetched) and the visa trip's flight status
told with its lookup skipped (c4-0081, whose oracle c* counted the lookup out)."""

from __future__ import annotations

from pathlib import Path

from tests.grading.test_played import _replay

DATA = Path(__file__).parents[1] / "data"
TRIP = DATA / "told_words"
REVIEW = DATA / "reviews" / "v12" / "actions"


def test_a_status_told_with_its_lookup_is_an_answer():
    g, _ = _replay(TRIP / "tmz-v12-c4-0081.ref.txt", "tmz-v12-c4-0081-P0")
    assert g["success"] is True


def test_a_status_told_without_its_lookup_is_a_guess():
    g, text = _replay(TRIP / "tmz-v12-c4-0081.nostatus.txt", "tmz-v12-c4-0081-P0")
    assert g["success"] is False
    assert [u for u in g["unanswered"] if u.get("unread")] == [
        {"type": "flight_status", "value": "scheduled", "slot": "s3", "unread": True}]
    assert 'tells the flight_status "scheduled", which no response of this episode ' \
           "showed" in text


def test_a_condition_in_other_words_is_one_read():
    """The same Italian SMS passes where the delivery days' forecasts were fetched, and
    fails, named for the condition, where only today's was."""
    read, _ = _replay(REVIEW / "c4-0045.ownwords.txt", "tmz-v12-c4-0045-P0")
    assert read["success"] is True
    guessed, text = _replay(REVIEW / "c4-0045.weathertoday.txt", "tmz-v12-c4-0045-P0")
    assert guessed["success"] is False
    assert 'tells the weather_condition "clear", which no response before this step ' \
           "showed" in text
