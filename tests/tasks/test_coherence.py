"""A coherent world (issue 28, item 4): every rule fails on the v3 task the review
found odd, passes on what the generator builds now, and holds over the default suite
once it is built by this generator (toolmaze-v7)."""

from __future__ import annotations

import json
import math
from datetime import date, timedelta
from pathlib import Path

import pytest

from toolmaze_gym.tasks import coherence
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.scenario_gen import ScenarioBuildError, ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task, load_suite
from toolmaze_gym.tasks.suites import edition_of
from toolmaze_gym.world import get_world
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.geo import minor_units, round_money
from toolmaze_gym.world.phones import is_mobile

# rule -> (v3 task, what the review or the played episodes found in it)
COUNTER_EXAMPLES = {
    "climate": ("tmz-v3-c2-0008", "a 13.4 °C late-August high in Toronto"),
    "asked_heating": ("tmz-v4-c4-0039", "eco heating asked, the setpoint's mode 'cool'"),
    "rail_links": ("tmz-v4-c2-0010", "a direct train from Lisbon to Copenhagen"),
    "quoted_language": ("tmz-v4-c1-0056", "a Milan office's problem report in French"),
    "weather_condition": ("tmz-v4-c4-0095", "'Fog, 27.7 °C' in Lisbon in August"),
    "eco_setpoint": ("tmz-v3-c4-0079", "an eco setpoint that heats on a 23.4 °C August day"),
    "event_hours": ("tmz-v3-c1-0055", "a 12:38 dinner"),
    "trip_from_home": ("tmz-v3-c4-0079", "a home in Istanbul, a train from Manchester"),
    "arrival_before_stay": ("tmz-v3-c3-0086", "Istanbul -> Sydney, hotel the same day"),
    "sms_mobile": ("tmz-v3-c1-0059", "an SMS to +44 3…, a UK landline"),
    "tax_place": ("tmz-v3-c1-0067", "sales tax for Seoul on a USD order logged in CAD"),
    "headlines": ("tmz-v3-c4-0032", "a rail line linking Mumbai to the coast"),
    "currency_crossing": ("tmz-v3-c2-0032", "EUR take-home pay moved as USD, no conversion"),
    "iban_currency": ("tmz-v3-c2-0004", "GBP rent paid in CHF to a French IBAN"),
    "amount_precision": ("tmz-v3-c1-0031", "a 31,000 car loan budgeted as 512.3 JPY a month"),
    "tax_name": ("tmz-v3-c3-0001", "'Berlin sales tax': Germany has a 19 % VAT"),
    "comparable_choice": ("tmz-v3-c4-0061", "torn between 69,371 USD of coins and 2,266 of shares"),
    "office_hours": ("tmz-v3-c4-0031", "a retro room in Buenos Aires booked for a Saturday"),
    "channel_wording": ("tmz-v3-c2-0053", "#it-helpdesk posted only through send_teams_message"),
    "translated_texts": ("tmz-v3-c1-0034", "'[es] Lunch order closes at noon.' as Spanish"),
}
# rule -> the world data the counter-example was built on, where the fix is data: the
# phrasebook had no translation of the channel posts (c1-0034 of the draft v4 review).


def _as_built_weather(self, city, day):
    """The weather of toolmaze-v3 and v4 (world.geo before v5): a seasonal curve over
    the city's record band, +6/-3 °C, any condition but snow above 3 °C."""
    from toolmaze_gym import hashing
    from toolmaze_gym.world.geo import CONDITIONS, DailyWeather

    d = date.fromisoformat(day)
    season = math.cos(2 * math.pi * (d.timetuple().tm_yday - 196) / 365.25)
    season = -season if city.lat < 0 else season
    mid, amp = (city.temp_min + city.temp_max) / 2, (city.temp_max - city.temp_min) / 4
    k = self.key("wx", city.name, day)
    high = mid + amp * season + hashing.uniform(-3, 6, *k, "hi")
    low = high - hashing.uniform(4, 11, *k, "lo")
    high = min(max(high, city.temp_min + 4), city.temp_max)
    low = min(max(low, city.temp_min), high - 1)
    cond = hashing.choice(CONDITIONS if high < 3 else CONDITIONS[:6] + CONDITIONS[7:],
                          *k, "cond")
    return DailyWeather(city.name, day, round(high, 1), round(low, 1), cond, 50.0, 0.0, 10.0)


AS_BUILT = {
    "translated_texts": ("toolmaze_gym.tasks.translators.translation",
                         lambda text, target: None),
    # The world's weather now keeps to the normals and the season (v5): the
    # counter-examples were built on the weather before.
    "climate": ("toolmaze_gym.world.geo.Geo.weather", _as_built_weather),
    "weather_condition": ("toolmaze_gym.world.geo.Geo.weather", _as_built_weather),
}

LIB = {s.id: s for s in load_library()}

# rule -> [(draft v4 task, what the blind review found, the task's quoted calls)]: the
# review's counter-examples have no shipped task, so they are fixtures (issue 28, round 3)
# and of its second draft (tests/data/reviews/v4-draft2): the world's FX, quotes, channels
V4_DRAFT = {rule: [(tid, why, Task.from_dict(t)) for tid, why, t in rows]
            for name in ("v4_draft_travel.json", "v4_draft2_world.json")
            for rule, rows in json.loads((Path(__file__).parents[1] / "data" / "coherence"
                                          / name).read_text()).items()
            if not rule.startswith("_")}


# rule -> (toolmaze-v4 task, what its blind review found): rules added for toolmaze-v5
V4_SHIPPED = {
    "forecast_on_arrival": ("tmz-v4-c1-0091", "Rome on 2026-08-31, but the journey there "
                            "arrives on 2026-09-01"),  # the overnight Oslo -> Rome train
}
# the toolmaze-v4 tasks each of those rules refuses (the suite was built before them); a
# suite built with the rules has none, so the set empties when the default moves on
V4_REFUSED = {
    "forecast_on_arrival": {"tmz-v4-c1-0029", "tmz-v4-c1-0091", "tmz-v4-c2-0087"},
}


