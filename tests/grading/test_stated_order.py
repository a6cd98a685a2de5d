"""The order a request states between steps the data leaves independent
(``toolmaze_gym.grading.stated_order``, grading version 21): toolmaze-v9 review c4-0080
("cool ... the office thermostat as well after checking its climate and dew point") and
play-test c3-0071 ("pay Aisha Mensah ...; then tell me the account's balance")."""

from __future__ import annotations

import dataclasses
import json

import pytest

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.grading.index import task_index
from toolmaze_gym.grading.stated_order import stated_order
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

HEAT = "tmz-v9-c4-0080"
PAY = "tmz-v9-c3-0071"


def _line(tool: str, **args) -> str:
    return f"{tool} {json.dumps(args)}"


# c4-0080's calls, by what they do
FORECAST = _line("get_forecast_by_city", city="Madrid", date="2026-08-28")
TO_F = _line("temperature_converter", celsius=33.7)
ECO = _line("recommend_eco_setpoint", outdoor_temperature_c=33.7)
BEDROOM = _line("adjust_temperature", site="Madrid", room="bedroom", temperature_c=27.0)
DEVICES = _line("list_room_devices", site="Madrid", room="office")
THERMOSTAT = _line("honeywell_get_thermostat", deviceId="TH-PDNBP8EC")
DEW = _line("dewpoint_calculator", temp_c=28.4, rh=46.0)
OFFICE = _line("adjust_temperature", site="Madrid", room="office", temperature_c=27.0)
USAGE = _line("get_energy_usage", site="Madrid", period="month")
COST = _line("estimate_energy_cost", energy_kwh=881.34, price_per_kwh=0.21)
NEWS = _line("newsapi_everything", q="climate", city="Madrid")
NOTIFY = _line("homey_push_notification", home="Madrid", text=(
    "Hot day on Friday 28 August: partly cloudy, high 33.7 C (92.7 F). bedroom cooling to "
    "27 C, office to 27 C (humidity 46%, dew point 15.7 C). Energy this month: 881.34 kWh = "
    "185.08 EUR. climate: Flood defences completed in Madrid"))
HEAT_END = "finish Done: 881.34 kWh this month, 185.08 EUR."

# c3-0071's calls
REFUND = _line("refund_payment", payment_id="PAY-RPM433NXMG")
CONTACT = _line("search_directory_people", displayName="Aisha Mensah")
CONVERT = _line("convert_money", source_amount=730.86, source_currency="USD",
                target_currency="SEK")
SEND = _line("send_payment", from_account="ACC-71059064",
             recipient_email="aisha.mensah@acme-corp.com", amount=7591.83, currency="SEK")
BALANCE = _line("get_account_balance", account_id="ACC-71059064")
AFTER, BEFORE = "590646.15", "598237.98"  # the balance after the payment, and before


def _push(balance: str) -> str:
    return _line("send_push_notification", recipient="arjun.silva@globex.net",
                 message=f"Paid Aisha Mensah 7591.83 SEK; ACC-71059064 now holds "
                         f"{balance} SEK.")


def _graded(task_id: str, lines: list[str]) -> tuple[bool, str]:
    s = PlaySession(get_task(task_id), "P0", prompt="failure_aware")
    for line in lines:
        if s.done:
            break
        s.handle(line)
    return s.env.record()["grade"]["success"], s.closing()


