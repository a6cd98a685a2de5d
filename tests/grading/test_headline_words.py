"""A headline asked as the notification title is said by its own words: the place the
request named may be left out, but a title that only names the place is not the
headline (grading version 16, the toolmaze-v6 play-test's _TITLE probe and slips)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.headline_words import headline_said

V6 = Path(__file__).parent.parent / "data" / "played" / "v6"
PUSH = "tmz-v6-c1-0000-P1"  # "use the top climate headline in Vienna as the notification title"
HEADLINE = "Flood defences completed in Vienna"


@pytest.mark.parametrize(("title", "said"), [
    (HEADLINE, True),
    ("Flood defences completed", True),            # the place the user named left out
    ("Vienna: flood defences completed", True),
    ("Vienna weather", False),                     # the place only
    ("Hello from Vienna", False),
    ("Flood defences planned in Vienna", False),   # another story
])
def test_a_headline_is_said_by_its_words_less_its_names(title, said):
    assert headline_said(title, HEADLINE) is said


def test_a_headline_with_a_figure_needs_the_figure():
    assert headline_said("Helix Foods profit up 12 %", "Helix Foods profit up 12% in Q3")
    assert not headline_said("Helix Foods profit up", "Helix Foods profit up 12% in Q3")


@pytest.mark.parametrize(("title", "success"), [
    (HEADLINE, True),
    ("Flood defences completed", True),
    ("Vienna weather", False),
    ("Hello from Vienna", False),
])
def test_the_push_title_is_the_headline(tmp_path, title, success):
    graded = replay_changed(V6 / f"{PUSH}.actions", PUSH, f'"title": "{HEADLINE}"',
                            f'"title": "{title}"', tmp_path, count=1)
    assert graded["success"] is success
