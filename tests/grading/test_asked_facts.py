"""A fact the request asks to be told is graded in the final answer even where the task
declared no ask for it (grading version 18; toolmaze-v6 play-test c4-0005, c4-0050,
toolmaze-v7's c1-0010)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed
from toolmaze_gym.agents.variants import VARIANTS, expected, survey
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.grading.asked_facts import in_sentence, told_clauses, untold_asks
from toolmaze_gym.tasks.suite import get_task

PLAYED = Path(__file__).parent.parent / "data" / "played"


def test_questions_wishes_and_telling_clauses_are_where_facts_are_asked():
    q = ("Tell me when SO-1 will come, return SO-2 and create a to-do noting the return. "
         "How much did the house use? I'd like the earnings (actual vs. estimated EPS), "
         "an alert and a post.")
    assert told_clauses(q) == ["Tell me when SO-1 will come", "How much did the house use?",
                               "I'd like the earnings (actual vs. estimated EPS)"]


@pytest.mark.parametrize(("query", "sentence"), [
    # The splitter ends a sentence at the URL's dot: the lead-in runs back to "Update".
    ("Update my tracker at https://hooks.example.com/h: what are my ADA worth?",
     "Update my tracker at https://hooks.example.com/h: what are my ADA worth?"),
    ("Log it. See https://a.example.com/p: what is it worth?",
     "See https://a.example.com/p: what is it worth?"),
    ("See https://a.example.com/p. What is it worth?", "What is it worth?"),  # a real stop
])
def test_a_question_is_read_from_its_sentences_start(query, sentence):
    clause = told_clauses(query)[-1]
    assert in_sentence(query, clause) == sentence


def test_a_question_after_an_actions_colon_is_that_actions_content():
    """toolmaze-v8 c3-0070: the tracker's webhook carries the holdings' worth; an agent
    that posts it with another tool and says less in its final answer still succeeds."""
    task = get_task("tmz-v8-c3-0070")
    outcomes = survey([task], MODE_NAMES, [VARIANTS["other_tool"]])
    assert [expected(o) for o in outcomes] == [True] * len(MODE_NAMES)


@pytest.mark.parametrize(("task_id", "values"), [
    ("tmz-v6-c4-0005", [406.39, 683.02, 117.85]),  # "how much did the house and cabin
    # use? The home pays 0.29 a kWh": the uses, and the home's cost since version 19
    ("tmz-v6-c4-0050", [34.49]),            # "tell me the total before shipping in CAD"
    ("tmz-v7-c1-0010", [19.04, 21.19]),     # "I'd like the earnings (actual vs. estimated)"
    ("tmz-v7-c4-0099", []),                 # the return and new order: for the to-do
    ("tmz-v7-c4-0059", []),                 # "the reason spelled out: when it arrives, ...?"
    ("tmz-v8-c3-0070", []),                 # "Update my tracker at URL: what are my ...?"
    # version 19: "how much did the house use? The home pays 0.29 a kWh" asks its cost
    ("tmz-v8-c4-0005", [117.85]),
    # ... but a projection of an asked sum is no price of a quantity: its interest is
    # not asked (the 10-year value goes by SMS)
    ("tmz-v8-c3-0040", [278983.92, 42008267.39, 2.25, "USD"]),
])
def test_the_facts_asked_beyond_the_declared_answer(task_id, values):
    assert [a[1] for a in untold_asks(get_task(task_id), load_corpus())] == values


def _edited(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "success"), [
    ("25.41 USD = 34.49 CAD", "25.41 USD = 34.49 CAD", True),      # as played
    ("25.41 USD = 34.49 CAD", "25.41 USD = C$34.49", True),        # other words
    ("25.41 USD = 34.49 CAD", "25.41 USD", False),                 # the CAD total left out
    ("25.41 USD = 34.49 CAD", "25.41 USD = 35.49 CAD", False),     # told wrong
])
def test_the_cad_total_asked_must_be_in_the_final_answer(tmp_path, old, new, success):
    source = PLAYED / "v6" / "tmz-v6-c4-0050-P0.actions"
    g, text = _replay(_edited(tmp_path, source, old, new), "tmz-v6-c4-0050-P0")
    assert g["success"] is success, text


@pytest.mark.parametrize(("old", "new", "success"), [
    ("actual EPS 19.04 JPY vs. estimated 21.19 JPY", "EPS ¥19.04 against ¥21.19 expected",
     True),
    ("actual EPS 19.04 JPY vs. estimated 21.19 JPY", "EPS 19.04 JPY", False),
])
def test_the_eps_asked_is_told_to_the_user_not_only_to_the_team(tmp_path, old, new, success):
    source = PLAYED / "v7" / "tmz-v7-c1-0010-P1.actions"
    g, text = _replay(_edited(tmp_path, source, old, new), "tmz-v7-c1-0010-P1")
    assert g["success"] is success, text


@pytest.mark.parametrize(("answer", "success"), [
    ("One EON share costs ¥46,108 right now; alert ALR set at 267.69 EUR.", True),
    ("One EON share costs 46108.01 JPY right now.", True),
    ("One EON share costs about ¥46,000 right now.", False),
])
def test_a_sum_converted_into_yen_may_be_told_in_whole_yen(answer, success):
    """The answer's sum of a conversion into a currency with no minor unit may be told in
    whole units, as an Action text's may (v8 play-test c3-0040: "¥42,008,267" for
    42,008,267.39 JPY failed the final answer and passed the SMS)."""
    from tests.grading._helpers import call, graded, profile, simulator
    from toolmaze_gym.episode import Episode

    task = get_task("tmz-v7-c2-0045")  # "What does one share cost me (account in JPY)?"
    ep = Episode(task, "P0", simulator(), profile(task, "P0"), 25)
    for c in task.default_path.calls:
        ep.step(call(c))
    ep.step(json.dumps({"name": "finish", "arguments": {"answer": answer}}))
    assert graded(ep).success is success


@pytest.mark.parametrize(("told", "success"), [
    ("which at 0.29 per kWh is 117.85;", True),
    ("which at 0.29 per kWh is more;", False),  # the home's cost at its tariff, untold
])
def test_a_cost_asked_by_its_tariff_is_told(tmp_path, told, success):
    """v8 play-test c4-0005 P2 (version 19): "how much did the Chicago house and the
    Oslo cabin use this month? The home pays 0.29 a kWh" asks the home's cost."""
    episode = "tmz-v8-c4-0005-P2"
    g = replay_changed(PLAYED / "v8" / f"{episode}.actions", episode,
                       "which at 0.29 per kWh is 117.85;", told, tmp_path)
    assert g["success"] is success
    assert [u["value"] for u in g["unanswered"]] == ([] if success else [117.85])


@pytest.mark.parametrize(("query", "words", "found"), [
    # a cue ending in a sign is read up to it: the channel follows with no space
    ("Rate it, so give #it-helpdesk a one-line summary.", ("give #",), (12,)),
    ("Share both docs and tell #product, giving the time.", ("tell #",), (20,)),
    ("Posted in #eng already.", ("post",), ()),          # a word cue stays a whole word
    ("Repost it.", ("post",), ()),
])
def test_a_cue_word_is_found_where_the_request_says_it(query, words, found):
    from toolmaze_gym.grading.asked_facts import cue_starts

    assert cue_starts(query, words) == found