# rule -> (toolmaze-v5 task, what its blind review found): rules added for toolmaze-v6
V5_SHIPPED = {
    # "another trip" to the same Sao Paulo hotel from 23 August, around the stay
    # booked for 24 to 27 August: "the weather for my arrival" is either day
    "stays_apart": ("tmz-v5-c1-0001", "overlaps the stay from 2026-08-23 to 2026-08-27"),
    # a talk at 15:00 UTC in Tokyo: 00:00 local time (event_hours read only a call
    # naming the event and its time together; here the request names the talk)
    "event_local_time": ("tmz-v5-c2-0047", "a talk at 00:00 local time"),
    # a smart plug's review reporting "the battery is at 32%": the hallway sensor's
    "review_subject": ("tmz-v5-c1-0002", "a review of Brightline Compact Smart Plug "
                       "reports 32%, of the sensor Awair Element, without naming it"),
}
# the toolmaze-v5 tasks each of those rules refuses (scanned over the whole suite)
V5_REFUSED = {
    "stays_apart": {"tmz-v5-c1-0001"},
    # c4-0089: a 14:00 dinner; c4-0001: a video call at 06:00 in Vancouver
    "event_local_time": {"tmz-v5-c2-0047", "tmz-v5-c4-0089", "tmz-v5-c4-0001"},
    "review_subject": {"tmz-v5-c1-0002"},
}


# rule -> (toolmaze-v6 task, what its blind review found): rules for the next suite
# (tests/data/reviews-v6: /tmp/reviews-v6 r1, r2). The v6 tasks are read on the world
# they were built on (edition 3).
V6_SHIPPED = {
    # 21 °C "eco" at 16.8 °C outside in Stockholm, 19 °C in colder weather elsewhere
    "eco_mild": ("tmz-v6-c4-0025", "an eco set point for 16.8 °C outside"),
    # an "eco setback" of the Oslo cabin's bedroom from 18.2 °C (held at 18.5) to 19 °C
    "eco_setback": ("tmz-v6-c4-0005", "an eco set point of 19.0 °C raises a thermostat "
                    "at 18.5 °C"),
    # a London electricity tariff in EUR (and c4-0088's Melbourne home in CHF)
    "energy_currency": ("tmz-v6-c4-0025", "London's electricity at 0.27 EUR per kWh, "
                        "where homes pay in GBP"),
    # "good night" for tonight at 16:00 UTC: 02:00 the next morning in Melbourne
    "scene_hours": ("tmz-v6-c4-0088", "the 'good night' scene at 02:00 local time in "
                    "Melbourne"),
}
# the toolmaze-v6 tasks each of those rules, and the rules widened for it, refuses
# (scanned over the whole suite on edition 3)
V6_REFUSED = {
    "eco_mild": {"tmz-v6-c1-0006", "tmz-v6-c1-0068", "tmz-v6-c1-0099", "tmz-v6-c2-0018",
                 "tmz-v6-c2-0029", "tmz-v6-c2-0056", "tmz-v6-c2-0072", "tmz-v6-c2-0095",
                 "tmz-v6-c3-0030", "tmz-v6-c4-0021", "tmz-v6-c4-0025", "tmz-v6-c4-0035",
                 "tmz-v6-c4-0052", "tmz-v6-c4-0066", "tmz-v6-c4-0067", "tmz-v6-c4-0075",
                 "tmz-v6-c4-0078"},
    "eco_setback": {"tmz-v6-c1-0024", "tmz-v6-c4-0005", "tmz-v6-c4-0037"},
    # a "clear" day in a wet season (weather_condition reads wet seasons now): Mumbai
    # in the monsoon (c2-0058) and three more
    "weather_condition": {"tmz-v6-c1-0040", "tmz-v6-c2-0058", "tmz-v6-c2-0068",
                          "tmz-v6-c4-0000"},
    # c2-0093: "good night" run at 11:00 when the family gets home early; c2-0050: a
    # "dinner" scene at 10:00; c4-0007: "good night" at a 10:00 check-out
    "scene_hours": {"tmz-v6-c1-0006", "tmz-v6-c1-0072", "tmz-v6-c2-0018", "tmz-v6-c2-0050",
                    "tmz-v6-c2-0093", "tmz-v6-c4-0007", "tmz-v6-c4-0020", "tmz-v6-c4-0057",
                    "tmz-v6-c4-0088"},
    "energy_currency": {"tmz-v6-c1-0034", "tmz-v6-c3-0016", "tmz-v6-c4-0025",
                        "tmz-v6-c4-0057", "tmz-v6-c4-0061", "tmz-v6-c4-0088",
                        "tmz-v6-c4-0092"},
}


# rule -> [(toolmaze-v7 task, what its blind review found)]: rules for the next suite
# (/tmp/reviews-v7 r2: one model of an eco set point). Read on edition 4, as built.
V7_SHIPPED = {
    # 26 °C "(cool)" for 29.5 °C in Madrid, written with nest_set_heat_setpoint; and
    # c3-0031's 26 °C for a 27.4 °C Singapore low, the same way
    "eco_setter": [("tmz-v7-c2-0023", "a cooling eco set point of 26.0 °C written as a "
                    "heat set point (nest_set_heat_setpoint)"),
                   ("tmz-v7-c3-0031", "a cooling eco set point of 26.0 °C written as a "
                    "heat set point")],
    # "from the low" of a 27.4 °C Singapore day, where the tool's doc says the high
    "eco_forecast_side": [("tmz-v7-c3-0031", "the forecast low of 27.4 °C gives a 'cool' "
                           "eco set point, which the tool reads from the high")],
    # "heat the guest room" at 22.3 °C to 19 °C; a Delhi bedroom at 21.4 °C cooled to 27
    "eco_room": [("tmz-v7-c4-0013", "a 'heat' eco set point of 19.0 °C for a room at "
                  "22.3 °C"),
                 ("tmz-v7-c3-0075", "a 'cool' eco set point of 27.0 °C for a room at "
                  "21.4 °C")],
}
# the toolmaze-v7 tasks those rules refuse (scanned over the whole suite on edition 4)
V7_REFUSED = {
    "eco_setter": {"tmz-v7-c2-0023", "tmz-v7-c2-0048", "tmz-v7-c2-0066", "tmz-v7-c3-0031",
                   "tmz-v7-c4-0050"},
    "eco_forecast_side": {"tmz-v7-c3-0031", "tmz-v7-c3-0087"},
    # the world's rooms read 17-25.5 °C whatever the weather (edition 4); away and
    # set-back requests (c4-0028, c4-0067) leave a warmer room idle on purpose
    "eco_room": {"tmz-v7-c1-0024", "tmz-v7-c1-0096", "tmz-v7-c3-0020", "tmz-v7-c3-0031",
                 "tmz-v7-c3-0044", "tmz-v7-c3-0075", "tmz-v7-c3-0079", "tmz-v7-c3-0087",
                 "tmz-v7-c4-0002", "tmz-v7-c4-0005", "tmz-v7-c4-0013", "tmz-v7-c4-0021",
                 "tmz-v7-c4-0024", "tmz-v7-c4-0037", "tmz-v7-c4-0039",
                 "tmz-v7-c4-0042", "tmz-v7-c4-0045", "tmz-v7-c4-0050",
                 "tmz-v7-c4-0076", "tmz-v7-c4-0078", "tmz-v7-c4-0081"},
}


