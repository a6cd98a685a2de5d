"""One miss reported once, where it happened (issue 27, item 5).

toolmaze-v3 round 2, c4-0052 P2 as played: the agent searched rental cars for
2026-09-01 where the request says 2026-08-31, reserved the offer it found and
expensed that offer's price in GBP, converting it itself. One mistake, at the
search. The grade stays what it was (the reservation and the expense changed the
world with values the task did not call for); the explanation names the search,
its argument, what was sent, what was expected and where that comes from, and says
the two Actions follow from it instead of listing them as misses of their own.
The variants (``probes/``, ``slips/`` beside the played file) check the guard: a
wrong search whose answer was never used is not named.
"""

from __future__ import annotations

from pathlib import Path

from tests.grading.test_played import played_text
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

ROUND2 = Path(__file__).parent.parent / "data" / "played" / "v3-round2"
PLAYED = ROUND2 / "tmz-v3-c4-0052-P2.actions"
UNUSED = ROUND2 / "probes" / "tmz-v3-c4-0052-P2.unused-lookup.actions"
UNUSED_SLIP = ROUND2 / "slips" / "tmz-v3-c4-0052-P2.unused-lookup-wrong-amount.actions"
OWN_SLIP = ROUND2 / "slips" / "tmz-v3-c4-0052-P2.wrong-date-wrong-amount.actions"
SEARCH_MISS = ('step 6 (search_car_rentals {"city": "Mexico City", "pickup_date": '
               '"2026-09-01", "days": 3}) was called with a wrong value: argument '
               'pickup_date: expected "2026-08-31" (stated in the request), sent "2026-09-01"')


def _replay(path: Path) -> tuple[dict, list[str]]:
    """The grade and the explanation's verdict lines of the episode in ``path``."""
    s = PlaySession(get_task("tmz-v3-c4-0052"), "P2", prompt="failure_aware")
    for line in played_text(path).splitlines():
        if s.done:
            break
        s.handle(line)
    text = s.closing()
    verdict = text.split("grade:", 1)[1].split("faults:", 1)[0]
    return s.env.record()["grade"], verdict.splitlines()


def _reasons(lines: list[str]) -> list[str]:
    return [x for x in lines if x.startswith("  - ")]


def test_a_wrong_search_is_one_miss_at_the_search_naming_the_date():
    g, lines = _replay(PLAYED)
    reasons = _reasons(lines)
    assert len(reasons) == 1, "\n".join(reasons)
    assert SEARCH_MISS in reasons[0]
    assert "Action reserve_rental_car (step 'car_res') at step 7 and Action " \
           "record_trip_expense (step 'car_expense') at step 10" in reasons[0]
    assert "they follow from this one miss" in reasons[0]
    listing = [x for x in lines if x.startswith("  [")]
    assert sum("NOT DONE: follows from the lookup at step 6" in x for x in listing) == 2
    # The grade itself is what it was.
    assert not g["success"] and g["recovered"] and (g["c"], g["c_star"]) == (8, 8)
    assert g["harmful"] == [6, 9] and "wrong_arguments" in g["labels"]
    assert [(m["tool"], m["argument"]) for m in g["missing"]] == [
        ("reserve_rental_car", "offer_id"), ("record_trip_expense", "amount")]


def test_an_action_off_the_agents_own_wrong_lookup_is_still_its_own_miss():
    """The expense is off what the agent's own search gave (827.73 MXN at 0.046787 is
    38.73 GBP, it sent 40.12): a miss of its own, told against the agent's values."""
    g, lines = _replay(OWN_SLIP)
    reasons = _reasons(lines)
    assert not g["success"]
    assert SEARCH_MISS in reasons[0]
    assert "used faithfully by Action reserve_rental_car (step 'car_res') at step 7: it " \
           "follows" in reasons[0]
    assert any("Action record_trip_expense (step 'car_expense') was not done right: step 10: "
               "argument amount: expected 38.73" in r and "sent 40.12" in r for r in reasons)


def test_an_unused_wrong_lookup_then_the_right_one_is_no_miss():
    g, lines = _replay(UNUSED)
    assert g["success"], "\n".join(lines)
    assert "called with a wrong value" not in "\n".join(lines)


def test_an_unused_wrong_lookup_is_not_named_beside_another_miss():
    g, lines = _replay(UNUSED_SLIP)
    reasons = _reasons(lines)
    assert not g["success"]
    assert not any("search_car_rentals" in r for r in reasons), "\n".join(reasons)
    assert any("argument amount: expected 41.65" in r and "sent 43.12" in r for r in reasons)


