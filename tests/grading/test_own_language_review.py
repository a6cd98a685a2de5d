"""A review the user asked in another language, written by the agent itself (no
translator call), is judged on what a translation keeps: the delivery date, not the
user's English words (the v4 draft-2 play-test's c1-0078 P0, an own German review held
to "Good quality for the price." word for word). Played on toolmaze-v3's task of the
same scenario (French)."""

from __future__ import annotations

import pytest

from tests.grading._helpers import FINISH, call, graded, play, suite

TASK = "tmz-v3-c1-0075"  # "Put it up in French with my words ... plus the date it got here."


def _review(text: str) -> bool:
    """Success of the reference path without the translator, the review's text
    replaced by ``text``."""
    task = next(t for t in suite() if t.id == TASK)
    acts = [call(c, text=text) if c.tool == "write_review" else call(c)
            for c in task.default_path.calls if c.tool != "translate_text"]
    return graded(play(task, "P0", [*acts, FINISH])).success


@pytest.mark.parametrize(("text", "success"), [
    ("Fait le travail, même si le manuel est mince. Livré le 13.08.2026.", True),
    ("Fait le travail, même si le manuel est mince. Livré le 13 août 2026.", True),
    # subtly wrong: another delivery date; the right facts in English
    ("Fait le travail, même si le manuel est mince. Livré le 12.08.2026.", False),
    ("Does the job, though the manual is thin. Delivered on 2026-08-13.", False),
])
def test_an_own_french_review_is_judged_on_what_a_translation_keeps(text, success):
    assert _review(text) is success
