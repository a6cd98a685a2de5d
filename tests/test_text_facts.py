"""A name of several words from a tool's response said in another order (grading version
21, toolmaze-v9 review c4-0088: "Tesla room (Rome)" for the room "Rome Tesla")."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym.grading.arguments import says
from toolmaze_gym.mentions import FREE_TEXT
from toolmaze_gym.text_facts import (
    carries,
    facts,
    head_said,
    name_reordered,
    ranks_kept,
    weekdays_kept,
)
from toolmaze_gym.world import get_world

ROOM = "Rome Tesla"
V9 = Path(__file__).parent / "data" / "reviews" / "v9" / "actions"


@pytest.mark.parametrize(("text", "said"), [
    ("Mon 24 Aug 10:00 Rome time, Tesla room (Rome)", True),
    ("in Rome's Tesla room", True),
    ("the Tesla room in Rome", True),
    ("Tesla (Rome)", True),
    ("Tesla room", False),                       # which city's Tesla room?
    ("10:00 Rome time, Tesla room", False),      # the city told of the clock, not the room
    ("Tesla room in Milan; lunch in Rome", False),
    ("Rome. Tesla room", False),
])
def test_a_room_is_named_by_its_words_in_any_order(text, said):
    assert name_reordered(text, ROOM) is said
    assert says(text, FREE_TEXT, ROOM) is said
    assert carries(text, ROOM) is said


def test_the_world_has_a_tesla_room_in_several_cities():
    """Why "Tesla room" alone names no room: the world has one in each of these."""
    cities = {r.city for r in get_world(0).office.rooms if r.name.endswith(" Tesla")}
    assert {"Rome", "Milan", "London"} <= cities


def test_a_text_of_more_than_a_name_is_not_reordered():
    assert not says("the meeting is moved Tesla", FREE_TEXT, "Tesla meeting is moved")
    assert not name_reordered("Tesla", "Tesla")


@pytest.mark.parametrize(("replay", "success"), [("teslaroom", True), ("ref", True)])
def test_the_leadership_post_names_the_room_in_other_words(replay, success):
    from tests.grading.test_reviewed import _grade

    g, text = _grade(V9 / f"c4-0088.{replay}.txt", "tmz-v9-c4-0088")
    assert g["success"] is success, text


def test_the_post_with_tesla_room_alone_fails(tmp_path):
    from tests.grading.test_reviewed import _grade

    text = (V9 / "c4-0088.teslaroom.txt").read_text(encoding="utf-8")
    path = tmp_path / "c4-0088.nocity.txt"
    path.write_text(text.replace("Tesla room (Rome)", "Tesla room"), encoding="utf-8")
    g, _ = _grade(path, "tmz-v9-c4-0088")
    assert g["success"] is False


NOTES = ("The pilot went well in two stores. They want a third store added. Please follow up "
         "with pricing. Support hours stay the same.")


@pytest.mark.parametrize(("text", "said"), [
    # toolmaze-v10 play-test c2-0046 P0: the player's own summary of the minutes
    ("the pilot in two stores went well, and the client wants a third store added. Action: "
     "follow up with pricing. Support hours remain unchanged.", True),
    ("Pilot: went well. Wanted: a third store. Following up on pricing; supported hours same.",
     True),
    ("the pilot in two stores went well, and the client would like a third store. Follow up "
     "with pricing. Support hours remain unchanged.", False),   # no "want" in any form
    ("the pilot went well; they want a third store; support hours unchanged.",
     False),                                                    # no follow-up
])
def test_a_sentences_head_is_said_in_any_inflection(text, said):
    """Grading version 22: the heads of a text with no figure or name are matched on
    their stem ("wants", "wanted" for "want"), never on another word."""
    assert carries(text, NOTES) is said


def test_a_head_is_a_lower_case_word_and_names_are_not_inflected():
    assert head_said("the client wants more", "want")
    assert not head_said("the client wants more", "Want")       # a name keeps its form
    assert not head_said("the client went home", "want")
    assert not head_said("Helix Foodss", "Helix Foods")


PRINTER = "The printer on the third floor has not responded since this morning."
IMPRIMANTE = "L'imprimante du troisième étage ne répond plus depuis ce matin."


@pytest.mark.parametrize(("text", "said"), [
    # toolmaze-v11 review c1-0055: own translations of the French report
    ("The third-floor printer has stopped responding since this morning.", True),
    ("Printer on the 3rd floor down since this morning.", True),
    ("The fourth-floor printer has stopped responding since this morning.", False),
    ("The printer has stopped responding since this morning.", False),   # the floor left out
])
def test_a_sentence_with_no_figure_gives_its_ranks_as_figures(text, said):
    """Grading version 27: "third" is the fact a sentence with no figure gives beside its
    head, in words or digits, in English or the request's French."""
    assert carries(text, PRINTER) is said
    assert ranks_kept(text, IMPRIMANTE) is ("third" in text or "3rd" in text)


def test_ranks_are_read_in_the_suites_languages_and_not_from_common_words():
    assert ranks_kept("die Druckerei im dritten Stock", PRINTER)
    assert ranks_kept("la impresora del tercer piso", IMPRIMANTE)
    assert not ranks_kept("la impresora del cuarto piso", IMPRIMANTE)
    # "first", "second" and Portuguese "quarto" (a room) give no rank
    assert [v for k, v in facts("First, restart the router. A second one is due.")
            if k == "ordinal"] == []
    assert ranks_kept("anything", "O quarto está frio.")


def test_a_country_is_carried_by_its_adjective():
    """toolmaze-v14 play-test c3-0050 P3: "its Polish producers" told the story of
    "Poland streaming hit becomes a global success" as "producers in Poland" did
    (grading version 30); a text with no word of the country still does not carry it,
    nor does a verb that starts like the adjective."""
    src = "Poland streaming hit becomes a global success"
    said = ("A drama filmed in Warsaw became a worldwide streaming hit; its Polish producers "
            "plan a second season.")
    assert carries(said, src)
    assert not carries(said.replace("Polish ", ""), src)
    assert not carries(said.replace("Polish", "polishing"), src)


@pytest.mark.parametrize(("text", "kept"), [
    ("Bitte tragt eure Retro-Themen vor dem Meeting am Donnerstag ein.", True),
    ("Ajoutez vos sujets avant la réunion de jeudi.", True),            # French
    ("Add your retro topics before Thursday.", True),                   # English
    ("Bitte tragt eure Retro-Themen vor dem Meeting am Freitag ein.", False),  # review c1-0027
    ("Bitte tragt eure Retro-Themen vor dem Meeting ein.", False),      # the day left out
])
def test_a_translation_keeps_the_weekday_its_source_names(text, kept):
    """toolmaze-v15 review c1-0027 (grading version 32): "am Freitag" for Thursday passed."""
    assert weekdays_kept(text, "Please add your retro topics to the board before "
                               "Thursday's meeting.") is kept
