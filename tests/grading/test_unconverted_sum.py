"""An amount told under the code of the currency a step converted it into is a wrong
figure, in the final answer or in any message (grading version 21; the toolmaze-v9
play-test, c4-0054 P1 `push-wrong-chf`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed
from toolmaze_gym.grading.unconverted_sum import conversions, mislabelled
from toolmaze_gym.tasks.suite import get_task

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v9"
EPISODE = "tmz-v9-c4-0054-P1"


@pytest.mark.parametrize(("text", "wrong"), [
    ("refund 80.50 CHF.", "80.50 CHF"),
    ("refund CHF 80,50", "CHF 80,50"),                 # the other decimal convention
    ("refund Fr. 80.5 back", "Fr. 80.5"),              # by its sign
    ("refund 80.50 EUR (about 79.28 CHF)", ""),        # each sum beside its own code
    ("refund 79.28 CHF (80.50 EUR)", ""),
    ("refund about 79 CHF", ""),                       # a rounding of the CHF sum
    ("refund 80.50, in CHF 79.28", ""),
])
def test_the_amount_before_conversion_under_the_targets_code(text, wrong):
    assert mislabelled(text, 80.5, "CHF", 79.28) == wrong


def test_a_rate_that_leaves_the_cent_unchanged_makes_no_wrong_figure():
    assert mislabelled("refund 80.50 CHF", 80.5, "CHF", 80.5) == ""


def test_a_conversion_is_a_slot_with_an_amount_a_base_and_a_quote():
    assert [c.slot for c in conversions(get_task("tmz-v9-c4-0054"))] == ["s4"]


def test_the_pushed_refund_in_the_wrong_currency_fails():
    g, reason = _replay(PLAYED / "slips" / f"{EPISODE}.push-wrong-chf.actions", EPISODE)
    assert not g["success"]
    assert 'send_push_notification tells "80.50 CHF"' in reason


@pytest.mark.parametrize(("old", "new", "success"), [
    ("refund 80.50 EUR (about 79.28 CHF)", "refund 80.50 EUR (about 79.28 CHF)", True),
    ("refund 80.50 EUR (about 79.28 CHF)", "refund CHF 79,28 (EUR 80,50)", True),
    ("refund 80.50 EUR (about 79.28 CHF)", "refund 80.50 EUR", True),   # CHF not asked here
    ("refund 80.50 EUR (about 79.28 CHF)", "refund 80.50 CHF", False),
    ("refund 80.50 EUR (about 79.28 CHF)", "refund 80.50 EUR (about 79.29 CHF)", False),  # near
    ("refund 80.50 EUR (about 79.28 CHF)", "refund 80.50 EUR (about 79.3 CHF)", True),  # rounded
])
def test_a_wrong_figure_in_the_push(old, new, success, tmp_path):
    g = replay_changed(PLAYED / f"{EPISODE}.actions", EPISODE, old, new, tmp_path, 1)
    assert g["success"] is success, g["unanswered"]


def test_the_final_answer_is_read_too(tmp_path):
    g = replay_changed(PLAYED / f"{EPISODE}.actions", EPISODE, "refund 80.50 EUR = 79.28 CHF",
                       "refund 80.50 CHF (79.28 CHF)", tmp_path, 1)
    assert not g["success"]
