"""Requests in people's words: no ISO datetimes, decimal counts in figures,
parameter echoes, IANA zone ids or tool names in any phrasing or any request the
generator writes; dates, times, zones and decimal counts said as people say them, and
dates and times read back by the grader."""

from __future__ import annotations

import dataclasses

import pytest

from toolmaze_gym import hashing
from toolmaze_gym.mentions import mentions
from toolmaze_gym.tasks.asked_ids import asks_the_number
from toolmaze_gym.tasks.queries import say_as, stated_as
from toolmaze_gym.tasks.request_words import machine_words, phrasing_words
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator, _fill
from toolmaze_gym.tasks.scenarios import check_scenario, load_library
from toolmaze_gym.tasks.suite import get_task

LIB = {s.id: s for s in load_library()}

# The blind review's counter-examples, as toolmaze-v3 shipped them: (task, rule).
V3_MACHINE = [
    ("tmz-v3-c2-0004", "ISO date-time"),  # "set a reminder for 2026-08-31T15:00:00Z"
    ("tmz-v3-c2-0004", "decimal count in figures"),  # "rounded to 0 decimal places"
    ("tmz-v3-c3-0083", "decimal count in figures"),
    ("tmz-v3-c1-0003", "ISO date-time"),  # "interviewing a candidate at 2026-08-24T10:00:00Z"
    ("tmz-v3-c4-0041", "parameter echo"),  # "kitchen lights off (lights on: off)"
    ("tmz-v3-c4-0093", "parameter echo"),
    ("tmz-v3-c1-0008", "parameter echo"),  # 'Start a return (reason: "hinge cracked")'
    ("tmz-v3-c2-0004", "ISO date"),  # "beginning 2026-08-31"
    ("tmz-v3-c3-0006", "IANA time zone"),  # "when our event ... is in America/Toronto"
]


# The v8 blind review's machine phrasing (tests/data/reviews/v8): (task, rule).
V8_MACHINE = [
    ("tmz-v8-c2-0092", "multiplication sign"),  # "Order 5 × Brightline Max Cast Iron Skillet"
    ("tmz-v8-c2-0092", "order on an e-mail address"),  # "... on ana.bauer@fabrikam.eu"
    ("tmz-v8-c3-0071", "multiplication sign"),  # "Buy 1 × Brightline Compact Smart Plug"
    ("tmz-v8-c3-0071", "order on an e-mail address"),  # "... on elif.haddad@initech.org"
]


@pytest.fixture(scope="module")
def gen():
    return ScenarioGenerator()


@pytest.mark.parametrize(("task_id", "rule"), V3_MACHINE)
def test_the_v3_counter_examples_are_caught(task_id, rule):
    found = machine_words(get_task(task_id).query)
    assert any(p.startswith(rule + " ") for p in found), found


@pytest.mark.parametrize(("task_id", "rule"), V8_MACHINE)
def test_the_v8_counter_examples_are_caught(task_id, rule):
    found = machine_words(get_task(task_id, "toolmaze-v8").query)
    assert any(p.startswith(rule + " ") for p in found), found


def test_an_account_or_a_count_said_as_people_do_is_not_caught():
    assert machine_words("Order 5 Brightline Max Cast Iron Skillets with my account "
                         "ana.bauer@fabrikam.eu, and notify me at ana.bauer@fabrikam.eu.") == []
    assert machine_words("Buy 2 of them for elif.haddad@initech.org on Monday 31 August.") == []


def test_the_v8_order_phrasings_now_say_the_count_and_the_account_as_people_do(gen):
    """c2-0092's and c3-0071's phrasings filled in again: a plural after the count,
    the account said as one."""
    for sid, k in (("sh-stock-check-then-order-by-sku", 2),
                   ("sc3-home-delivery-household-note", 2)):
        sc = LIB[sid]
        params = {**gen.draw_params(sc, hashing.Stream("v8-words", sid)), "quantity": 5}
        query = _fill(sc, sc.phrasings[k], params)
        assert "×" not in query and " with " in query and machine_words(query) == [], query


@pytest.mark.parametrize("task_id", ["tmz-v8-c3-0079", "tmz-v8-c4-0001"])
def test_the_v8_requests_named_the_order_without_asking_its_number(task_id):
    """c3-0079 "text my sister ... the extra order", c4-0001 "an email ... with the order":
    only the id passed, where a reader named the order by its product."""
    assert not asks_the_number(get_task(task_id, "toolmaze-v8").query, "order_id")
    assert asks_the_number("text her the new order's number", "order_id")
    assert asks_the_number("the number of the replacement order", "order_id")