HEAT_CASES = {
    "reference": ([FORECAST, TO_F, ECO, BEDROOM, DEVICES, THERMOSTAT, DEW, OFFICE, USAGE,
                   COST, NEWS, NOTIFY], True),
    # competent: a re-check after cooling, the check read twice, the dew point worked
    # out after cooling from the reading taken before, other steps in another order
    "recheck_after": ([FORECAST, TO_F, ECO, BEDROOM, DEVICES, THERMOSTAT, DEW, OFFICE,
                       THERMOSTAT, USAGE, COST, NEWS, NOTIFY], True),
    "read_twice": ([FORECAST, TO_F, ECO, DEVICES, THERMOSTAT, THERMOSTAT, BEDROOM, OFFICE,
                    DEW, USAGE, COST, NEWS, NOTIFY], True),
    "others_first": ([NEWS, USAGE, COST, DEVICES, THERMOSTAT, DEW, FORECAST, TO_F, ECO,
                      OFFICE, BEDROOM, NOTIFY], True),
    # near misses: the check skipped, done after, or half of it (no thermostat reading)
    "no_check": ([FORECAST, TO_F, ECO, BEDROOM, OFFICE, USAGE, COST, NEWS, NOTIFY], False),
    "check_after": ([FORECAST, TO_F, ECO, BEDROOM, OFFICE, DEVICES, THERMOSTAT, DEW, USAGE,
                     COST, NEWS, NOTIFY], False),
    "devices_only": ([FORECAST, TO_F, ECO, BEDROOM, DEVICES, OFFICE, THERMOSTAT, DEW, USAGE,
                      COST, NEWS, NOTIFY], False),
    # cooled once before the check and again after it: the first was unchecked
    "cooled_twice": ([FORECAST, TO_F, ECO, BEDROOM, OFFICE, DEVICES, THERMOSTAT, DEW, OFFICE,
                      USAGE, COST, NEWS, NOTIFY], False),
}

PAY_CASES = {
    "reference": ([REFUND, CONTACT, CONVERT, SEND, BALANCE, _push(AFTER)], True),
    # competent: read before and after, the later told; independent steps reordered
    "read_both": ([REFUND, BALANCE, CONTACT, CONVERT, SEND, BALANCE, _push(AFTER)], True),
    "others_first": ([CONTACT, REFUND, CONVERT, SEND, BALANCE, _push(AFTER)], True),
    # near misses: read only before the payment, or read both and tell the earlier
    "read_before": ([REFUND, CONTACT, CONVERT, BALANCE, SEND, _push(BEFORE)], False),
    "told_earlier": ([REFUND, BALANCE, CONTACT, CONVERT, SEND, BALANCE, _push(BEFORE)],
                     False),
    # the post-payment figure never read is no value the episode showed
    "unread_after": ([REFUND, CONTACT, CONVERT, BALANCE, SEND, _push(AFTER)], False),
}


@pytest.mark.parametrize("case", list(HEAT_CASES))
def test_an_asked_check_precedes_the_action_it_guards(case):
    lines, fair = HEAT_CASES[case]
    ok, text = _graded(HEAT, [*lines, HEAT_END])
    assert ok is fair, text


@pytest.mark.parametrize("case", list(PAY_CASES))
def test_a_balance_asked_then_is_the_one_after_the_payment(case):
    lines, fair = PAY_CASES[case]
    told = AFTER if AFTER in lines[-1] else BEFORE
    ok, text = _graded(PAY, [*lines, f"finish Done: the account holds {told} SEK."])
    assert ok is fair, text


def test_the_failure_names_the_check_the_request_asked_first():
    _, text = _graded(HEAT, [*HEAT_CASES["check_after"][0], HEAT_END])
    assert "the request asks for 'devices' (list_room_devices), 'office' " \
           "(honeywell_get_thermostat) before this Action" in text


def _order(task_id: str, query: str) -> dict[str, frozenset[str]]:
    task = dataclasses.replace(get_task(task_id), query=query)
    idx = task_index(get_task(task_id), load_corpus())
    return stated_order(task, load_corpus(), idx.upstream, idx.slot_ids)


def test_the_order_is_read_from_the_request_words():
    """The same task graph under each phrasing of the scenario: an order stated ("after
    checking", "first") orders the check; one not stated ("too") leaves it free."""
    checked = {"s8": frozenset({"s5", "s6"})}
    assert task_index(get_task(HEAT), load_corpus()).before == checked
    first = ("Heatwave prep for our Madrid home on Friday 28 August: forecast high (°C and "
             "°F), an eco setpoint based on it for the bedroom and for the office (check the "
             "office's humidity and dew point first), this month's energy cost at 0.21 "
             "EUR/kWh, and the top local climate story. Send all that to the household as a "
             "home notification.")
    assert _order(HEAT, first) == checked
    too = first.replace("(check the office's humidity and dew point first)",
                        "(read the office climate and dew point too)")
    assert _order(HEAT, too) == {}