# rule -> [(toolmaze-v8 task, what its blind review found)]: rules for the next suite
# (tests/data/reviews/v8). Read on edition 5, as built.
V8_SHIPPED = {
    # "once a parcel has arrived", a review of a Fitness Tracker whose parcel was "in
    # transit": "Delivered by UPS (in transit)"
    "reviewed_delivered": [("tmz-v8-c1-0022", "a review of Saffron Classic Fitness Tracker "
                            "bought in order SO-D2UJL62T, whose parcel has not arrived")],
}
# the toolmaze-v8 tasks those rules refuse (scanned over the whole suite on edition 5)
V8_REFUSED = {"reviewed_delivered": {"tmz-v8-c1-0022"}}

# rule -> [(toolmaze-v9 task, what its blind review found)]: rules for the next suite
# (tests/data/reviews/v9, the Minor line). Read on edition 6, as built.
V9_SHIPPED = {
    # "they're based in Tokyo", the SMS to a +33 mobile; a mother in Istanbul on +33
    "texted_place": [("tmz-v9-c2-0010", "texts +33786996685 (a FR number) the time in Tokyo"),
                     ("tmz-v9-c4-0097", "(a FR number) the time in Istanbul")],
    # heating a Manchester kitchen in August
    "heating_season": [("tmz-v9-c4-0091", "a home in Manchester heated on 2026-08-18: "
                        "summer there")],
    # a travel smart plug running a dehumidifier all day, metering heaters
    "device_use": [("tmz-v9-c3-0076", "Lumen Travel Smart Plug (a travel kind) runs the "
                    "dehumidifier"),
                   ("tmz-v9-c4-0091", "Lumen Travel Smart Plug (a travel kind) runs the heaters")],
    # "Flood defences completed in Madrid" as a heat day's climate headline
    "seasonal_headlines": [("tmz-v9-c4-0080", "'Flood defences completed in Madrid': a flood "
                            "story in Madrid's dry month 8")],
    # a chase due on a Saturday; a Sunday delivery
    "work_dates": [("tmz-v9-c4-0012", "create_task makes a work to-do due on a Saturday "
                    "(2026-08-22)")],
    "delivery_days": [("tmz-v9-c2-0088", "tells a delivery on a Sunday (2026-08-23)")],
    # a 5 % default tax on an SGD invoice (Canada's GST: the client lives in Vancouver)
    "invoice_place": [("tmz-v9-c2-0028", "SGD to Priya Bauer in Vancouver, taxed as Canada, "
                       "which pays in CAD")],
}
# the toolmaze-v9 tasks those rules refuse (scanned over the whole suite on edition 6)
V9_REFUSED = {"texted_place": {"tmz-v9-c2-0010", "tmz-v9-c2-0061", "tmz-v9-c4-0097"},
              "heating_season": {"tmz-v9-c1-0093", "tmz-v9-c2-0069", "tmz-v9-c4-0004",
                                 "tmz-v9-c4-0024", "tmz-v9-c4-0035", "tmz-v9-c4-0049",
                                 "tmz-v9-c4-0091"},
              "device_use": {"tmz-v9-c3-0076", "tmz-v9-c3-0082", "tmz-v9-c4-0091"},
              "seasonal_headlines": {"tmz-v9-c4-0080"},
              "work_dates": {"tmz-v9-c4-0012", "tmz-v9-c4-0053"},
              "delivery_days": {"tmz-v9-c2-0034", "tmz-v9-c2-0070", "tmz-v9-c2-0075",
                                "tmz-v9-c2-0088", "tmz-v9-c2-0095"},
              "invoice_place": {"tmz-v9-c1-0079", "tmz-v9-c1-0099", "tmz-v9-c2-0028",
                                "tmz-v9-c2-0062", "tmz-v9-c4-0032", "tmz-v9-c4-0063"}}

# toolmaze-v11's blind review (tests/data/reviews/v11): a Warsaw-Vienna train of 23 August
# filed on a Seattle-Barcelona board-meeting trip three weeks later
V11_SHIPPED = {
    "trip_expenses": [("tmz-v11-c2-0028", "a Vienna - Warsaw train on 2026-08-23 filed on trip "
                       "ITN-D56CG86X, which flies Barcelona, Seattle on 2026-09-13")],
}
# the toolmaze-v11 tasks that rule refuses (scanned over the whole suite on edition 8):
# four scenarios filed a train drawn apart from the trip
V11_REFUSED = {"trip_expenses": {
                                   "tmz-v11-c1-0029",
                                   "tmz-v11-c1-0058",
                                   "tmz-v11-c1-0091",
                                   "tmz-v11-c2-0004",
                                   "tmz-v11-c2-0017",
                                   "tmz-v11-c2-0028",
                                   "tmz-v11-c2-0052",
                                   "tmz-v11-c2-0063",
                                   "tmz-v11-c2-0066",
                                   "tmz-v11-c2-0082",
                                   "tmz-v11-c2-0091",
                                   "tmz-v11-c2-0094",
                                   "tmz-v11-c3-0023",
                                   "tmz-v11-c3-0029",
                                   "tmz-v11-c3-0040",
                                   "tmz-v11-c3-0048",
                                   "tmz-v11-c3-0075",
                                   "tmz-v11-c3-0089",
                                   "tmz-v11-c4-0015",
                                   "tmz-v11-c4-0067"}}