@pytest.mark.parametrize(("sid", "k", "now", "v8"), [
    ("sh-gift-parcel-eta-task-and-text", 0, "the new order's number", "the extra order"),
    ("fin-gift-to-friend-abroad", 1, "the order number and", "the order and"),
])
def test_a_v8_order_phrasing_put_back_is_reported_by_the_library_check(sid, k, now, v8,
                                                                      corpus):
    sc = LIB[sid]
    assert now in sc.phrasings[k] and check_scenario(sc, corpus) == []
    old = sc.phrasings[k].replace(now, v8)
    broken = dataclasses.replace(sc, phrasings=(*sc.phrasings[:k], old, *sc.phrasings[k + 1:]))
    assert any("asks for an order without asking its number" in p
               for p in check_scenario(broken, corpus))


def test_the_gift_order_names_the_buyers_account_not_a_recipient(gen):
    """c3-0079: "order 2 ... (to hugo.yilmaz@umbrella.co)" read as shipping to Hugo; the
    address is the buyer's account."""
    sc = LIB["sh-gift-parcel-eta-task-and-text"]
    params = gen.draw_params(sc, hashing.Stream("v8-gift", sc.id))
    for phrasing in sc.phrasings:
        query = _fill(sc, phrasing, params)
        assert f"(to {params['me']})" not in query and f"for {params['me']}" not in query
        assert f"account {params['me']}" in query or f"with {params['me']} as the e-mail" \
            in query, query


def test_a_tool_name_in_a_request_is_caught():
    assert machine_words("then call send_email for me", ["send_email"])
    assert machine_words("please set_room_lights now")  # snake_case, corpus or not
    assert not machine_words("mail ana.silva@example.com the file q3-report.md, "
                             "link https://hooks.example.com/office/tv (the lobby one)")


@pytest.mark.parametrize("sid", sorted(LIB))
def test_every_phrasing_is_in_peoples_words(sid):
    assert [p for ph in LIB[sid].phrasings for p in phrasing_words(ph)] == []


def test_a_v3_phrasing_put_back_is_reported_by_the_library_check(corpus):
    """The cabin phrasing as v3 had it, "(lights on: {off})", fails the scenario check."""
    sc = LIB["iot-err-cabin-energy-setback"]
    old = sc.phrasings[1].replace("lights {off} there", "lights off there (lights on: {off})")
    broken = dataclasses.replace(sc, phrasings=(old, *sc.phrasings[1:]))
    assert any("parameter echo '(lights on: X)'" in p for p in check_scenario(broken, corpus))


@pytest.mark.parametrize("sid", sorted(LIB))
def test_every_request_the_generator_fills_in_is_in_peoples_words(gen, sid):
    sc = LIB[sid]
    params = gen.draw_params(sc, hashing.Stream("people-words", sid))
    for phrasing in sc.phrasings:
        query = _fill(sc, phrasing, params)
        assert machine_words(query) == [], query


def test_a_v3_decimal_phrasing_filled_in_is_caught(gen):
    """v3's "rounded to {decimals} decimal places" said with today's words doubles them;
    with v3's words (figures) it is the counter-example itself."""
    sc = LIB["fin-rent-standing-order"]
    params = gen.draw_params(sc, hashing.Stream("people-words", sc.id))
    old = sc.phrasings[1].replace("rounded to {decimals}", "rounded to {decimals} decimal places")
    assert any(p.startswith("doubled decimal words") for p in machine_words(_fill(sc, old, params)))
    assert any(p.startswith("decimal count in figures")
               for p in machine_words(old.replace("{decimals}", str(params["decimals"]))))


def test_the_generator_rejects_a_request_in_machine_words(gen):
    sc = LIB["fin-rent-standing-order"]
    task = gen.generate(sc, sc.levels[0], "people-words", "t")
    assert not [p for p in gen.problems(task, sc, faults=False) if "people's words" in p]
    iso = dataclasses.replace(task, query=task.query + " Remind me at 2026-08-31T15:00:00Z.")
    assert any("people's words: ISO date-time" in p
               for p in gen.problems(iso, sc, faults=False))


