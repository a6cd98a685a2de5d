"""The library findings of a sweep of 56 toolmaze-v13 tasks from scenarios no blind review
had drawn (session 18, one task per scenario, seven blind reviewers), each held by a check
that fails on the v13 library."""

from __future__ import annotations

import re

import pytest

from toolmaze_gym.grading.asked_facts import clause_on, cue_starts
from toolmaze_gym.tasks.scenarios import load_library

LIB = {sc.id: sc for sc in load_library()}


def _asks(sid: str, step_id: str) -> set[str]:
    return {a for arg in LIB[sid].step_by_id[step_id].args for a in arg.mention}


def _premises(sid: str) -> set[str]:
    return {p.text for p in LIB[sid].premises}


def _param(sid: str, name: str):
    return next(p for p in LIB[sid].params if p.name == name)


@pytest.mark.parametrize("sid, step, asked", [
    # c4-0000: "the weather right now in °C and °F" passed with °F alone
    ("gen-remote-worker-morning", "push", {"now.condition", "now.temp_c"}),
    # c4-0097: "the temperature there right now in °C and °F", °C unasked
    ("gen-visiting-mother-arrival-text", "translated", {"now.temp_c"}),
    # c4-0015: "let the housemate know what you did", the checks unasked
    ("iot-rail-trip-away-mode", "notify", {"lock.battery_pct", "camera.humidity_pct"}),
    # c4-0026: "notify everyone with all of it", the door locked unasked
    ("iot-bedtime-check", "notify", {"lock.status"}),
    # c3-0028: "work out what 8 tickets at 24 EUR come to", never checked
    ("gen-club-newsletter-digest-and-tickets", "save", {"group.total"}),
    # c1-0001: "the forecast for check-in day" passed with a wrong high
    ("tr-hotel-book-price-second-stay", "sms", {"forecast.high_c"}),
    # c4-0003: "both start times in London time", the reference told UTC
    ("off-two-colleagues-next-free", "mail", {"first_office.datetime",
                                              "second_office.datetime"}),
])
def test_a_text_asks_what_the_request_asks(sid, step, asked):
    assert asked <= _asks(sid, step)


def test_c3_0051_a_balance_pushed_to_me_is_not_asked_again_of_the_answer():
    """The reference path, ending "Done." after the push that tells the balance, failed."""
    assert LIB["up-refund-then-repay-in-home-currency"].answer == ()


@pytest.mark.parametrize("sid, words", [
    ("tr-trip-budget-approval", r"total for the (stay|\{nights\} nights)"),  # c4-0054
    ("fin-share-purchase-prep-task", r"EPS|earnings"),  # c3-0005: "how the results came out"
])
def test_a_reading_the_request_left_open_is_stated(sid, words):
    for phrasing in LIB[sid].phrasings:
        assert re.search(words, phrasing), phrasing


@pytest.mark.parametrize("sid, word, not_in_clause", [
    # c4-0009: "invite {lead}, and post a brief summary of the plan (room, time ...)" asked
    # the room of the invite's subject
    ("off-retro-room-notes-and-invite", "invite", "room"),
    ("off-retro-room-notes-and-invite", "schedule it", "where"),
])
def test_an_action_s_clause_ends_before_the_next_text_s_asks(sid, word, not_in_clause):
    for phrasing in LIB[sid].phrasings:
        for clause in (clause_on(phrasing, at) for at in cue_starts(phrasing, (word,))):
            assert not_in_clause not in clause, phrasing


def test_the_world_of_each_request_holds_together():
    """c4-0080 bottles after the party, c4-0008 eight on a flight with two seats, c1-0006
    the away scene run on coming home, c4-0052 "tonight" a week off, c3-0017 a
    "heatwave" at a normal high, c2-0065 a CHF bill on a USD budget, c2-0058 a GBP job
    with Polish VAT, c4-0035 an NZ passport paid in CAD and a 5-day per diem for 2 nights."""
    assert "order.estimated_delivery < $date" in _premises("sh-garden-party-order")
    assert "fare.seats_left >= $people" in _premises("fin-offsite-cost-sheet-and-approval")
    assert "cancel.scene != 'away'" in _premises("uh-home-early-run-scene-now")
    assert not any("tonight" in p for p in LIB["iot-nursery-night-babysitter"].phrasings)
    assert not any("heatwave" in p for p in LIB["iot-heatwave-bedroom-cooling"].phrasings)
    assert _param("fin-split-bill-request-share", "currency").value == "USD"
    assert _param("fin-deposit-payment-link-sms", "currency").derived_from == "country"
    sid = "tr-err-visa-landing-hotel-and-allowance"
    assert _param(sid, "passport").derived_from == "home"
    assert _param(sid, "home_currency").derived_from == "home"
    assert _param(sid, "days").value == _param(sid, "nights").value + 1


def test_no_goal_calls_a_language_drawn_from_a_list_theirs():
    """c2-0003, c2-0001: "in their language" for a Spanish text to a São Paulo friend and
    a French-numbered customer: a language the request names is the one asked for."""
    for sc in LIB.values():
        drawn = any(p.type == "language_code" and not p.derived_from for p in sc.params)
        if drawn:
            assert not re.search(r"\b(their|her|his)( own)? language", sc.goal), sc.id
