"""An optional text the agent leaves out passes where the call's other texts tell what
was asked of it (grading version 20; toolmaze-v9 play-test c2-0041 P2: a push with no
title whose message told the talk's local time, asked of the title only, failed for
"argument title is missing")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed

PROBE = (Path(__file__).parent.parent / "data" / "played" / "v9" / "probes"
         / "tmz-v9-c2-0041-P2.tools-for-time-and-summary.actions")
EPISODE = "tmz-v9-c2-0041-P2"
TOLD = "Talk: Friday 28 August, 21:00 Singapore time (UTC+8)."


@pytest.mark.parametrize(("new", "success"), [
    (TOLD, True),                                             # as probed: no title
    ("Talk: Friday 28 August, 9 pm Singapore time.", True),   # the time in other words
    ("Talk: Friday 28 August.", False),                       # the asked time told nowhere
    ("Talk: Friday 28 August, 20:00 Singapore time.", False),  # a wrong local time
])
def test_a_left_out_title_is_told_by_the_message(tmp_path, new, success):
    g = replay_changed(PROBE, EPISODE, TOLD, new, tmp_path)
    assert g["success"] is success