@pytest.mark.parametrize(("type_", "value", "words"), [
    ("iso_datetime", "2026-08-31T16:00:00Z", "16:00 UTC on Monday 31 August"),
    ("iso_datetime", "2026-08-24T19:30:00+02:00", "19:30 UTC+02:00 on Monday 24 August"),
    ("iso_date", "2026-08-31", "Monday 31 August"),
    ("decimal_places", 0, "the nearest whole number"),
    ("decimal_places", 2, "two decimal places"),
    ("timezone", "America/Mexico_City", "Mexico City time"),
])
def test_values_are_said_in_words_the_grader_and_the_solvability_check_read(type_, value,
                                                                           words):
    assert say_as(type_, value) == words
    text = f"Please do it, {words}, thanks."
    assert stated_as(text, type_, value)
    if type_ != "decimal_places":  # what a text may have to mention: read in words
        assert mentions(text, type_, value)
        assert not mentions(text.replace("August", "September").replace("Mexico", "Lima"),
                            type_, value)


def test_v6_said_a_18500_loan_and_taxed_in_it_and_now_says_them_as_people_do(gen):
    """toolmaze-v6 c1-0026 read "a 18500 car loan" and c2-0020 "taxed in IT" (the v6
    blind review); the same draws now read "an 18500 car loan" and "taxed in Italy"."""
    assert "a 18500 car loan" in get_task("tmz-v6-c1-0026", "toolmaze-v6").query
    assert "taxed in IT)" in get_task("tmz-v6-c2-0020", "toolmaze-v6").query
    loan = LIB["fin-loan-or-invest"]
    params = {**gen.draw_params(loan, hashing.Stream("v6", loan.id)), "principal": 18500}
    assert "an 18,500 car loan" in _fill(loan, loan.phrasings[0], params)
    pay = LIB["fin-save-share-of-net-pay"]
    params = gen.draw_params(pay, hashing.Stream("v6", pay.id))
    assert "taxed in Italy)" in _fill(pay, pay.phrasings[2], {**params, "country": "IT"})
    assert "in the Netherlands." in _fill(pay, pay.phrasings[0], {**params, "country": "NL"})


@pytest.mark.parametrize(("figure", "an"), [
    ("18500", True), ("8", True), ("11", True), ("80", True), ("800", True),
    ("11000", True), ("1850", False), ("110", False), ("2,800", False), ("one", False)])
def test_a_figure_read_from_a_vowel_takes_an(figure, an):
    from toolmaze_gym.tasks.scenario_gen import said_with_a_vowel

    assert said_with_a_vowel(figure) is an


def test_a_country_said_by_name_is_stated():
    assert stated_as("I make 50567 gross, taxed in Italy.", "country_code", "IT")
    assert stated_as("I earn 114555 a year in the Netherlands.", "country_code", "NL")


# The v8 blind review's request-wording counter-examples (tests/data/reviews/v8/README.md,
# issue 28's work list): (task, rule) as toolmaze-v8 shipped them.
V8_MACHINE = [
    ("tmz-v8-c4-0001", "UTC time in their local time"),  # "at 12:00 UTC ... in their local time"
    ("tmz-v8-c2-0061", "reason a drawn story may not fit"),  # a visa story "in case trains ..."
    ("tmz-v8-c1-0093", "amount without thousands separator"),  # "10203 SEK"
    ("tmz-v8-c1-0093", "tax country by code"),  # "plus DE VAT"
    ("tmz-v8-c3-0057", "push a person"),  # "push omar.patel@umbrella.co each person's share"
]


@pytest.mark.parametrize(("task_id", "rule"), V8_MACHINE)
def test_the_v8_machine_counter_examples_are_caught(task_id, rule):
    found = machine_words(get_task(task_id, "toolmaze-v8").query)
    assert any(p.startswith(rule + " ") for p in found), found


def _v8_fill(gen, sid: str, k: int, **values) -> str:
    """Phrasing ``k`` of ``sid`` filled in now with the values a v8 task drew."""
    sc = LIB[sid]
    return _fill(sc, sc.phrasings[k], {**gen.draw_params(sc, hashing.Stream("v8", sid)),
                                       **values})