# Two episodes of the scripted naive agent on toolmaze-v5 under silent faults (from
# ``benchmarks/same_records.py``), played again here.
NAIVE_FARE = ("tmz-v5-c2-0025", "P3", [
    '{"name": "search_flights", "arguments": {"origin": "Prague", "destination": "Milan", '
    '"date": "2026-08-30"}}',
    '{"name": "get_fare", "arguments": {"flight_id": "AZ1077-GRUMXP-20260830"}}',
    '{"name": "book_flight_offer", "arguments": {"fare_quote_id": "FQ-AZ1077-GRUMXP-20260830", '
    '"passenger_name": "Emma Bauer"}}',
    '{"name": "finish", "arguments": {"answer": "All requested steps are done."}}'])
# The cost computed on the corrupted 193 kWh, but the push carries the plan's clean
# 182.23 kWh and 58.31 GBP: it did not use what the wrong cost call returned.
NAIVE_COST = ("tmz-v5-c1-0038", "P3", [
    '{"name": "get_energy_usage", "arguments": {"site": "Berlin", "period": "week"}}',
    '{"name": "calc_energy_cost", "arguments": {"kwh": 193.0, "unit_rate": 0.32}}',
    '{"name": "format_price_message", "arguments": {"amount": 61.76, "currency": "GBP"}}',
    '{"name": "translate_v3", "arguments": {"contents": "We used 182.23 kWh this week: Price: '
    '58.31 GBP (Pound Sterling).", "target_language_code": "it"}}',
    '{"name": "homey_push_notification", "arguments": {"home": "Berlin", "text": "In questo '
    'periodo (week) abbiamo consumato 182.23 kWh: Price: 58.31 GBP (Pound Sterling)."}}',
    '{"name": "finish", "arguments": {"answer": "All requested steps are done."}}'])

# The search answered a wrong product (a silent fault); the review goes to that product,
# whose id the review lookup only echoes: the id came from the search, not from it.
NAIVE_REVIEW = ("tmz-v5-c1-0095", "P3", [
    '{"name": "shopify_get_order", "arguments": {"id": "SO-3UUZGPXH"}}',
    '{"name": "aftership_get_tracking", "arguments": {"tracking_number": "1ZXCHHQUTBRDSA7RU6"}}',
    '{"name": "search_products", "arguments": {"query": "Orbit Edge Two-Person Tent"}}',
    '{"name": "get_product_reviews", "arguments": {"product_id": "PRD-678087"}}',
    '{"name": "write_review", "arguments": {"product_id": "PRD-678087", "rating": 4, "text": '
    '"Delivered by UPS (in transit). Agree with the 2194 other reviews so far."}}',
    '{"name": "finish", "arguments": {"answer": "All requested steps are done."}}'])


def _explained(task_id: str, mode: str, actions: list[str]) -> tuple[dict, str]:
    from tests.grading._helpers import simulator
    from toolmaze_gym.episode import Episode
    from toolmaze_gym.explain import explain
    from toolmaze_gym.grading import grade

    task, sim = get_task(task_id), simulator()
    ep = Episode(task, mode, sim)
    for a in actions:
        ep.step(a)
    g = grade(task, ep.profile, ep.steps, ep.truncated, sim).to_dict()
    return g, "\n".join(explain(g, task, ep.profile, ep.steps, sim.corpus))


def test_a_lookup_sent_a_corrupted_value_is_said_so():
    g, text = _explained(*NAIVE_FARE)
    assert not g["success"] and "over_trust" in g["labels"]
    assert 'step 2 (get_fare {"flight_id": "AZ1077-GRUMXP-20260830"}) was called with a wrong ' \
           'value: argument flight_id' in text
    assert 'sent "AZ1077-GRUMXP-20260830" (the corrupted value of the faulty response at ' \
           "step 1). What it returned was used faithfully by Action book_flight_offer" in text


def test_an_action_that_did_not_use_the_wrong_lookups_answer_does_not_follow_from_it():
    g, text = _explained(*NAIVE_COST)
    assert not g["success"]
    assert "called with a wrong value" not in text
    assert "Action homey_push_notification (step 'notify') was not done right" in text


def test_an_id_a_lookup_only_echoes_is_not_what_it_returned():
    g, text = _explained(*NAIVE_REVIEW)
    assert not g["success"]
    assert "(get_product_reviews" not in text and "called with a wrong value" not in text
    assert "Action write_review (step 'review') was not done right" in text