def test_a_balance_read_then_follows_the_payment_only_where_the_request_says_so():
    assert task_index(get_task(PAY), load_corpus()).before == {"s5": frozenset({"s4"})}
    unordered = get_task(PAY).query.replace("; then tell me", " and tell me")
    assert _order(PAY, unordered) == {}


# toolmaze-v10 review c3-0037: "Buy 1 Orbit Prime Smart Plug ... once you've checked it's in
# stock": the check is the tail of the product's own lookup (search_products ->
# check_inventory), and the order can go on the search's product id alone.
PLUG = "tmz-v10-c3-0037"
SEARCH = _line("search_products", query="Orbit Prime Smart Plug")
STOCK = _line("check_inventory", product_id="PRD-757277")
ORDER = _line("place_order", product_id="PRD-757277", quantity=1,
              email="pablo.kowalski@initech.org")
CLIMATE = _line("get_room_climate", site="London", room="bathroom")
DEW_POINT = _line("compute_dew_point", temperature_c=23.4, humidity_pct=61.0)
NOTE = _line("smartthings_send_notification", locationName="London", msg=(
    "Orbit Prime Smart Plug ordered (SO-DAFFMYB2), arriving Monday 24 August. bathroom: 61% "
    "humidity, dew point 15.4 C now."))

PLUG_CASES = {
    "reference": ([SEARCH, STOCK, ORDER, CLIMATE, DEW_POINT, NOTE], True),
    # competent: the climate read first, the stock checked twice, or again after ordering
    "others_first": ([CLIMATE, DEW_POINT, SEARCH, STOCK, ORDER, NOTE], True),
    "checked_twice": ([SEARCH, STOCK, STOCK, ORDER, CLIMATE, DEW_POINT, NOTE], True),
    "recheck_after": ([SEARCH, STOCK, ORDER, STOCK, CLIMATE, DEW_POINT, NOTE], True),
    # near misses: ordered on the search alone, or checked only after ordering
    "no_check": ([SEARCH, ORDER, CLIMATE, DEW_POINT, NOTE], False),
    "check_after": ([SEARCH, ORDER, STOCK, CLIMATE, DEW_POINT, NOTE], False),
}


@pytest.mark.parametrize("case", list(PLUG_CASES))
def test_a_check_inside_the_actions_own_lookup_precedes_it(case):
    lines, fair = PLUG_CASES[case]
    ok, text = _graded(PLUG, [*lines, "finish Done."])
    assert ok is fair, text


def test_the_failure_names_the_check_inside_the_lookup_not_the_search():
    _, text = _graded(PLUG, [*PLUG_CASES["no_check"][0], "finish Done."])
    assert "the request asks for 'stock' (check_inventory) before this Action, and no " \
           "clean call of it came before this step" in text
    assert "no earlier response or the request showed it" not in text


# toolmaze-v10 c4-0017: "order 2 'Juniper Active Fitness Tracker' instead via a cart, after a
# stock check": check_inventory is a step of its own between the search and the cart, and
# the cart could take the search's product id.
CART = "tmz-v10-c4-0017"


def _cart_lines(check: bool) -> list[str]:
    """The reference run's calls, with or without its check_inventory."""
    calls = get_task(CART).default_path.calls
    return [_line(c.tool, **c.args) for c in calls if check or c.tool != "check_inventory"]


@pytest.mark.parametrize(("check", "fair"), [(True, True), (False, False)])
def test_a_stock_check_of_its_own_before_the_cart_it_feeds(check, fair):
    ok, text = _graded(CART, [*_cart_lines(check), "finish Done: the late parcel comes on "
                              "2026-08-22 and the refund is 91.99."])
    assert ok is fair, text


@pytest.mark.parametrize(("phrase", "ordered"), [
    ("once you've checked it's in stock", True),
    ("once you have confirmed it's in stock", True),
    ("after confirming it's in stock", True),
    ("after a quick stock check", True),
    ("having checked it's in stock", True),
    ("check it's in stock first", True),
    # a stock check or condition stated with the order (grading version 25; toolmaze-v10
    # play-test c4-0043 "(check they're in stock)", c2-0012 "confirm stock"): a stock
    # check only means something before the order, so it is read as one even "too"
    ("and check it's in stock too", True),
    ("(check they're in stock)", True),
    ("confirm stock", True),
    ("only if in stock", True),
    ("if they have it in stock", True),
    ("making sure there are enough in stock", True),
    # no order stated: a question about the stock, a count asked, an online check-in
    ("(is it in stock?)", False),
    ("and tell me how many are in stock", False),
    ("do the online check-in first", False),
])
def test_a_check_is_ordered_where_the_request_states_it(phrase, ordered):
    query = get_task(PLUG).query.replace("once you've checked it's in stock", phrase)
    assert _order(PLUG, query) == ({"s2": frozenset({"s1"})} if ordered else {})


