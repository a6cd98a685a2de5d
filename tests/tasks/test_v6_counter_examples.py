"""The toolmaze-v6 blind review's and play-test's request faults, each reported by a static
check on the scenario as it was at i28-v6-switch (tests/data/conventions/v6_counter_examples.toml)
and gone from the library now: a question the grader never reads (c4-0050's "total before
shipping", c4-0005's "how much did each site use" and "what it's at now") and an account
called by a currency it does not hold (c3-0059's "my CHF account", a USD one), and one
site's meter asked as "this month's energy use" in a request about two sites (c4-0098), and
a setpoint left to "a sensible eco value" where the recommendation is graded (c4-0088),
an order total re-billed on an invoice that adds VAT unsaid (c4-0038), and a sentence
ended on a company name whose own period the stop swallows (c1-0093). And one oddity no
check reads: the "short summary" of a complaint that every summariser handed back whole,
posted to #sales-apac while the goal tells the support team (c4-0022)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.tasks._counter_examples import fixture_scenario, library_scenario, phrasing_indexes
from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.account_currency import account_currency_problems
from toolmaze_gym.tasks.derived import derive
from toolmaze_gym.tasks.judgement_words import judgement_problems
from toolmaze_gym.tasks.name_stops import name_stop_problems
from toolmaze_gym.tasks.questions import question_problems, questions
from toolmaze_gym.tasks.rebill_vat import rebill_problems
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.site_readings import site_reading_problems
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.world import get_world

V6 = Path(__file__).parents[1] / "data" / "conventions" / "v6_counter_examples.toml"

# scenario -> (check, what each report must name, the phrasings it reports)
COUNTER_EXAMPLES = {
    "sh-err-replace-then-return-in-sellers-language": (
        question_problems, "before shipping", {0, 1, 2}),
    "iot-err-cabin-energy-setback": (question_problems, "asks ", {1}),
    "up-refund-then-repay-in-home-currency": (
        account_currency_problems, "a {currency} account", {1}),
    "iot-err-cold-snap-cabin-and-home": (
        site_reading_problems, "without saying it is {home}'s", {0, 1, 2}),
    "iot-nursery-night-babysitter": (judgement_problems, "leaves the setpoint to judgement",
                                     {0, 1}),
    "fin-buy-for-client-and-rebill": (
        lambda sc: rebill_problems(sc, load_corpus()), "adds VAT, and never says so", {0, 1}),
    "fin-investor-club-brief": (name_stop_problems, "ends a sentence on {company}", {0}),
}


def _v6(sid: str):
    return fixture_scenario(V6, sid)


@pytest.mark.parametrize("sid", sorted(COUNTER_EXAMPLES))
def test_each_v6_counter_example_is_reported_and_fixed_now(sid):
    check, said, phrasings = COUNTER_EXAMPLES[sid]
    found = check(_v6(sid))
    assert found and all(said in p for p in found), found
    assert phrasing_indexes(found) >= phrasings
    assert check(library_scenario(sid)) == []


def test_c4_0005_reports_both_ungraded_questions():
    found = question_problems(_v6("iot-err-cabin-energy-setback"))
    assert any("use this {period}?" in p for p in found), found
    assert any("tell me what it's at now" in p for p in found), found


def test_the_told_figures_are_graded_answers_now():
    """What the user asked to be told is in the scenario's answer, so a final answer
    without it fails."""
    assert "convert.converted_amount" in library_scenario(
        "sh-err-replace-then-return-in-sellers-language").answer
    cabin = library_scenario("iot-err-cabin-energy-setback").answer
    assert {"home_use.energy_kwh", "cabin_use.energy_kwh"} <= set(cabin)


@pytest.mark.parametrize("phrasing,asked", [
    ("Set it to eco (tell me what it's at now), then lock up.", ["tell me what it's at now"]),
    ("Energy check: how much did we use this {period}? Then dim the lights.",
     ["Energy check: how much did we use this {period}?"]),
    ("Book the hotel, tell me the price; then mail {boss}.", ["tell me the price"]),
    ("Can you book it and share it with {friend}?", []),
    ("Please check the visa rules (the {passport} ones) and book the hotel.", []),
    ("Let me know what's left in {account}.", ["Let me know what's left in {account}"]),
])
def test_questions_are_the_telling_clauses_and_question_sentences(phrasing, asked):
    assert questions(phrasing) == asked


def test_a_cue_said_outside_the_question_does_not_grade_it():
    sc = library_scenario("iot-err-cabin-energy-setback")
    moved = replace(sc, phrasings=(
        "Send the household the cabin bill in {home_currency}. What is the {room} at "
        "in {cabin}?",))
    found = question_problems(moved)
    assert len(found) == 1 and "What is the {room} at" in found[0], found


def test_a_stated_account_currency_is_read_off_the_account():
    world = get_world()
    account = world.markets.accounts[0]
    assert derive("currency_code", "bank_account_id", account.id, world) == account.currency
    sc = library_scenario("up-refund-then-repay-in-home-currency")
    assert sc.param_by_name["currency"].derived_from == "account"


def test_each_sites_reading_asked_is_no_guess():
    """c4-0005 asks the house's and the cabin's use: no site to guess, nothing reported."""
    assert site_reading_problems(_v6("iot-err-cabin-energy-setback")) == []


SUMMARISED = ("summary", "tldr", "key_points", "result.tldr")


def _summaries(task) -> list[tuple[str, str]]:
    """(text given, summary) of every summariser call of the task's paths."""
    out = []
    for path in task.solutions:
        for c in path.calls:
            given = next((str(v) for k, v in c.args.items()
                          if k in ("text", "input", "content", "document")), None)
            said = next((str(v) for k, v in (c.response or {}).items() if k in SUMMARISED),
                        None)
            if given is not None and said is not None and ("summar" in c.tool or "tldr" in c.tool):
                out.append((given, said))
    return out


def _channel(task) -> str:
    return next(str(c.args["channel"]) for p in task.solutions for c in p.calls
                if "channel" in c.args)


def test_the_complaint_summary_is_short_and_goes_to_the_support_team(sim):
    old = get_task("tmz-v6-c4-0022", "toolmaze-v6")
    assert _summaries(old) and all(given == said for given, said in _summaries(old))
    assert _channel(old) == "sales-apac"
    sc = next(s for s in load_library() if s.id == old.meta["scenario"])
    for n in range(2):
        task = ScenarioGenerator(sim).generate(sc, "C4", "v7", f"complaint-{n}")
        pairs = _summaries(task)
        assert pairs and all(len(said) < len(given) for given, said in pairs), pairs
        assert all("TKT-" in said for _, said in pairs)
        assert _channel(task) in {"support", "customer-success"}