V11_FIXED = ["tr-rail-fare-on-trip-shared", "et-rail-weekend-forecast-expense",
             "et-rail-trip-covered-share", "iot-rail-trip-away-mode"]


def test_every_rule_has_a_counter_example():
    assert set(COUNTER_EXAMPLES) | set(V4_DRAFT) | set(V4_SHIPPED) | set(V5_SHIPPED) | \
        set(V6_SHIPPED) | set(V7_SHIPPED) | set(V8_SHIPPED) | set(V9_SHIPPED) | \
        set(V11_SHIPPED) == \
        set(coherence.RULES)


@pytest.mark.parametrize(("rule", "task_id", "said"),
                         [(r, t, s) for r, rows in sorted(V9_SHIPPED.items()) for t, s in rows])
def test_rule_fails_on_its_toolmaze_v9_counter_example(rule, task_id, said, corpus):
    found = coherence.RULES[rule](get_task(task_id, "toolmaze-v9"), corpus, get_world(0, 6))
    assert any(said in p for p in found), (rule, found)


@pytest.mark.parametrize(("rule", "task_id", "said"),
                         [(r, t, s) for r, rows in sorted(V11_SHIPPED.items()) for t, s in rows])
def test_rule_fails_on_its_toolmaze_v11_counter_example(rule, task_id, said, corpus):
    found = coherence.RULES[rule](get_task(task_id, "toolmaze-v11"), corpus, get_world(0, 8))
    assert any(said in p for p in found), (rule, found)


def test_v11_fixed_lists_the_refused_tasks_scenarios():
    scenarios = {get_task(t, "toolmaze-v11").meta["scenario"]
                 for ids in V11_REFUSED.values() for t in ids}
    assert scenarios == set(V11_FIXED)


@pytest.mark.parametrize("sid", V11_FIXED)
def test_the_generator_files_a_train_on_the_trip_it_takes_to(sid, sim, corpus, world):
    """Generated now: the train takes the trip's traveller to its flight, the day
    before, and no rule finds the task incoherent."""
    sc = LIB[sid]
    for k in range(3):
        task = ScenarioGenerator(sim).generate(sc, sc.levels[0], "v12", f"v11-refused-{k}")
        assert coherence.problems(task, corpus, world) == [], task.query
        travel = sim.world.travel
        trip = next(e["value"] for e in task.entities if e["type"] == "itinerary_id")
        flight = travel.flight(travel.bookings[travel.itineraries[trip].items[0]].flight_id)
        trains = {travel.train(str(v)) for p in task.solutions for c in p.calls
                  for k, v in (c.response or {}).items() if "train" in k and "id" in k}
        trains.discard(None)
        assert trains, task.query
        for train in trains:
            assert train.destination.place.city.name == flight.origin.city.name, task.query
            assert date.fromisoformat(train.day) == \
                date.fromisoformat(flight.day) - timedelta(days=1), task.query


# the scenarios of the toolmaze-v9 tasks V9_REFUSED names, whose draws were fixed
V9_FIXED = ["off-reschedule-meeting-next-free", "gen-visiting-mother-arrival-text",
            "eh-holiday-home-frost-setpoint", "eh-landed-set-heating-for-weather",
            "iot-err-cabin-energy-setback", "iot-rail-trip-away-mode",
            "iot-err-cold-snap-cabin-and-home", "es-dehumidifier-review-dew-point",
            "es-heater-review-room-temperature", "iot-heatwave-two-rooms",
            "off-two-document-reviews", "sh2-coupon-tent-arrival-weather",
            "sh2-rain-jacket-arrival-day-forecast", "sh2-hiking-boots-first-day-forecast",
            "fin-invoice-client-currency", "fin-cash-sale-paid-invoice",
            "up-invoice-work-plus-travel-line", "fin-buy-for-client-and-rebill"]


def test_every_work_to_do_is_drawn_on_a_working_day():
    """Static over the library: a to-do whose title says work ("Chase {second} ...") and
    whose due date is a param draws it on a weekday (c4-0012 drew a Saturday)."""
    todo = set(coherence._rules_data()["calendar"]["todo_behaviours"])
    work = [(sid, a.ref) for sid, sc in LIB.items() for st in sc.steps
            if st.use in todo and any(coherence.is_work_todo(a.text) for a in st.args)
            for a in st.args if a.role == "due" and a.kind == "param"]
    assert ("off-two-document-reviews", "chase_by") in work
    assert [(sid, ref) for sid, ref in work if not LIB[sid].param_by_name[ref].workday] == []


def test_v9_fixed_lists_the_refused_tasks_scenarios():
    scenarios = {get_task(t, "toolmaze-v9").meta["scenario"]
                 for ids in V9_REFUSED.values() for t in ids}
    assert scenarios == set(V9_FIXED)


@pytest.mark.parametrize("sid", V9_FIXED)
def test_the_generator_builds_the_v9_refused_scenarios_coherently(sid, sim, corpus, world):
    """Generated now, on the latest world: none of the rules the v9 tasks broke (nor
    any other) finds the task incoherent."""
    sc = LIB[sid]
    task = ScenarioGenerator(sim).generate(sc, sc.levels[0], "v10", "v9-refused")
    assert coherence.problems(task, corpus, world) == [], task.query


@pytest.mark.parametrize("sid", ["off-reschedule-meeting-next-free",
                                 "gen-visiting-mother-arrival-text"])
def test_a_text_in_a_citys_time_goes_to_a_number_there(sid, sim, corpus, world):
    """The v9 counter-examples' scenarios, generated now on the latest world: the city
    is where the texted person lives and the number is of its country."""
    sc = LIB[sid]
    task = ScenarioGenerator(sim).generate(sc, sc.levels[0], "v10", "texted-place")
    assert coherence.texted_place(task, corpus, world) == []
    assert [v for c in coherence.calls(task, corpus) for v in c.args_of("phone")]