# toolmaze-v11 review c4-0051 (grading version 27): "bring the guest room to 22 degrees
# (tell me the current reading first)"
TOLD = "tmz-v11-c4-0051"
_ZONE = _line("get_city_timezone", city="Prague")
_LOCAL = _line("convert_datetime", datetime="2026-08-25T08:00:00Z", to_timezone="Europe/Prague")
_SCENE = _line("schedule_scene", site="Prague", scene="welcome home",
               run_at="2026-08-25T08:00:00Z")
_ROOM = _line("list_room_devices", site="Prague", room="guest room")
_READ = _line("get_thermostat_state", thermostat_id="TH-5PWU6ERS")
_SET = _line("nest_set_heat_setpoint", device="TH-5PWU6ERS", heatCelsius=22)
_LOCK = _line("find_lock", site="Prague", door="front door")
_BATTERY = _line("get_lock_status", lock_id="LK-4NHSAAM6")
_WEEK = _line("get_energy_usage", site="Prague", period="week")


def _told_lines(order: list[str]) -> list[str]:
    from pathlib import Path

    ref = Path(__file__).parents[1] / "data" / "reviews" / "v11" / "actions" / \
        "c4-0051.ref.txt"
    tail = [ln for ln in ref.read_text(encoding="utf-8").splitlines()
            if ln.startswith(("notify_household", "finish"))]
    return [*order, *tail]


@pytest.mark.parametrize(("order", "fair"), [
    ([_ZONE, _LOCAL, _SCENE, _ROOM, _READ, _SET, _LOCK, _BATTERY, _WEEK], True),
    # the reading first, the rest in another order: the scene before the zone lookup too
    ([_SCENE, _ROOM, _READ, _SET, _ZONE, _LOCAL, _WEEK, _LOCK, _BATTERY], True),
    # read before and after the set
    ([_ZONE, _LOCAL, _SCENE, _ROOM, _READ, _SET, _READ, _LOCK, _BATTERY, _WEEK], True),
    # the reading taken only after the set, or never
    ([_ZONE, _LOCAL, _SCENE, _ROOM, _SET, _READ, _LOCK, _BATTERY, _WEEK], False),
    ([_ZONE, _LOCAL, _SCENE, _ROOM, _SET, _LOCK, _BATTERY, _WEEK], False),
])
def test_a_reading_told_first_precedes_the_set_it_reads(order, fair):
    ok, text = _graded(TOLD, _told_lines(order))
    assert ok is fair, text


def test_a_reading_told_first_orders_the_devices_state_alone():
    """Only the stateful read of the Action's own target: the city's time zone, which
    the scene shares, stays free (v3-round8 c4-0087 P1 read it after the scene)."""
    idx = task_index(get_task(TOLD), load_corpus())
    assert idx.before == {"s5": frozenset({"s4"})}  # the thermostat read, its set point
    query = get_task(TOLD).query
    assert _order(TOLD, query.replace(" (tell me the current reading first)", "")) == {}
    assert _order(TOLD, query.replace("tell me the current reading first",
                                      "tell me the current reading too")) == {}


@pytest.mark.parametrize(("said", "ordered"), [
    # grading version 28, toolmaze-v12 review c2-0081: "what's left in the account"
    ("; what's left in the account, tell me", True),
    ("; tell me what is left in the account", True),
    ("; tell me the remaining balance", True),
    (" and tell me", False),
])
def test_what_is_left_is_read_after_the_payment(said, ordered):
    query = get_task(PAY).query.replace("; then tell me", said)
    assert _order(PAY, query) == ({"s5": frozenset({"s4"})} if ordered else {})
