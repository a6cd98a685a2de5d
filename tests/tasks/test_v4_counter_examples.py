"""The toolmaze-v4 blind review's open conventions, each reported by a static check on the
scenario as it was at main (tests/data/conventions/v4_counter_examples.toml), and gone
from the library now: a purchase asked with no verb (c3-0079, c2-0010), an optional push
title graded as required and an expense left to be logged as paid or converted (c2-0020),
and a value asked beside one Action but graded in another (c4-0051)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.tasks._counter_examples import fixture_scenario, library_scenario, phrasing_indexes
from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.action_content import unasked_optional_problems
from toolmaze_gym.tasks.action_cues import action_problems
from toolmaze_gym.tasks.conventions import convention_problems
from toolmaze_gym.tasks.placement import placement_problems, sentences
from toolmaze_gym.tasks.scenarios import check_files, load_library

CORPUS = load_corpus()
V4 = Path(__file__).parents[1] / "data" / "conventions" / "v4_counter_examples.toml"

# scenario at main -> (check, what each report must name, the phrasings it reports)
COUNTER_EXAMPLES = {
    "et-rail-weekend-forecast-expense": (action_problems, "never asks for step 'train'",
                                         {1, 2}),  # "the cheapest train ticket please"
    "fin-log-foreign-expense": (unasked_optional_problems, "steps.push.args.title", None),
    "off-two-document-reviews": (placement_problems, "'first_local.datetime' beside step "
                                 "'first_review'", {1, 2}),
}


def _v4(sid: str):
    return fixture_scenario(V4, sid)


@pytest.mark.parametrize("sid", sorted(COUNTER_EXAMPLES))
def test_each_v4_counter_example_is_reported_and_fixed_now(sid):
    check, said, phrasings = COUNTER_EXAMPLES[sid]
    found = check(_v4(sid), CORPUS)
    assert found and all(said in p for p in found), found
    if phrasings is not None:
        assert phrasing_indexes(found) == phrasings
    assert check(library_scenario(sid), CORPUS) == []


def test_the_v4_expense_is_left_open_between_as_paid_and_converted():
    """c2-0020's "Convert it to the currency my budget uses and send a push with the
    converted amount" never says the expense is logged in that currency."""
    found = convention_problems(_v4("fin-log-foreign-expense"), CORPUS)
    assert phrasing_indexes([p for p in found if "logged as paid" in p]) == {1}
    assert convention_problems(library_scenario("fin-log-foreign-expense"), CORPUS) == []


def test_a_ticket_named_is_no_purchase_asked(tmp_path):
    """The noun alone ("the cheapest ticket") no longer asks for a booking; a verb does."""
    sc = _v4("et-rail-weekend-forecast-expense")
    text = V4.read_text()
    booked = (text.replace("Record the cheapest ticket on", "Buy the cheapest ticket; record it on")
              .replace("The cheapest train ticket please:", "Please buy the cheapest ticket:"))
    path = tmp_path / "everyday_travel.toml"
    path.write_text(booked)
    scenarios, _ = check_files([path])
    fixed = next(s for s in scenarios if s.id == sc.id)
    assert action_problems(fixed, CORPUS) == []


def test_an_optional_text_with_asks_is_kept(tmp_path):
    """A push title the request asks to carry a value is no unasked text."""
    text = V4.read_text().replace(
        'title = { text = "Logged {log.expense_id} under {category}", asks = [] }',
        'title = { text = "Logged {log.expense_id} under {category}", asks = ["category"] }')
    path = tmp_path / "financial.toml"
    path.write_text(text)
    scenarios, _ = check_files([path])
    sc = next(s for s in scenarios if s.id == "fin-log-foreign-expense")
    assert unasked_optional_problems(sc, CORPUS) == []


def test_a_value_said_in_the_carriers_sentence_is_placed():
    """The c4-0051 phrasing with the Sydney time moved into the #product sentence passes;
    a value asked in a sentence of no Action (the list a single text then carries) too."""
    sc = _v4("off-two-document-reviews")
    assert sentences("One (a. b) here. Then {x} there? \"Yes\" now.") == [
        "One (a. b) here.", "Then {x} there?", "\"Yes\" now."]
    moved = replace(sc, phrasings=(
        sc.phrasings[0],
        "Could you line up {first} to review {first_doc} with me (first free time from {date},"
        " long enough for the doc) and let {second} review {second_doc} offline, with a "
        "reminder task due {chase_by}? Share both docs as {role} and tell #{channel}, with "
        "the time in {first_city} where they sit."))
    assert placement_problems(moved, CORPUS) == []


def test_the_c3_shopping_goals_build_at_c3_with_no_office_tool():
    """toolmaze-v4's C3 involved Office in 59 tasks of 100 (the paper: 38) and Shopping in
    17 (31): shopping_c3.toml's goals build at C3, fault profiles and all, without one."""
    from toolmaze_gym.faults.store import profiles_buildable
    from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator

    gen = ScenarioGenerator(extra_check=profiles_buildable)
    goals = [sc for sc in load_library() if sc.file == "shopping_c3.toml"]
    assert len(goals) >= 5
    for sc in goals:
        task = gen.generate(sc, "C3", "mix", f"mix-{sc.id}")
        assert "Shopping" in task.domains and "Office" not in task.domains, sc.id
        assert 6 <= task.default_path.length <= 10 and len(task.solutions) >= 2, sc.id