@pytest.mark.parametrize(("rule", "task_id", "said"),
                         [(r, t, s) for r, rows in sorted(V8_SHIPPED.items()) for t, s in rows])
def test_rule_fails_on_its_toolmaze_v8_counter_example(rule, task_id, said, corpus):
    found = coherence.RULES[rule](get_task(task_id, "toolmaze-v8"), corpus, get_world(0, 5))
    assert any(said in p for p in found), (rule, found)


def _reviews_an_ordered_product(sc) -> bool:
    """A scenario that posts a review of the product an order param names."""
    return any(st.use == "shop.post_review" for st in sc.steps) and any(
        p.type == "product_name" and p.derived_from and
        sc.param_by_name[p.derived_from].type == "shop_order_id" for p in sc.params)


REVIEWS_OF_ORDERS = sorted(sid for sid, sc in LIB.items() if _reviews_an_ordered_product(sc))


def test_every_review_of_an_ordered_product_draws_a_delivered_order():
    """Static: the library's reviews of a product from an order draw the order among
    those delivered (c1-0022 drew one in transit, the generator's rule then only
    rejecting draws)."""
    assert {"sh-review-after-delivery", "es-short-review-with-delivery"} <= set(REVIEWS_OF_ORDERS)
    undrawn = [sid for sid in REVIEWS_OF_ORDERS for p in LIB[sid].params
               if p.type == "shop_order_id" and p.state != "delivered"]
    assert undrawn == []


@pytest.mark.parametrize("sid", REVIEWS_OF_ORDERS)
def test_a_generated_review_of_an_ordered_product_is_of_a_delivered_parcel(sid, sim, corpus,
                                                                           world):
    """Over generated tasks: the order a review's product came from has arrived, and its
    tracking says so."""
    sc, built = LIB[sid], 0
    for k in range(4):
        try:
            task = ScenarioGenerator(sim).generate(sc, sc.levels[0], "v9", f"delivered-{k}")
        except ScenarioBuildError:
            continue
        built += 1
        assert coherence.reviewed_delivered(task, corpus, world) == []
        orders = [world.commerce.order(str(v)) for c in coherence.calls(task, corpus)
                  for v in c.args_of("shop_order_id")]
        assert orders and all(o is not None and o.delivered for o in orders), task.query
        statuses = {v for c in coherence.calls(task, corpus) for v in c.returns_of(
            "shipment_status")}
        assert statuses <= {"delivered"}, (task.query, statuses)
    assert built >= 2


@pytest.mark.parametrize(("rule", "task_id", "said"),
                         [(r, t, s) for r, rows in sorted(V7_SHIPPED.items()) for t, s in rows])
def test_rule_fails_on_its_toolmaze_v7_counter_example(rule, task_id, said, corpus):
    found = coherence.RULES[rule](get_task(task_id, "toolmaze-v7"), corpus, get_world(0, 4))
    assert any(said in p for p in found), (rule, found)


def test_a_tool_choice_alone_is_not_the_draws_facts(corpus):
    """c2-0023 breaks only eco_setter (another setter would do): the generator tries
    the draw's other tools; c4-0013's room is a fact of the draw."""
    world = get_world(0, 4)
    assert coherence.problems(get_task("tmz-v7-c2-0023"), corpus, world)
    assert not coherence.of_facts(get_task("tmz-v7-c2-0023"), corpus, world)
    assert coherence.of_facts(get_task("tmz-v7-c4-0013"), corpus, world)


def test_the_guest_by_train_welcome_goes_to_the_guest(sim, world):
    """toolmaze-v7 c4-0042 pushed "¡Bienvenido, Nora Costa!" to sara.dubois@...: the
    guest's name is now the address's owner's, and the welcome says it."""
    old = get_task("tmz-v7-c4-0042")
    assert "Nora Costa" in old.query and "sara.dubois@" in old.query
    task = ScenarioGenerator(sim).generate(LIB[old.meta["scenario"]], old.level, "v8",
                                           "coh-guest-name")
    push = next(c for c in task.default_path.calls if c.tool == "send_push_notification")
    owner = world.people.by_email(push.args["recipient"]).name
    assert owner in task.query and owner in push.args["message"]


@pytest.mark.parametrize("rule", sorted(V6_SHIPPED))
def test_rule_fails_on_its_toolmaze_v6_counter_example(rule, corpus):
    task_id, said = V6_SHIPPED[rule]
    found = coherence.RULES[rule](get_task(task_id, "toolmaze-v6"), corpus, get_world(0, 3))
    assert any(said in p for p in found), (rule, found)


def test_a_good_night_scene_run_now_in_the_morning_is_refused(corpus):
    """c2-0093: home early, the cancelled schedule's "good night" scene run now, 11:00
    in Johannesburg; the same scene at 21:00 local time passes."""
    task = get_task("tmz-v6-c2-0093", "toolmaze-v6")
    assert coherence.scene_hours(task, corpus, get_world(0, 3)) == [
        "time: the 'good night' scene at 11:00 local time in Johannesburg"]
    data = get_task("tmz-v6-c4-0088", "toolmaze-v6").to_dict()
    for path in data["solutions"]:
        for call in path["calls"]:
            if call["tool"] == "schedule_scene":
                call["args"]["run_at"] = "2026-08-25T11:00:00Z"  # 21:00 in Melbourne
    assert coherence.scene_hours(Task.from_dict(data), corpus, get_world(0, 3)) == []


def test_a_monsoon_clear_day_is_refused_on_the_world_v6_was_built_on(corpus):
    """c2-0058: Mumbai "clear" on 26 August; edition 4's weather there is rainy."""
    task = get_task("tmz-v6-c2-0058", "toolmaze-v6")
    assert coherence.weather_condition(task, corpus, get_world(0, 3)) == [
        "weather: 'clear' with a 26.3 °C high in Mumbai on 2026-08-26"]
    assert coherence.weather_condition(task, corpus, get_world(0, 4)) == []


# (suite, the seed label its next build used) of each refused task, v6's and v7's
_REBUILT = [("toolmaze-v6", "v7", t) for t in sorted(set().union(*V6_REFUSED.values()))] + \
    [("toolmaze-v7", "v8", t) for t in sorted(set().union(*V7_REFUSED.values()))]