def test_v8_c1_0093_now_says_the_amount_and_the_tax_country_as_people_do(gen):
    query = _v8_fill(gen, "fin-invoice-then-walkthrough-call", 2, net=10203, currency="EUR",
                     country="DE", client="Aisha Costa")
    assert "an invoice for 10,203 EUR plus German VAT" in query, query
    assert machine_words(query) == []
    assert stated_as(query, "money_amount", 10203) and stated_as(query, "country_code", "DE")
    other = _v8_fill(gen, "fin-invoice-then-walkthrough-call", 1, net=1850, currency="EUR",
                     country="NL")
    assert "1,850 EUR net (VAT for the Netherlands)" in other, other


def test_v8_c1_0093_now_bills_in_the_tax_countrys_currency(gen):
    """v8 c1-0093 billed "10203 SEK plus DE VAT": the currency now follows the tax
    country (EUR for Germany, SEK for Sweden), in every draw."""
    sc = LIB["fin-invoice-then-walkthrough-call"]
    world = gen.sim.world
    seen = set()
    for k in range(12):
        params = gen.draw_params(sc, hashing.Stream("v8-currency", str(k)))
        city = next(c for c in world.geo.cities if c.country_code == params["country"])
        assert params["currency"] == city.currency, params
        seen.add(params["currency"])
    assert len(seen) > 1, seen


def test_v8_c4_0001_now_books_the_utc_time_and_asks_the_vienna_time_told(gen):
    from toolmaze_gym.grading.asked_zone import zone_asked

    query = _v8_fill(gen, "fin-gift-to-friend-abroad", 1, call_at="2026-08-30T12:00:00Z",
                     friend_city="Vienna", friend="lena.rossi@globex.net")
    assert ("at 12:00 UTC on Sunday 30 August, telling them what time that is in Vienna"
            in query), query
    assert machine_words(query) == []
    assert zone_asked(query, "2026-08-30T14:00:00+02:00")  # the Vienna clock is still asked


def test_v8_c2_0061_and_c3_0057_read_as_a_person_writes_them(gen):
    hike = _v8_fill(gen, "gen-hike-forecast-group-chat", 0, city="Auckland")
    assert "in case" not in hike and machine_words(hike) == [], hike
    gift = _v8_fill(gen, "sc3-group-gift-share-each", 0, organiser="omar.patel@umbrella.co")
    assert "send omar.patel@umbrella.co a push with each person's share" in gift, gift
    assert machine_words(gift) == []


# The v9 review's and play-test's request wording (issue 28): (task, rule) as toolmaze-v9
# shipped them.
V9_MACHINE = [
    ("tmz-v9-c4-0051", "a booking filed on a trip"),  # "file the hotel on it" (an expense)
    ("tmz-v9-c4-0090", "a booking filed on a trip"),
    ("tmz-v9-c1-0072", "ping with no channel"),  # "ping me a push notification"
    ("tmz-v9-c2-0088", "bare count"),  # "the delivery date for 1 to Vancouver"
]


@pytest.mark.parametrize(("task_id", "rule"), V9_MACHINE)
def test_the_v9_machine_counter_examples_are_caught(task_id, rule):
    found = machine_words(get_task(task_id, "toolmaze-v9").query)
    assert any(p.startswith(rule + " ") for p in found), found


@pytest.mark.parametrize("text", [
    "Log the hotel's cost on it with the order number noted.",
    "Record the car as an expense on it, file the hotel bill on it.",
    "File the rail fare and the hotel on it as expenses.",
    "Send that invoice and send me a push at ana@example.com; ping me at ana@example.com.",
    "The delivery date of an order of 1 shipped to Vancouver, a table for 2 to share.",
])
def test_the_v9_words_said_as_people_do_are_not_caught(text):
    assert machine_words(text) == []


def test_v9_c2_0088_c4_0051_c1_0072_now_read_as_a_person_writes_them(gen):
    tent = _v8_fill(gen, "sh2-coupon-tent-arrival-weather", 2, qty=1, city="Vancouver")
    assert "the delivery date of an order of 1 shipped to Vancouver" in tent, tent
    beach = _v8_fill(gen, "tr-err-beach-week-flight-hotel-sunglasses", 0)
    assert "log the hotel's cost on it" in beach, beach
    cart = _v8_fill(gen, "sh-finish-saved-cart", 2, me="chen.larsen@globex.net")
    assert "send a push notification to chen.larsen@globex.net" in cart, cart
    assert machine_words(tent) == machine_words(beach) == machine_words(cart) == []
