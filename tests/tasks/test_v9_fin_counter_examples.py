"""The toolmaze-v9 blind review's finance request faults (issue 28), each reported by a
static check on the scenario as it was at main (tests/data/conventions/
v9_fin_counter_examples.toml) and gone from the library now: c3-0037's "58 Intel shares
(today's cost, yearly dividend, ...)", which reads per share as well as for the holding,
a dividend asked of a company that may pay none (c3-0037's Intel, c4-0010's ORIO), and
c4-0091's tariff "0.28 per kWh" of no currency."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.tasks._counter_examples import fixture_scenario, library_scenario, phrasing_indexes
from toolmaze_gym.corpus import Simulator, load_corpus
from toolmaze_gym.tasks.conventions import convention_problems
from toolmaze_gym.tasks.dividend_payers import dividend_problems
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.tariff_words import bare_tariffs, tariff_problems
from toolmaze_gym.world import get_world
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.edition import LATEST

CORPUS = load_corpus()
V9 = Path(__file__).parents[1] / "data" / "conventions" / "v9_fin_counter_examples.toml"
SHEET = "fin-shares-dividend-or-savings-sheet"


def test_c3_0037_the_holdings_figures_are_reported_and_stated_now():
    found = convention_problems(fixture_scenario(V9, SHEET), CORPUS)
    for family in ("position_value", "dividend_holding"):
        said = [p for p in found if f'readings = ["{family}"]' in p]
        assert phrasing_indexes(said) == {0, 1, 2}, said  # "the shares", "(today's cost, ...)"
    assert convention_problems(library_scenario(SHEET), CORPUS) == []
    assert all("today's cost" not in p for p in library_scenario(SHEET).phrasings)


def test_a_bare_parenthesis_of_figures_fails_the_check():
    sc = library_scenario(SHEET)
    bare = dataclasses.replace(sc, phrasings=(
        "Sheet \"{title}\": {shares} {company} shares (today's cost, yearly dividend, "
        "{quarter} EPS) versus {savings} at {rate}%, compounded monthly, for {years} years "
        "(interest).",))
    assert len(convention_problems(bare, CORPUS)) == 2


def test_every_dividend_asked_is_of_a_payer_in_the_library():
    assert [p for sc in load_library() for p in dividend_problems(sc)] == []


@pytest.mark.parametrize("sid", [SHEET, "fin-two-stocks-earnings-digest"])
def test_a_dividend_asked_without_a_payer_premise_is_reported(sid):
    sc = library_scenario(sid)
    assert dividend_problems(sc) == []
    found = dividend_problems(dataclasses.replace(sc, premises=()))
    assert found and all("dividend_per_share > 0" in p for p in found)


def test_c3_0037_generated_on_the_latest_world_names_a_payer():
    """The generator's draw: every company whose dividend a task asks pays one, and
    none is a real non-payer (Intel)."""
    world = get_world(0, LATEST)
    non_payers = set(load_data("markets.json")["non_payers"])
    sc = library_scenario(SHEET)
    for n in range(3):
        task = ScenarioGenerator(Simulator(CORPUS, world)).generate(sc, "C3", "v10", f"payer-{n}")
        calls = [c for p in task.solutions for c in p.calls if c.tool == "company_overview"]
        assert calls
        for c in calls:
            symbol = str(c.args["symbol"])
            assert symbol not in non_payers
            company = world.markets.company(symbol)
            assert company is not None and world.markets.dividend_per_share(company) > 0


COLD_SNAP = "iot-err-cold-snap-cabin-and-home"


def test_c4_0091_a_tariff_of_no_currency_is_reported_and_named_now():
    found = tariff_problems(fixture_scenario(V9, COLD_SNAP))
    assert phrasing_indexes(found) == {0, 1, 2}
    assert all("'{tariff} per kWh'" in p or "'{tariff} a kWh'" in p for p in found)
    assert tariff_problems(library_scenario(COLD_SNAP)) == []


def test_every_tariff_in_the_library_names_its_currency():
    assert [p for sc in load_library() for p in tariff_problems(sc)] == []


@pytest.mark.parametrize("text, bare", [
    ("what it cost at 0.28 per kWh", ["0.28 per kWh"]),
    ("at our {price}-per-kWh rate", ["{price}-per-kWh"]),
    ("at {price} a kWh", ["{price} a kWh"]),
    ("at {price} {currency} per kWh", []),
    ("at 0.28 GBP per kWh, 28p per kWh, \u00a30.28/kWh or 0.3 EUR a kWh", []),
    ("how many kWh the house used", []),
])
def test_a_bare_number_per_kwh_fails(text, bare):
    assert bare_tariffs(text, frozenset({"currency"})) == bare


def test_c4_0010_an_old_quarter_is_reported_and_the_latest_is_drawn_now():
    """v9 c4-0010 asked the "2024-Q2 EPS" in August 2026: the generated-task check
    reports it on edition 7, whose draw is the latest quarter every company reported."""
    from toolmaze_gym import values
    from toolmaze_gym.tasks.data_words import data_word_problems
    from toolmaze_gym.tasks.suite import get_task

    world = get_world(0, LATEST)
    latest = world.markets.reported_quarters()[0]
    old = get_task("tmz-v9-c4-0010", "toolmaze-v9")
    found = data_word_problems(old, library_scenario(old.meta["scenario"]).goal, world)
    assert any(p.startswith("asks the earnings of ['2024-Q2']") for p in found), found
    quarter = values.get("fiscal_quarter")
    assert {quarter.sample(world, f"q{k}") for k in range(6)} == {latest}
    v9 = get_world(0, 6)  # edition 6 draws any of the last eight, as v9 was built
    assert len({quarter.sample(v9, f"q{k}") for k in range(12)}) > 1
    assert data_word_problems(old, library_scenario(old.meta["scenario"]).goal, v9) == []
