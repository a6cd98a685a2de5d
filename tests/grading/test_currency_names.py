"""A currency told by its English name right after an amount says its code (grading
version 21, v21 play-test c3-0058 P1 `push_symbols`: a push saying "570 Swiss francs"
failed for "does not mention 'CHF'", though "570 CHF" passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.mentions import mentions

SLIPS = Path(__file__).parent.parent / "data" / "played" / "v9-g21" / "probes"
EPISODE = "tmz-v9-c3-0058-P1"
PROBE = SLIPS / f"{EPISODE}.push_symbols.actions"


@pytest.mark.parametrize(("text", "code", "ok"), [
    ("Paid 570 Swiss francs from the account.", "CHF", True),
    ("Paid 1 Swiss franc.", "CHF", True),
    ("It cost 509.42 pounds.", "GBP", True),
    ("About 1,250 euros in all.", "EUR", True),
    ("Roughly 80,000 yen.", "JPY", True),
    ("570 US dollars", "USD", True),
    ("570 Canadian dollars", "CAD", True),
    # A wrong name says another currency.
    ("Paid 570 euros from the account.", "CHF", False),
    ("Paid 570 Swiss francs.", "EUR", False),
    # A qualified name is not the bare one.
    ("570 Canadian dollars", "USD", False),
    # A name away from any figure says no currency.
    ("The francs and euros are both accepted.", "CHF", False),
])
def test_a_currency_by_its_name_beside_an_amount(text, code, ok):
    assert mentions(text, "currency_code", code) is ok


def test_swiss_francs_in_the_push_tell_chf(tmp_path):
    grade = replay_changed(PROBE, EPISODE, "570 Swiss francs", "570 Swiss francs", tmp_path)
    assert grade["success"], grade


def test_euros_for_swiss_francs_fail(tmp_path):
    grade = replay_changed(PROBE, EPISODE, "570 Swiss francs", "570 euros", tmp_path)
    assert not grade["success"]