@pytest.mark.parametrize(("suite", "seed", "task_id"), _REBUILT)
def test_the_generator_builds_the_v6_and_v7_refused_scenarios_coherently(suite, seed, task_id,
                                                                      sim, corpus, world):
    """Each scenario a refused v6 or v7 task came from still builds, on the latest world."""
    old = get_task(task_id, suite)
    task = ScenarioGenerator(sim).generate(LIB[old.meta["scenario"]], old.level, seed,
                                           f"coh-{task_id}")
    assert coherence.problems(task, corpus, world) == []


@pytest.mark.parametrize("rule", sorted(V5_SHIPPED))
def test_rule_fails_on_its_toolmaze_v5_counter_example(rule, corpus, world):
    task_id, said = V5_SHIPPED[rule]
    found = coherence.RULES[rule](get_task(task_id, "toolmaze-v5"), corpus, world)
    assert any(said in p for p in found), (rule, found)


@pytest.mark.parametrize("task_id", sorted(set().union(*V5_REFUSED.values())))
def test_the_generator_builds_the_v5_refused_scenarios_coherently(task_id, sim, corpus, world):
    """Each scenario a v5 task of the new rules came from still builds, on another draw."""
    old = get_task(task_id, "toolmaze-v5")
    task = ScenarioGenerator(sim).generate(LIB[old.meta["scenario"]], old.level, "v6",
                                           f"coh-{task_id}")
    assert coherence.problems(task, corpus, world) == []


def test_a_second_stay_after_the_first_is_coherent(corpus, world):
    """c1-0001 with the second trip from 27 August, the day the first stay ends."""
    data = get_task("tmz-v5-c1-0001", "toolmaze-v5").to_dict()
    for path in data["solutions"]:
        for call in path["calls"]:
            if call["tool"] == "get_hotel_rate":
                call["args"]["check_in"] = "2026-08-27"
    assert coherence.stays_apart(Task.from_dict(data), corpus, world) == []


@pytest.mark.parametrize("rule", sorted(V4_SHIPPED))
def test_rule_fails_on_its_toolmaze_v4_counter_example(rule, corpus):
    """Read on the world the task was built on: its train id names the stations by the
    codes of that world (edition 7 gives stations codes of their own)."""
    task_id, said = V4_SHIPPED[rule]
    task = get_task(task_id, "toolmaze-v4")
    found = coherence.RULES[rule](task, corpus, get_world(0, edition_of(task)))
    assert any(said in p for p in found), (rule, found)


@pytest.mark.parametrize("task_id", sorted(V4_REFUSED["forecast_on_arrival"]))
def test_the_generator_builds_the_refused_scenarios_coherently(task_id, sim, corpus, world):
    """Each scenario a v4 task of the rule came from still builds, on another draw."""
    old = get_task(task_id, "toolmaze-v4")
    task = ScenarioGenerator(sim).generate(LIB[old.meta["scenario"]], old.level, "arrival",
                                           f"coh-{task_id}")
    assert coherence.problems(task, corpus, world) == []


def test_a_forecast_on_the_day_the_train_arrives_is_coherent(corpus, world):
    """The same c1-0091 with the forecast read for 1 September, the day the train
    reaches Rome, passes: the rule refuses the day, not the trip."""
    task = get_task("tmz-v4-c1-0091", "toolmaze-v4")
    data = task.to_dict()
    for path in data["solutions"]:
        for call in path["calls"]:
            if call["tool"] == "get_forecast_by_city":
                call["args"]["date"] = "2026-09-01"
    assert coherence.forecast_on_arrival(Task.from_dict(data), corpus, world) == []


@pytest.mark.parametrize("rule", sorted(COUNTER_EXAMPLES))
def test_rule_fails_on_its_counter_example(rule, corpus, world, monkeypatch):
    task_id, _ = COUNTER_EXAMPLES[rule]
    if rule in AS_BUILT:
        monkeypatch.setattr(*AS_BUILT[rule])
    found = coherence.RULES[rule](get_task(task_id), corpus, world)
    assert found, f"{rule} does not see what is wrong with {task_id}"


@pytest.fixture(scope="module")
def built(sim):
    """One task per counter-example's scenario, built by the generator now."""
    gen = ScenarioGenerator(sim)
    out = {}
    for rule, (task_id, _) in COUNTER_EXAMPLES.items():
        sc = LIB[get_task(task_id).meta["scenario"]]
        level = get_task(task_id).level
        out[rule] = gen.generate(sc, level, "coherence", f"coh-{rule}")
    return out


@pytest.mark.parametrize("rule", sorted(COUNTER_EXAMPLES))
def test_generator_builds_the_scenario_coherently(built, rule, corpus, world):
    assert coherence.problems(built[rule], corpus, world) == []


def test_generator_rejects_an_incoherent_draw(sim, monkeypatch):
    """The generator consults the rules: with a rule that denies everything, the
    scenario can no longer be built (the draw is rejected, not emitted)."""
    monkeypatch.setattr(coherence, "RULES", {"deny": lambda task, corpus, world: ["denied"]})
    sc = LIB[get_task("tmz-v3-c1-0055", "toolmaze-v3").meta["scenario"]]
    with pytest.raises(ScenarioBuildError, match="denied"):
        ScenarioGenerator(sim).generate(sc, "C1", "coherence", "coh-deny", draws=2)


def test_texting_scenarios_draw_mobiles(sim):
    """A person a texting task names, and any number it texts, is a mobile."""
    gen = ScenarioGenerator(sim)
    for sid in ("gen-news-digest-for-grandparent", "gen-check-friends-weather-claim"):
        task = gen.generate(LIB[sid], "C1", "mobiles", "coh-sms")
        assert coherence.sms_mobile(task, sim.corpus, sim.world) == []


def test_is_mobile_follows_the_numbering_plans():
    assert is_mobile("+447700900123") and is_mobile("+33612345678") and is_mobile("+61412345678")
    assert not is_mobile("+44360024212")  # UK 03: non-geographic landline
    assert not is_mobile("+1252632051")  # NANP: one digit short
    assert not is_mobile("+33112345678")  # Paris landline
    assert not is_mobile("+99912345678")  # no plan


