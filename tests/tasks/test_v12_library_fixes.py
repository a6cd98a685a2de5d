"""The toolmaze-v12 blind review's library findings (tests/data/reviews/v12), each held by
a check that fails on the v12 wording or steps it was found in."""

from __future__ import annotations

import re

from toolmaze_gym.grading.all_of_it import says_all
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task

LIB = {sc.id: sc for sc in load_library()}


def _asks(sc, step_id: str) -> tuple[str, ...]:
    """What the text arguments of ``sc``'s step ``step_id`` must mention."""
    return tuple(a for arg in sc.step_by_id[step_id].args for a in arg.mention)


def _use(sc, ref: str) -> str:
    """The capability of the step a ``step.key`` reference reads."""
    return sc.step_by_id[ref.split(".")[0]].use


def test_c2_0086_the_stock_check_the_request_asks_is_told():
    """v12 c2-0086: "Please check stock of the boots" and nothing held the check (a push
    without it passed). Every phrasing asks the count and the push must tell it."""
    assert "check stock" in get_task("tmz-v12-c2-0086", "toolmaze-v12").query
    sc = LIB["sh2-hiking-boots-first-day-forecast"]
    assert "stock.available" in _asks(sc, "push")
    for phrasing in sc.phrasings:
        assert re.search(r"how many|count", phrasing), phrasing


def test_c4_0034_the_meeting_time_is_told_in_the_zone_asked():
    """v12 c4-0034 asked "the meeting time in Madrid time" and its reference posted
    09:00 UTC: the summary now asks the meeting's start converted to the city's zone."""
    sc = LIB["off-new-hire-first-day-setup"]
    asked = _asks(sc, "post")
    assert "booking.start" not in asked
    local = [a for a in asked if _use(sc, a) == "time.convert"]
    assert local == ["local.datetime"]
    zone = sc.step_by_id["local"].args
    assert {a.ref for a in zone} >= {"booking.start", "zone.timezone"}
    assert all("{city} time" in p for p in sc.phrasings)


def test_c4_0018_the_note_tells_the_delivery_date_the_request_asks():
    """v12 c4-0018: "the sunglasses order's number and its delivery date in the note",
    yet a note without the date passed. Every phrasing asks it and the note must say it."""
    sc = LIB["tr-err-beach-week-flight-hotel-sunglasses"]
    assert "ship.estimated_delivery" in _asks(sc, "expense")
    for phrasing in sc.phrasings:
        assert re.search(r"delivery date|the day they arrive", phrasing), phrasing


def test_c4_0052_the_push_tells_the_change_it_names():
    """v12 c4-0052: "push the update to Elif, including a summary of the top headline"
    passed with the headline's summary alone. The push asks the new train and the refund
    as every phrasing says."""
    sc = LIB["tr-strike-switch-to-rail"]
    assert set(_asks(sc, "push")) >= {"rail.train_id", "refund_text.message", "digest.summary"}
    for phrasing in sc.phrasings:
        assert "the new train's number" in phrasing and "the refund" in phrasing, phrasing


def test_c2_0065_the_to_do_lists_what_it_carries():
    """v12 c2-0065: "put it all in a to-do" asked, by the all-of-it rule, the visa's
    180-day maximum stay the request never asked. No phrasing says "all" of the to-do."""
    v12 = get_task("tmz-v12-c2-0065", "toolmaze-v12").query
    assert says_all(v12, ("put",))
    sc = LIB["tr-visa-and-flight-todo"]
    for phrasing in sc.phrasings:
        assert not says_all(phrasing, ("put", "add", "note", "make")), phrasing
        assert "visa rules" not in phrasing  # the rules would be the stay too


def test_c1_0061_the_percentage_names_a_change():
    """v12 c1-0061: "how the new total compares with the refund, in percent" is answered
    by "30.86 % of the refund" as well as by the change; only the change passed. The
    phrasings ask by what percentage one is higher or lower than the other."""
    assert "compares with" in get_task("tmz-v12-c1-0061", "toolmaze-v12").query
    sc = LIB["sh-swap-order-for-another"]
    for phrasing in sc.phrasings:
        assert not re.search(r"compar\w*\b[^.?]*\bin percent", phrasing), phrasing


def test_c2_0053_the_expense_and_its_remainder_are_in_the_budget_currency():
    """v12 c2-0053 filed the expense "in CHF" against a USD budget and its reference
    pushed the USD remainder as "-2.91 CHF left". The expense now goes in the currency
    the budget reads, and the push names the remainder's own currency."""
    v12 = get_task("tmz-v12-c2-0053", "toolmaze-v12").query
    assert "in CHF" in v12
    sc = LIB["up-log-clearance-purchase"]
    assert "currency" not in sc.param_by_name
    expense = sc.step_by_id["expense"]
    currency = next(a for a in expense.args if a.role == "currency")
    assert currency.kind == "field" and _use(sc, currency.ref) == "finance.budget.status"
    assert set(_asks(sc, "push")) == {"expense.budget_remaining", "expense.budget_currency"}


def test_every_budget_remainder_is_asked_with_its_own_currency():
    """The c2-0053 finding library-wide: a text that tells an expense's budget
    remainder and asks a currency beside it asks the budget's (the response's, or the
    budget's status), never a currency the request chose."""
    found = []
    for sc in LIB.values():
        for st in sc.steps:
            asked = [a for arg in st.args for a in arg.mention]
            if not any(a.endswith(".budget_remaining") for a in asked):
                continue
            money = [a for a in asked if a.endswith("currency")]
            if any("." not in a for a in money):
                found.append(f"{sc.id}.{st.id}: {asked}")
    assert found == []


def test_c4_0062_pledges_in_the_city_money_and_news_asked_as_two_parts():
    """v12 c4-0062: GBP pledges for a Toronto run, and "the main sports news in a
    sentence" asked both the headline and the summary."""
    v12 = get_task("tmz-v12-c4-0062", "toolmaze-v12").query
    assert "GBP" in v12 and "Toronto" in v12 and "in a sentence" in v12
    sc = LIB["gen-charity-run-live-screen"]
    assert sc.param_by_name["currency"].derived_from == "city"
    assert {"news.headline", "news_line.summary"} <= set(_asks(sc, "screen"))
    for phrasing in sc.phrasings:
        assert "headline" in phrasing and "summary" in phrasing, phrasing


def test_the_guest_welcome_tells_train_times_in_local_time():
    """v11 c4-0076 (left in v12): the welcome gave the train's times in UTC to a guest
    in Spain. Both times are converted to the zone of the city they happen in."""
    sc = LIB["iot-guest-by-train-room-ready"]
    asked = _asks(sc, "translate")
    assert "ticket.departure" not in asked and "train.arrival" not in asked
    assert [a for a in asked if _use(sc, a) == "time.convert"] == ["leave.datetime",
                                                                    "arrive.datetime"]
    for phrasing in sc.phrasings:
        assert "local" in phrasing, phrasing
