"""A weather condition told in the words people use for it (grading version 16, the
toolmaze-v6 play-test's probes c1-0061 "sunny and dry" for "clear" and c3-0071
"rainy (15.1 mm)" for "light rain")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.asked_condition import condition_asked
from toolmaze_gym.grading.condition_synonyms import condition_said, condition_said_in
from toolmaze_gym.tasks.suite import get_task

V6 = Path(__file__).parent.parent / "data" / "played" / "v6"


@pytest.mark.parametrize(("text", "condition", "said"), [
    ("Rome should be sunny and dry, 21-28 °C.", "clear", True),
    ("clear skies all day", "clear", True),
    ("not sunny at all", "clear", False),           # negated
    ("a fair price", "clear", False),
    ("rainy (15.1 mm)", "light rain", True),        # a rain word with the amount
    ("rainy", "light rain", False),                 # how light is not told
    ("no rain, 0 mm", "light rain", False),
    ("some drizzle", "light rain", True),
    ("sunny", "light rain", False),
    ("Expect an overcast day in Berlin", "cloudy", True),   # v7 c3-0077 (version 18)
    ("grey skies", "cloudy", True),
    ("overcast", "partly cloudy", False),           # broken cloud is not overcast
    ("not overcast", "cloudy", False),
])
def test_a_condition_is_said_by_the_words_people_use_for_it(text, condition, said):
    assert condition_said(text, condition) is said


def test_the_grader_reads_a_condition_in_other_words():
    assert says("Rome should be sunny and dry", "weather_condition", "clear")
    assert not says("Rome should be cloudy", "weather_condition", "clear")


@pytest.mark.parametrize(("episode", "old", "new", "success"), [
    ("tmz-v6-c1-0061-P3", "clear, 21.4-28.2 C, no rain", "sunny and dry, 21.4-28.2 C", True),
    ("tmz-v6-c1-0061-P3", "clear, 21.4-28.2 C, no rain", "cloudy, 21.4-28.2 C", False),
    ("tmz-v6-c3-0071-P2", "light rain, 15.1 mm, high", "rainy (15.1 mm), high", True),
    ("tmz-v6-c3-0071-P2", "light rain, 15.1 mm, high", "rainy, high", False),
])
def test_the_expense_names_the_forecast_in_other_words(tmp_path, episode, old, new, success):
    graded = replay_changed(V6 / f"{episode}.actions", episode, old, new, tmp_path)
    assert graded["success"] is success


# -- in another language (grading version 19, toolmaze-v8 play-test c1-0014) ---------

V8 = Path(__file__).parent.parent / "data" / "played" / "v8"
RETURN = "tmz-v8-c1-0014-P0"  # an Italian return reason citing Istanbul's thunderstorm
STORM = "dove in questo momento c'è un temporale"


@pytest.mark.parametrize(("text", "condition", "language", "said"), [
    ("Istanbul, dove c'è un temporale (29,1 °C)", "thunderstorm", "it", True),
    ("forti temporali su Istanbul", "thunderstorm", "it", True),   # the plural
    ("Il pacco è stato lasciato all'aperto a Istanbul", "thunderstorm", "it", False),
    ("Istanbul (thunderstorm)", "thunderstorm", "it", True),       # kept as written
    ("In Istanbul gibt es gerade ein Gewitter", "thunderstorm", "de", True),
    ("pioggia, 3,2 mm", "light rain", "it", True),                 # rain with its amount
    ("pioggia", "light rain", "it", False),
    ("ciel dégagé à Lyon", "clear", "fr", True),
    ("temporale", "clear", "it", False),
    # Polish has its words since grading version 21 (v3 c2-0037's own words pass; v9
    # play-test c2-0030 P1's "deszczowo" for partly cloudy fails)
    ("Prognoza: częściowe zachmurzenie", "partly cloudy", "pl", True),
    ("Prognoza: deszczowo", "partly cloudy", "pl", False),
    # a language the world has no weather words for is not checked
    ("Předpověď: polojasno", "partly cloudy", "cs", True),
])
def test_a_condition_in_another_language_is_said_in_its_words(text, condition, language,
                                                              said):
    assert condition_said_in(text, condition, language) is said


@pytest.mark.parametrize(("task_id", "asked"), [
    ("tmz-v8-c1-0014", True),    # "... the weather there right now"
    # "the forecast there on that day (high in °C and °F)" asks the high, not the sky
    # (v7 play-test c2-0003 probe-nocondition, fair)
    ("tmz-v7-c2-0003", False),
])
def test_a_condition_is_asked_where_the_request_asks_the_weather_itself(task_id, asked):
    assert condition_asked(get_task(task_id)) is asked


@pytest.mark.parametrize(("said", "success"), [
    (STORM, True),
    ("dove in questo momento ci sono forti temporali", True),
    ("dove in questo momento c'è un thunderstorm", True),
    ("dove in questo momento fa caldo", False),   # the weather the reason must cite, untold
])
def test_an_italian_return_reason_cites_the_weather_in_italian(tmp_path, said, success):
    g = replay_changed(V8 / f"{RETURN}.actions", RETURN, STORM, said, tmp_path)
    assert g["success"] is success


# -- what the explanation names as missing (issue 27 item 6) ---------------------------

def _failure_line(slip: str) -> str:
    """The closing line that says why the return was not done right, of a v8 slip."""
    from tests.grading.test_played import _replay

    g, text = _replay(V8 / "slips" / f"{RETURN}.{slip}.actions", RETURN)
    assert not g["success"]
    return next(line for line in text.splitlines() if "was not done right" in line)


@pytest.mark.parametrize(("slip", "missing"), [
    ("notracking", '"1Z5H8J03224NY7PMBK" (tracking_number'),
    ("nocity", '"Istanbul" (city_name'),
])
def test_a_condition_said_in_italian_is_never_named_missing(slip, missing):
    """v8 play-test c1-0014: a reason with "temporale" was told it left out "thunderstorm"
    beside the fact it really lacked; the grade counts the Italian word, so must its reason."""
    line = _failure_line(slip)
    assert f"leaves out {missing}" in line
    assert "thunderstorm" not in line.partition("leaves out")[2]


def test_a_reason_without_the_weather_is_told_the_words_that_say_it_in_italian():
    """v8 c1-0014 ``noweather``: the missing fact is the condition in Italian, with the
    words the grade accepts for it, not the English word alone."""
    line = _failure_line("noweather")
    assert 'leaves out the weather condition "thunderstorm" in Italian (it) ' \
           "(weather_condition, from the response of get_current_weather" in line
    assert 'said by words starting "temporal", "tempest" or "burrasc" (accents aside; ' \
           'the translators\' "temporale" is one), or in English "thunderstorm", ' \
           '"thunderstorms", "thunder", "thundery", "storm", "storms" or "stormy")' in line


# -- every condition in the words forecasts use (grading version 21, v9 review c2-0088) --

@pytest.mark.parametrize(("text", "condition", "said"), [
    ("arrives Sunday, forecast gusty winds, low 11.7 C", "windy", True),
    ("strong winds expected", "windy", True),
    ("gales along the coast", "windy", True),
    ("forecast breezy", "windy", False),            # a light wind is not windy
    ("forecast sunny", "windy", False),
    ("no strong winds", "windy", False),            # negated
    ("heavy showers all day", "rain", True),
    ("thundery showers", "thunderstorm", True),
    ("a misty morning", "fog", True),
    ("snow flurries", "snow", True),
    ("sunny spells", "partly cloudy", True),
    ("gusty winds", "rain", False),                 # another condition's word
])
def test_every_condition_is_said_by_the_words_forecasts_use(text, condition, said):
    assert condition_said(text, condition) is said


V9 = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"


@pytest.mark.parametrize(("replay", "success"), [
    ("gusty", True), ("breezy", False), ("sunny", False), ("ref", True)])
def test_the_push_tells_the_wind_in_other_words(replay, success):
    from tests.grading.test_reviewed import _grade

    g, text = _grade(V9 / f"c2-0088.{replay}.txt", "tmz-v9-c2-0088")
    assert g["success"] is success, text
