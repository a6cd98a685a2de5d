"""A weather condition told in the words people use for it (grading version 16, the
toolmaze-v6 play-test's probes c1-0061 "sunny and dry" for "clear" and c3-0071
"rainy (15.1 mm)" for "light rain")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.condition_synonyms import condition_said

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
