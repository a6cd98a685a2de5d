"""What a request's words reach (tasks/stated_scope.py): a cue narrowed to another
value states no ask, and a unit converts the value it follows. Each check fails on
the draft v4 review's counter-example (a copy of the scenario as it was) and holds
over the library."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym.tasks.scenarios import load_library, parse_file
from toolmaze_gym.tasks.stated_scope import (
    conversion_problems,
    medium_problems,
    narrowed_problems,
    parse_scope,
    scope,
    scope_problems,
    summarised_problems,
)

DATA = Path(__file__).parents[1] / "data" / "scope"


def _scenario(name: str):
    found, problems = parse_file(DATA / name)
    assert problems == [] and len(found) == 1
    return found[0]


def test_the_library_asks_only_what_its_words_reach(corpus):
    assert [p for sc in load_library() for p in scope_problems(sc, corpus)] == []


def test_narrowed_cue_fails_on_the_draft_c4_0094():
    """"the arrival-day forecast high (in °C and °F)" asks no weather condition."""
    found = narrowed_problems(_scenario("c4-0094-speaker-welcome.toml"))
    assert len(found) == 1
    assert "phrasings[1]" in found[0] and "'forecast.condition'" in found[0]


def test_conversion_fails_on_the_draft_c4_0064():
    """"that day's forecast low (also in °F for the sitter)" converts the low; the
    grader wanted the setpoint in °F."""
    found = conversion_problems(_scenario("c4-0064-away-week.toml"))
    assert len(found) == 1
    assert "phrasings[2]" in found[0] and "'low'" in found[0] and "heat.setpoint_c" in found[0]


def test_medium_fails_on_the_draft_c4_0072(corpus):
    """"a summary of all that ... for security": a post or a mail? Mail tools were
    shown and the grader wanted a post."""
    found = medium_problems(_scenario("c4-0072-new-hire.toml"), corpus)
    assert len(found) == 1
    assert "phrasings[2]" in found[0] and "'post'" in found[0]


def test_summarised_ask_fails_on_the_draft_c4_0097(corpus):
    """"post a short announcement with room, time and the file link": the post went
    through a summariser that kept the lead sentence, without the link."""
    found = summarised_problems(_scenario("c4-0097-retro.toml"), corpus)
    assert len(found) == 1
    assert "steps.announce.args.text" in found[0] and "'link.url'" in found[0]


@pytest.mark.parametrize(("phrasing", "narrowed"), [
    ("Send the forecast high in {city}.", True),
    ("Send the forecast's high in {city}.", True),
    ("Send the high-temperature forecast.", False),  # "temperature" names no one value
    ("Send the low forecast for {city}.", True),
    ("Send the forecast for {date}, with its high in °F.", False),
    ("Send the forecast (the high in °C and °F).", False),
    ("Send what the weather will be like.", False),
])
def test_a_value_name_next_to_a_broad_cue_narrows_it(phrasing, narrowed):
    from toolmaze_gym.tasks.stated_scope import cue_reaches, plain_words

    assert cue_reaches(plain_words(phrasing), "forecast" if "forecast" in phrasing else "weather",
                   "condition", scope()) is not narrowed


def test_scope_data_problems_are_reported():
    _, problems = parse_scope('[names]\nhigh = []\n[narrow]\ncues = []\n[other]\n'
                              '[summarise]\n"text.summarize" = "most"\n')
    assert any("unknown table 'other'" in p for p in problems)
    assert any("names.high" in p for p in problems)
    assert any("narrow.cues" in p for p in problems)
    assert any("summarise.text.summarize" in p for p in problems)
    assert parse_scope((Path(__file__).parents[2] / "toolmaze_gym" / "data" / "cues"
                        / "scope.toml").read_text())[1] == []
