"""Earnings against the estimate told as the surprise in per cent, with its direction,
stand in for the two EPS figures (grading version 16, the toolmaze-v6 play-test's
probe c4-0087 P2 pct-only-no-eps); a line that writes its own EPS is held to them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import played_text, replay_changed
from toolmaze_gym.explain import _unanswered_reason
from toolmaze_gym.grading.earnings_surprise import surprise, surprise_said, wrong_pair

V6 = Path(__file__).parent.parent / "data" / "played" / "v6"
EPISODE = "tmz-v6-c4-0087-P2"  # RYNL and MERI: "how 2024-Q4 earnings compared with the estimate"
MERI = surprise(0.44, 0.53)  # -16.98 %
PLAYED = "EPS 0.44 USD vs 0.53 USD estimate, a miss of 16.98%"


@pytest.mark.parametrize(("line", "said"), [
    ("2024-Q4 earnings: missed the estimate by 16.98%", True),
    ("earnings came in 16.98 % below the estimate", True),
    ("beat the estimate by 16.98%", False),                # the wrong way
    ("missed the estimate by 17%", False),                 # not to the hundredth
    ("EPS 0.45 vs 0.53 estimated (missed by 16.98%)", False),  # its own EPS, wrong
])
def test_the_surprise_is_told_with_its_direction(line, said):
    assert pytest.approx(-16.981, abs=1e-3) == MERI
    assert surprise_said(line, MERI) is said


@pytest.mark.parametrize(("told", "success"), [
    (PLAYED, True),
    ("missed the estimate by 16.98%", True),
    ("beat the estimate by 16.98%", False),
    ("EPS 0.45 USD vs 0.53 USD estimate, a miss of 16.98%", False),
])
def test_the_mail_may_tell_the_surprise_instead_of_both_eps(tmp_path, told, success):
    source = V6 / f"{EPISODE}.actions"
    # the e-mail, in both mail tools the player tried
    assert source.read_text(encoding="utf-8").count(PLAYED) == 2
    assert replay_changed(source, EPISODE, PLAYED, told, tmp_path)["success"] is success


# ------------------------------------------- the EPS pair told the wrong way (version 23)

G22 = Path(__file__).parent.parent / "data" / "played" / "v10-g22" / "slips"
EPSSWAP = "tmz-v10-c4-0012-P2"  # MERI: 0.62 actual beat a 0.54 estimate
SWAPPED_MAIL = "MERI 0.54 vs 0.62 estimate (miss)"
SWAPPED_ANSWER = "EPS 0.54 vs 0.62 expected (miss)"

# (a text with {a} the actual and {e} the estimate, told the right way round)
RIGHT = [
    "MERI {a} vs {e} estimate (beat)",
    "MERI {a} vs {e} estimate",
    "EPS {a} vs. {e} expected",
    "actual {a}, estimate {e}",
    "EPS {a} (est. {e}), beat",
    "came in at {a}, above the {e} consensus",
    "beat the {e} estimate with {a}",
    "EPS {a} USD vs {e} USD estimated, beating expectations",
]
# (a text that names no way for the figures: right whichever way round they stand)
SILENT = [
    "EPS {a} vs {e}",
    "actual vs. estimated EPS: {a} vs. {e}",   # a table's head labels no figure
    "estimate {e} | actual {a}",               # two clauses, each one figure
    "EPS {a} vs {e} estimate, shares down 4.09% today",  # "down" is the price's
    "EPS beat/miss: {a} vs {e}",               # a head that names both ways
]


@pytest.mark.parametrize("told", RIGHT + SILENT)
@pytest.mark.parametrize(("actual", "estimate"), [(0.62, 0.54), (3.32, 3.22), (0.44, 0.53)])
def test_the_pair_told_the_right_way_passes(told, actual, estimate):
    if actual < estimate and told in RIGHT:  # the right words of a miss
        told = _as_miss(told)
    assert wrong_pair(told.format(a=actual, e=estimate), actual, estimate) == ""


@pytest.mark.parametrize("told", RIGHT)
@pytest.mark.parametrize(("actual", "estimate"), [(0.62, 0.54), (3.32, 3.22), (0.44, 0.53)])
def test_the_pair_told_the_wrong_way_round_fails(told, actual, estimate):
    """The figures swapped under their labels, or the way word flipped."""
    right = _as_miss(told) if actual < estimate else told
    assert wrong_pair(right.format(a=estimate, e=actual), actual, estimate)  # swapped
    flipped = told if actual < estimate else _as_miss(told)
    if flipped != right:  # a text with a way word, the other way
        assert wrong_pair(flipped.format(a=actual, e=estimate), actual, estimate)


def _as_miss(told: str) -> str:
    for beat, miss in (("beating", "missing"), ("beat", "missed"), ("above", "below")):
        told = told.replace(beat, miss)
    return told


@pytest.mark.parametrize(("mail", "answer", "success"), [
    (SWAPPED_MAIL, SWAPPED_ANSWER, False),                         # as played
    ("MERI 0.62 vs 0.54 estimate (beat)", "EPS 0.62 vs 0.54 expected (beat)", True),
    ("MERI 0.62 vs 0.54", "EPS 0.62 vs 0.54", True),                # no label, no way
    ("MERI 0.62 vs 0.54 estimate (miss)", "EPS 0.62 vs 0.54 expected (beat)", False),
    ("MERI 0.54 vs 0.62 estimate", "EPS 0.62 vs 0.54 expected", False),  # swapped labels
    ("MERI actual 0.62, estimate 0.54 (beat)", "EPS 0.62 (est. 0.54)", True),
    ("MERI actual 0.54, estimate 0.62", "EPS 0.62 (est. 0.54)", False),
])
def test_the_mail_tells_the_pair_the_right_way(tmp_path, mail, answer, success):
    text = played_text(G22 / f"{EPSSWAP}.epsswap.actions")
    assert text.count(SWAPPED_MAIL) == 2 and text.count(SWAPPED_ANSWER) == 1
    source = tmp_path / "source" / f"{EPSSWAP}.actions"
    source.parent.mkdir()
    source.write_text(text.replace(SWAPPED_ANSWER, answer), encoding="utf-8")
    assert replay_changed(source, EPSSWAP, SWAPPED_MAIL, mail, tmp_path)["success"] is success


def test_the_explanation_says_the_pair_is_the_wrong_way_round(tmp_path):
    g = replay_changed(G22 / f"{EPSSWAP}.epsswap.actions", EPSSWAP, SWAPPED_ANSWER,
                       "EPS 0.62 vs 0.54 expected (beat)", tmp_path)
    [told] = [u for u in g["unanswered"] if u["type"] == "eps_pair"]
    assert told["sent"] == "send_mail_message" and told["told"] == SWAPPED_MAIL
    assert _unanswered_reason(told) == (
        "the text sent by send_mail_message tells the EPS against the estimate the wrong "
        "way round (\"MERI 0.54 vs 0.62 estimate (miss)\"): the actual EPS 0.62 beat the "
        "estimate 0.54")