def test_v4_weather_oddities_are_seen_on_the_weather_they_were_built_on(corpus, world,
                                                                      monkeypatch):
    """The v4 review's 26.8 °C late-August high in Miami (normal 32 °C: the tolerance is
    4 °C now, 8 let it through) and the play-test's fog at 27.7 °C in Lisbon; on the
    world's weather now neither task has a problem."""
    miami, lisbon = get_task("tmz-v4-c4-0075"), get_task("tmz-v4-c4-0095")
    assert coherence.climate(miami, corpus, world) == []
    assert coherence.weather_condition(lisbon, corpus, world) == []
    monkeypatch.setattr("toolmaze_gym.world.geo.Geo.weather", _as_built_weather)
    assert coherence.climate(miami, corpus, world) == [
        "weather: a 26.8 °C high in Miami on 2026-08-30, where the month's normal high "
        "is 32 °C"]
    assert set(coherence.weather_condition(lisbon, corpus, world)) == {
        "weather: 'fog' with a 31.1 °C high in Lisbon on 2026-08-18"}  # 27.7 °C at the time


def test_climate_normals_cover_every_city_and_hemisphere():
    normals = {k: v for k, v in load_data("climate.json").items() if not k.startswith("_")}
    cities = load_data("cities.json")
    assert {c[0] for c in cities} == set(normals)
    for name, _, _, _, _, lat, *_ in cities:
        row = normals[name]
        assert len(row) == 12
        if abs(lat) > 20:  # seasons: July is summer in the north, winter in the south
            assert (row[6] > row[0]) == (lat > 0), name


def test_normal_high_reads_the_month():
    assert coherence.normal_high("Toronto", "2026-08-26") == 26
    assert coherence.normal_high("Sydney", "2026-08-26") == 19
    assert coherence.normal_high("Atlantis", date.today().isoformat()) is None


def test_rail_trip_homes_are_where_the_train_starts_or_ends():
    """The away-mode trip leaves from home; the guest's train arrives at our home."""
    for sid, station in (("iot-rail-trip-away-mode", "origin"),
                         ("iot-guest-by-train-room-ready", "destination")):
        assert LIB[sid].param_by_name["site"].derived_from == station


def test_default_suite_is_coherent(corpus, world):
    """toolmaze-v3 was built before the coherence rules (its counter-examples are above);
    the default suite, built by this generator, must pass."""
    suite = load_suite()
    refused = {"tmz-v4-": V4_REFUSED, "tmz-v5-": V5_REFUSED, "tmz-v6-": V6_REFUSED,
               "tmz-v7-": V7_REFUSED, "tmz-v8-": V8_REFUSED,
               "tmz-v9-": V9_REFUSED,
               "tmz-v11-": V11_REFUSED}.get(suite[0].id.rsplit("-", 2)[0] + "-", {})
    known = {i for ids in refused.values() for i in ids}
    built_on = get_world(0, edition_of(suite[0]))  # the world the suite was built on
    bad = {t.id: p for t in suite if (p := coherence.problems(t, corpus, built_on))}
    assert set(bad) == known, json.dumps({k: v for k, v in bad.items() if k not in known},
                                         indent=1, ensure_ascii=False)[:3000]


# The blind review of a draft toolmaze-v4 (tests/data/reviews/v4-draft): tasks of the same
# scenarios, built by the generator before the world and library were fixed.
REVIEW_FIXTURES = Path(__file__).parents[1] / "data" / "coherence"
REVIEW_COUNTER_EXAMPLES = {
    # c2-0046 / c2-0078: a per diem of 145004.46 KRW a day (the won has no minor unit)
    "per-diem-krw.json": ("amount_precision", "145004.46 KRW"),
    # c3-0019 / c3-0070: "Berlin sales tax", "Auckland sales tax"
    "vat-as-sales-tax.json": ("tax_name", "'sales tax'"),
    # c4-0026: "I'm torn between buying 28 BTC and 60 shares of ..." (800-fold)
    "crypto-or-shares-btc.json": ("comparable_choice", "fold gap"),
}


@pytest.mark.parametrize("name", sorted(REVIEW_COUNTER_EXAMPLES))
def test_rule_fails_on_the_v4_draft_reviews_counter_example(name, corpus, world):
    rule, said = REVIEW_COUNTER_EXAMPLES[name]
    task = Task.from_json((REVIEW_FIXTURES / name).read_text())
    found = coherence.RULES[rule](task, corpus, world)
    assert any(said in p for p in found), (rule, found)


def test_zero_decimal_currencies_come_in_whole_units(world):
    """The world states yen and won in whole units: per diems, fares, balances."""
    assert round_money(145004.46, "KRW") == 145004 and round_money(100.494, "EUR") == 100.49
    for name in ("Seoul", "Tokyo", "Osaka"):
        daily = world.travel.per_diem(world.travel.place(name))
        assert daily == int(daily), (name, daily)
    zero = [a for a in world.markets.accounts if minor_units(a.currency) == 0]
    assert zero and all(a.opening_balance == int(a.opening_balance) for a in zero)
    listed = [c for c in world.markets.companies if minor_units(c.currency) == 0]
    quotes = [world.markets.quote(c) for c in listed]
    assert listed and all(q.price == int(q.price) and q.previous_close == int(q.previous_close)
                          for q in quotes)


def test_tax_names_fit_the_country(corpus, world):
    """'sales tax' is said only for a city taxed by one (US, Canada), VAT only elsewhere."""
    def task(query: str, city: str) -> Task:
        t = Task.from_json((REVIEW_FIXTURES / "vat-as-sales-tax.json").read_text())
        calls = [c for p in t.solutions for c in p.calls if "tax" in c.tool or "vat" in c.tool]
        for c in calls:
            c.args["city"] = city
        t.query = query
        return t

    assert coherence.tax_name(task("the Auckland sales tax", "Auckland"), corpus, world)
    assert coherence.tax_name(task("the VAT in Seattle", "Seattle"), corpus, world)
    assert not coherence.tax_name(task("sales tax in Seattle", "Seattle"), corpus, world)
    assert not coherence.tax_name(task("the German VAT", "Berlin"), corpus, world)
    assert not coherence.tax_name(task("the tax due in Berlin", "Berlin"), corpus, world)
