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
