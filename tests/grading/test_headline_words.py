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


# -- in any inflection and common synonyms (grading version 21, v9 review c3-0040) ------

FUNDING = "Stockholm start-ups raise record funding as investors return"
V9 = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"


@pytest.mark.parametrize(("text", "said"), [
    (FUNDING, True),
    ("In business news, Stockholm start-ups have raised record funding as investors come "
     "back.", True),
    ("Stockholm startups raised record funding as investors came back", True),
    ("Start ups raise record funding as investors return", True),      # the place left out
    ("Stockholm start-ups raise record losses as investors return", False),  # another fact
    ("Stockholm start-ups raise funding as investors return", False),  # "record" left out
    ("Oslo start-ups raise record funding as investors return", False),  # another city
    ("Stockholm port traffic slows in summer.", False),                # another story
    ("Stockholm start-ups raise record funding. Investors flee.", False),
])
def test_a_headline_is_said_in_any_inflection_and_its_synonyms(text, said):
    assert headline_said(text, FUNDING) is said


def test_a_headline_is_said_across_two_sentences_side_by_side():
    assert headline_said("Stockholm start-ups raised record funding. Investors are back.",
                         FUNDING)


@pytest.mark.parametrize(("title", "headline", "said"), [
    ("Retail sales in Denmark climb 5%", "Retail sales in Denmark rise 5 percent", True),
    ("Retail sales in Denmark fall 5%", "Retail sales in Denmark rise 5 percent", False),
    ("Bluepeak Energy opens new headquarters in Vienna",
     "Helix Foods opens new headquarters in Vienna", False),            # another company
])
def test_a_headline_of_another_kind_is_read_the_same_way(title, headline, said):
    assert headline_said(title, headline) is said


@pytest.mark.parametrize(("replay", "success"), [
    ("headpara", True), ("ref", True), ("othernews", False), ("nonews", False)])
def test_the_welcome_mail_tells_the_news_in_other_words(replay, success):
    from tests.grading.test_reviewed import _grade

    g, text = _grade(V9 / f"c3-0040.{replay}.txt", "tmz-v9-c3-0040")
    assert g["success"] is success, text