@pytest.mark.parametrize("rule,case", [(r, i) for r, rows in sorted(V4_DRAFT.items())
                                       for i in range(len(rows))])
def test_rule_fails_on_the_draft_v4_review(rule, case, corpus, world):
    tid, why, task = V4_DRAFT[rule][case]
    assert coherence.RULES[rule](task, corpus, world), f"{rule} misses {tid}: {why}"


# scenario -> (level, the round-3 rules its draws once broke in the draft v4 review)
V4_SCENARIOS = {
    "tr-check-in-tell-pickup": ("C3", ("flight_carriers", "local_pickup")),
    "tr-pickup-driver-local-arrival": ("C3", ("flight_carriers", "local_pickup")),
    "tr-two-guests-one-driver": ("C4", ("flight_carriers", "local_pickup")),
    "tr-err-beach-week-flight-hotel-sunglasses": ("C4", ("flight_carriers", "beach_trips")),
    "tr-err-ski-trip-flight-car-and-sweater": ("C4", ("flight_carriers", "ski_trips")),
    "off-channel-brief-for-manager": ("C1", ("channel_messages",)),
    # v4-draft2: action items pulled out of a post that holds none (c4-0029, c4-0097), a
    # ticket on an office chore in #security (c2-0030)
    "off-retro-room-notes-and-invite": ("C4", ("channel_action_items", "channel_messages")),
    "off-alert-log-to-assigned-ticket": ("C2", ("channel_action_items", "channel_messages")),
}


@pytest.mark.parametrize("sid", sorted(V4_SCENARIOS))
def test_generator_builds_the_reviewed_scenarios_coherently(sim, sid):
    """The scenario still builds (a few seeds: two cheapest flights both on routes their
    carriers fly are a rarer draw), and what it builds keeps the rules."""
    level, rules = V4_SCENARIOS[sid]
    gen, task, why = ScenarioGenerator(sim), None, ""
    for k in range(4):
        try:
            task = gen.generate(LIB[sid], level, f"v4r-{k}", f"coh-{sid}-{k}")
            break
        except ScenarioBuildError as exc:
            why = str(exc)
    assert task is not None, why
    for rule in rules:
        assert coherence.RULES[rule](task, sim.corpus, sim.world) == [], (sid, task.query)
DRAFT_C4_0072 = Path(__file__).parents[1] / "data" / "coherence" / "v4-draft-c4-0072.json"


def test_office_hours_fails_on_the_draft_v4_welcome_meeting(corpus, world):
    """The draft v4 review's c4-0072: the user's first free slot, 08:30Z, is 01:30 in
    the Vancouver office where the room and the welcome meeting are booked."""
    task = Task.from_json(DRAFT_C4_0072.read_text())
    found = coherence.office_hours(task, corpus, world)
    assert any("01:30 local time in Vancouver" in p for p in found), found


def test_office_hours_reads_weekdays_and_local_hours(corpus, world):
    city = world.geo.city("Vancouver")

    def outside(utc: str, minutes: int = 60) -> str | None:
        return coherence._outside_hours(city, coherence._instant(utc), minutes)

    assert outside("2026-08-25T16:00:00Z") is None  # 09:00 PDT, a Tuesday
    assert "Saturday" in outside("2026-08-22T16:00:00Z")
    assert outside("2026-08-26T01:00:00Z") is None  # 18:00-19:00 PDT
    assert outside("2026-08-26T01:30:00Z")  # 18:30-19:30 PDT
    assert "01:30 local time" in outside("2026-08-25T08:30:00Z")


def test_workday_params_are_drawn_on_weekdays(sim):
    """A meeting's date is drawn Monday to Friday (office_hours would reject the rest)."""
    from toolmaze_gym import hashing

    sc = LIB["tr-offsite-two-cities"]
    assert sc.param_by_name["decide_on"].workday
    gen = ScenarioGenerator(sim)
    days = [gen.draw_params(sc, hashing.Stream("workday", k))["decide_on"] for k in range(20)]
    assert all(date.fromisoformat(d).weekday() < 5 for d in days), days


def test_workday_is_for_dates_only():
    from toolmaze_gym.tasks.scenarios import parse_file

    src = Path(__file__).parents[1] / "data" / "scope" / "c4-0072-new-hire.toml"
    old = 'capacity = { type = "quantity", range = [3, 8] }'
    text = src.read_text().replace(old, old[:-2] + ", workday = true }")
    assert text != src.read_text()
    _, problems = parse_file(src.name, text)
    assert any("workday: true, for a date" in p for p in problems)


def test_dividend_arithmetic_is_on_a_dividend_payer(sim):
    """A scenario that computes with a dividend per share states that the stock pays one
    (premise), so no task works out withholding on a dividend of 0 (v4-draft2 c2-0052),
    and what the generator builds has a positive dividend."""
    computing = [sc for sc in LIB.values() for st in sc.steps for a in st.args
                 if a.kind == "field" and a.ref.endswith(".dividend_per_share")]
    assert computing
    gen = ScenarioGenerator(sim)
    for sc in computing:
        ref = next(a.ref for st in sc.steps for a in st.args
                   if a.ref.endswith(".dividend_per_share"))
        assert f"{ref} > 0" in {p.text for p in sc.premises}, sc.id
        task = gen.generate(sc, sc.levels[0] if sc.levels else "C3", "dividends", "coh-div")
        dps = [c.response[k] for p in task.solutions for c in p.calls
               for k in ("dividend_per_share", "DividendPerShare") if k in (c.response or {})]
        assert dps and min(dps) > 0, (sc.id, dps)


def test_an_action_item_asks_someone_to_do_something_by_a_time():
    assert coherence.is_action_item("Please restart the payments worker before 18:00 UTC today.")
    assert coherence.is_action_item("Reminder to submit expense reports by Friday.")
    assert not coherence.is_action_item("Who owns the Q3 forecast sheet?")
    assert not coherence.is_action_item("Heads-up: VPN maintenance tonight.")
    assert not coherence.is_action_item("Can someone review my PR?")  # no time
    posts = load_data("office.json")["chat_messages"]
    assert sum(map(coherence.is_action_item, posts)) >= 4, "too few posts to draw one from"
