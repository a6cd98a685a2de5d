"""The toolmaze-v5 blind review's and play-test's task failures, each reported by a static
check on the scenario as it was at main (tests/data/conventions/v5_counter_examples.toml)
and gone from the library now: a total asked where its parts are graded (c4-0010), an
order shipped to a city the request names only for its tax (c2-0079 P0), and a lock
required after a check that may show the door locked (c4-0092 P0), a budget's remainder
told beside gifts with no moment, the gifts drawn over it (c3-0095), and a friend's share
billed as an invoice with VAT (c3-0075, c4-0060)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.tasks._counter_examples import fixture_scenario, library_scenario, phrasing_indexes
from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.aggregates import aggregate_problems
from toolmaze_gym.tasks.budget_fit import budget_fit_problems
from toolmaze_gym.tasks.check_then_act import check_then_act_problems
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.share_requests import share_request_problems
from toolmaze_gym.tasks.ship_to_words import says_destination, ship_to_problems

V5 = Path(__file__).parents[1] / "data" / "conventions" / "v5_counter_examples.toml"

# scenario at main -> (check, what each report must name, the phrasings it reports)
COUNTER_EXAMPLES = {
    "gen-charity-run-live-screen": (aggregate_problems, "asks for one total", {0, 1}),
    "sh-restock-by-sku-budget-log": (ship_to_problems, "ships the order to {city}", {0, 1, 2}),
    "iot-bedtime-check": (check_then_act_problems, "'lock_state.locked'", None),
    "sc3-gift-within-budget": (budget_fit_problems, "budget", {0, 1, 2}),
}


def _v5(sid: str):
    return fixture_scenario(V5, sid)


@pytest.mark.parametrize("sid", sorted(COUNTER_EXAMPLES))
def test_each_v5_counter_example_is_reported_and_fixed_now(sid):
    check, said, phrasings = COUNTER_EXAMPLES[sid]
    found = check(_v5(sid))
    assert found and all(said in p for p in found), found
    if phrasings is not None:
        assert phrasing_indexes(found) == phrasings
    assert check(library_scenario(sid)) == []


def test_a_share_that_replaces_its_amount_asks_for_no_sum():
    """"Members pay 80 % of the pack total" names the base a total; the member price is
    the one figure asked, so the club and shelf scenarios pass."""
    for sid in ("gen-shelf-price-to-display", "gen-club-newsletter-digest-and-tickets"):
        assert aggregate_problems(library_scenario(sid)) == [], sid


def test_parts_said_each_pass_the_total_check():
    sc = _v5("gen-charity-run-live-screen")
    said = replace(sc, phrasings=tuple(p + " Show both figures." for p in sc.phrasings))
    assert aggregate_problems(said) == []


@pytest.mark.parametrize("phrasing,ok", [
    ("order {qty} × {product} to {city}", True),
    ("I want to send {qty} × {gift} to my friend {friend} in {city}, ordered on my account", True),
    ("ordered on {me} (taxed for {city}, shipped there)", True),
    ("a gift for {friend}, who lives in {city}", True),
    ("place the order, then tell me the tax due in {city}", False),
    ("order {quantity} for {me}, compute the {city} tax", False),
    ("Garden party on {date} in {city}! Buy {quantity} on {me}", False),
])
def test_a_city_is_a_destination_only_where_the_goods_go_there(phrasing, ok):
    assert says_destination(phrasing, "city") is ok


def test_every_library_check_then_act_has_its_premise():
    """The back-door and bedtime locks, and the kids' light, draw the state the Action
    changes (so the check never shows the door already locked)."""
    assert [p for sc in load_library() for p in check_then_act_problems(sc)] == []
    assert [p for sc in load_library() for p in ship_to_problems(sc)] == []
    assert [p for sc in load_library() for p in aggregate_problems(sc)] == []


def test_gifts_over_the_budget_are_refused_until_a_premise_fits_them():
    found = budget_fit_problems(_v5("sc3-gift-within-budget"))
    assert [p for p in found if ".premises:" in p and "may not fit" in p]
    assert library_scenario("sc3-gift-within-budget").premises


def test_a_budget_told_beside_a_purchase_says_its_moment_everywhere():
    assert [p for sc in load_library() for p in budget_fit_problems(sc)] == []


@pytest.mark.parametrize("sid", ["tr-car-share-request", "tr-friends-weekend-share-request"])
def test_a_friends_share_is_no_taxed_invoice(sid):
    corpus = load_corpus()
    found = share_request_problems(_v5(sid), corpus)
    assert found and all("adds VAT" in p for p in found), found
    assert share_request_problems(library_scenario(sid), corpus) == []
    assert [p for sc in load_library() for p in share_request_problems(sc, corpus)] == []
