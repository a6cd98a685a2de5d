"""Earnings against the estimate told as the surprise in per cent, with its direction,
stand in for the two EPS figures (grading version 16, the toolmaze-v6 play-test's
probe c4-0087 P2 pct-only-no-eps); a line that writes its own EPS is held to them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.earnings_surprise import surprise, surprise_said

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
