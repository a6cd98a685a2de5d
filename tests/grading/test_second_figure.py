"""A figure asked beside an equal one is written as its own (grading version 18;
toolmaze-v7 play-test c4-0020 P4: "the sponsor's 100% match on it as a second figure"
is 4,800 EUR, the pledge's value, and the pledge's mention passed for it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.second_figure import repeats_told, told_times

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v7"
EPISODE = "tmz-v7-c4-0020-P4"
MATCH = "\\nSponsor 100% match: +4,800 EUR."


def test_figures_are_counted_as_written():
    assert told_times("120 runners × 40 EUR = 4,800 EUR. Match: +4,800.00 EUR", 4800) == 2
    assert told_times("4 800 EUR and 4800 EUR", 4800) == 2      # spaced groups
    assert told_times("Total with sponsor match: 9,600 EUR", 4800) == 0
    need = [("money_amount", 4800.0), ("money_amount", 4800.0), ("currency_code", "EUR")]
    assert repeats_told("4,800 EUR pledged, 4,800 EUR matched", need)
    assert not repeats_told("4,800 EUR pledged and matched", need)
    nil = [("money_amount", 0.0), ("money_amount", 0.0), ("currency_code", "JPY")]
    assert repeats_told("RYNI pays no dividend, so nothing to withhold", nil)  # v3 c1-0063


@pytest.mark.parametrize(("new", "success"), [
    (MATCH, True),                                              # as played
    ("\\nThe sponsor matches it: another 4800 EUR.", True),     # other words
    ("", False),                                                # no match line
    ("\\nTotal with sponsor match: 9,600 EUR.", False),         # the match only as a total
])
def test_the_match_is_told_as_a_second_figure(tmp_path, new, success):
    graded = replay_changed(PLAYED / f"{EPISODE}.actions", EPISODE, MATCH, new, tmp_path)
    assert graded["success"] is success


COMPARE = "tmz-v8-c4-0014"  # MSFT's dividend per share and its 2025-Q3 EPS are both 3.32
TRAF = "TRAF: 424.41 USD, pays no dividend, 2025-Q3 EPS 3.03 vs 3.14 expected."
NEWS = "\nMarkets today: Harbor Bank shares jump after profit beat."


def test_an_amount_and_an_eps_of_the_same_value_are_two_figures():
    need = [("money_amount", 3.32), ("eps", 3.32), ("eps", 2.62)]
    assert repeats_told("dividend 3.32 USD; EPS 3.32 vs 2.62", need)
    assert not repeats_told("EPS 3.32 vs 2.62", need)


def _email(body: str) -> bool:
    from tests.grading.test_zone_told import play

    return play(COMPARE, {"body": body + NEWS}, "Sent.")["success"]


@pytest.mark.parametrize(("msft", "success"), [
    ("MSFT: 505.69 USD, dividend 3.32, 2025-Q3 EPS 3.32 vs 2.62.", True),   # the reference
    ("MSFT 505.69 USD | dividend/share 3.32 USD | Q3 EPS 3.32 (est. 2.62)", True),
    ("MSFT: 505.69 USD, dividend 3.32 USD.\nMSFT beat the EPS estimate by 26.72 %.", True),
    ("MSFT: 505.69 USD, 2025-Q3 EPS 3.32 vs 2.62.", False),   # no dividend (v8 review)
    ("MSFT: 505.69 USD, dividend and EPS 3.32 (est. 2.62).", False),  # one figure, two asks
])
def test_msfts_dividend_and_eps_are_each_told(msft, success):
    """v8 blind review c4-0014: one "3.32" answered both asks; each needs its own."""
    assert _email(f"{msft}\n{TRAF}") is success
