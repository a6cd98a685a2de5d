"""A sum told in the currency its own response gave it in says the asked sum (grading
version 19; toolmaze-v8 play-test c2-0048 P1 `variant`: "Shopping budget remaining:
USD 218.11" failed for "does not mention CHF", though log_expense gave the remainder
in USD)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.grading.sum_currency import currency_beside, sum_in_said

PROBES = Path(__file__).parent.parent / "data" / "played" / "v8" / "probes"
EPISODE = "tmz-v8-c2-0048-P1"
PUSH = "Shopping budget remaining: USD 218.11"


def test_the_sums_currency_is_the_responses_own_code():
    corpus = load_corpus()
    assert currency_beside(corpus["log_expense"], "money_delta@budget_remaining").name \
        == "budget_currency"                              # not the echoed expense currency
    assert currency_beside(corpus["log_expense"], "money_delta@no_such_field") is None
    assert currency_beside(corpus["convert_currency"], "money_amount@converted_amount") \
        is None                                           # only an echo names a currency


@pytest.mark.parametrize(("text", "said"), [
    ("USD 218.11", True),
    ("Left: 218.11 USD.", True),
    ("Left: 1,218.11 USD", False),                          # another sum
    ("Left 218.11, all in USD", False),                     # another clause
    ("Logged 30.61 USD; 218.11 left", False),
])
def test_the_code_is_written_beside_the_sum(text, said):
    assert sum_in_said(text, ("money_delta", 218.11, "USD")) is said


@pytest.mark.parametrize(("new", "success"), [
    (PUSH, True),                                           # as the variant pushed it
    ("Shopping budget remaining: 218.11 USD", True),
    ("Shopping budget remaining: 218.11 CHF", True),        # the task's own wording
    ("Shopping budget remaining: 218.11", False),           # a bare number names no currency
    ("Shopping budget remaining: GBP 218.11", False),       # not the episode's currency
    ("Shopping budget remaining: USD 218.12", False),       # not the episode's sum
    ("Shopping budget remaining: 218.11. Logged 30.61 USD", False),  # USD not the sum's
    ("Remaining: $218.11", True),                           # its sign beside it
])
def test_the_remainder_told_in_the_budgets_currency_passes(tmp_path, new, success):
    graded = replay_changed(PROBES / f"{EPISODE}.variant.actions", EPISODE, PUSH, new,
                            tmp_path)
    assert graded["success"] is success
