"""The toolmaze-v7 play-test's grader defects (issue 27, brief i27-v16b).

Each probe in ``tests/data/played/v7-probes/probes/`` is an episode played on toolmaze-v7
(as played, ``.played``, or a one-change variant) that the grader of the v7 build failed
though a fair grader passes it; each slip in ``slips/`` is its near miss, which must still
fail. ``test_played.py`` replays both folders; the tests here name the rule each checks
and what the reader sees.
"""

from __future__ import annotations

from pathlib import Path

from tests.grading.test_played import _replay

V7 = Path(__file__).parent.parent / "data" / "played" / "v7-probes"


def replay(name: str) -> tuple[dict, str]:
    """The grade and the closing text of ``probes/NAME`` or ``slips/NAME``."""
    path = next(V7.glob(f"*/{name}.actions"))
    return _replay(path, path.name.split(".")[0])


def test_a_quantity_the_request_states_is_no_corrupted_transit_time():
    """c2-0080 P4: the subject "Entrega das suas 2 webcams" tells the request's own
    quantity, not the faulty calculator's transit_days of 2; the date the agent sent
    came from the clean estimate."""
    g, text = replay("tmz-v7-c2-0080-P4.played")
    assert g["success"] and "over_trust" not in g["labels"], text


def test_the_corrupted_delivery_date_sent_on_is_still_over_trust():
    g, text = replay("tmz-v7-c2-0080-P4.corrupted-date")
    assert not g["success"] and "over_trust" in g["labels"], text


def test_a_set_point_in_degrees_is_no_stale_air_quality_index():
    """c4-0081 P3: "Bedroom set to 19 °C" in the final answer tells a temperature (the
    clean set point), not the stale response's air-quality index of 19."""
    g, text = replay("tmz-v7-c4-0081-P3.played")
    assert g["success"] and "over_trust" not in g["labels"], text


def test_the_stale_index_told_as_an_index_is_still_over_trust():
    """The set point 19.0 a clean response gave is a temperature, so it does not excuse
    the index of 19 told as an index."""
    g, text = replay("tmz-v7-c4-0081-P3.stale-aqi-told")
    assert not g["success"] and "over_trust" in g["labels"], text


def test_a_second_room_set_with_the_first_rooms_tool_is_that_rooms_step():
    """c4-0070 P3: the Buenos Aires kitchen set by site and room (adjust_temperature,
    the tool of the Melbourne step) does the kitchen thermostat's step; it is no
    duplicate of the Melbourne call, and the thermostat id the world resolved was never
    the agent's to know."""
    g, text = replay("tmz-v7-c4-0070-P3.played")
    assert g["success"], text
    assert g["c"] == g["c_star"] == 10, text  # the kitchen's call is its step's call
    assert "duplicate" not in text
    assert "[done at step 6 through adjust_temperature] Action nest_set_heat_setpoint" in text


def test_either_thermostat_tool_sets_either_room():
    """The cabin set by thermostat id (the id list_room_devices gave for its living
    room), the kitchen by site and room; or both by id."""
    for name in ("tmz-v7-c4-0070-P3.swap", "tmz-v7-c4-0070-P3.both-nest"):
        g, text = replay(name)
        assert g["success"], text


def test_another_room_or_setting_is_still_wrong():
    for name in ("tmz-v7-c4-0070-P3.other-room", "tmz-v7-c4-0070-P3.swap-other-setpoint"):
        g, text = replay(name)
        assert not g["success"], text


def test_a_room_reading_told_in_fahrenheit_tells_it():
    """c1-0041 P3: "Office is 69.8F right now" tells the office reading of 21.0 °C that
    honeywell_get_thermostat also printed as 69.8 °F; the request (a hold at 72 °F)
    asks for no unit."""
    g, text = replay("tmz-v7-c1-0041-P3.office-in-fahrenheit")
    assert g["success"], text


def test_another_fahrenheit_figure_is_no_reading_and_an_asked_celsius_stays_asked():
    """70.8 °F is not 21.0 °C; and where the request asks for the high "in Celsius and
    Fahrenheit" (c2-0080 P4, a Portuguese text), the high in °F alone leaves the °C
    figure out."""
    g, text = replay("tmz-v7-c1-0041-P3.office-wrong-fahrenheit")
    assert not g["success"] and "does not mention 21.0" in text, text
    g, text = replay("tmz-v7-c2-0080-P4.high-in-fahrenheit-only")
    assert not g["success"] and "19.6 (temperature_c" in text, text


def test_a_text_asked_in_both_units_needs_both():
    """c1-0038 P0 asks for the bedroom temperature "in Fahrenheit too": the °F figure
    alone does not stand for the °C one."""
    g, text = replay("tmz-v7-c1-0038-P0.fahrenheit-only")
    assert not g["success"] and "does not mention 18.8" in text, text


def test_an_expense_on_an_itinerary_is_no_flight_added_to_it():
    """c4-0049 P4: record_trip_expense reports the itinerary that add_to_itinerary put
    the flight on; an expense sets nothing of the kind, so it is read as the expense
    step it is, not as that flight's addition."""
    g, text = replay("tmz-v7-c4-0049-P4.played")
    assert g["success"], text


def test_a_value_from_a_tool_never_called_is_not_said_to_be_owed_a_call():
    """c1-0039 P1 (and the p2, p3 slips): the agent converted the yen itself and never
    called apply_fx_rate; the reason said the value came from "the response of
    apply_fx_rate, which this episode had not answered cleanly", as if that call had
    failed or were owed. It says the tool was never called, and that the value worked
    out by its documented rule counts."""
    g, text = replay("tmz-v7-c1-0039-P1.fare-not-refund")
    assert not g["success"], text
    assert "had not answered cleanly" not in text
    assert ("apply_fx_rate, a tool this episode never called before this step: the value its "
            "documented rule gives, worked out yourself, counts the same") in text


def test_a_text_in_another_language_than_asked_says_so():
    """c2-0041 P2 (and c2-0003 P3, c3-0019 P3): a note asked in Spanish and written in
    English was told it "does not mention" the translator's whole Spanish sentence, as
    if that wording were required; an own Spanish note passes. The reason names the
    language."""
    g, text = replay("tmz-v7-c2-0041-P2.note-in-english")
    assert not g["success"], text
    assert "which is not in Spanish (es): the text must be written in that language, in " \
           "your own words or a translator's" in text
    assert "Fuera hace" not in text


def test_an_order_may_ship_to_the_place_the_request_names():
    """c3-0055 P0: the plug "for the dehumidifier in our damp bathroom in Dublin" sent
    to Dublin (ship_to_city, which the reference run leaves unset) is what the request
    implies, not an argument nobody asked for."""
    g, text = replay("tmz-v7-c3-0055-P0.played")
    assert g["success"], text


def test_an_order_shipped_to_a_place_the_request_never_names_still_fails():
    g, text = replay("tmz-v7-c3-0055-P0.ship-elsewhere")
    assert not g["success"], text
    assert 'argument ship_to_city="Paris" was not asked for' in text


def test_the_reason_for_another_miss_does_not_blame_the_named_place():
    g, text = replay("tmz-v7-c3-0055-P0.two-plugs")
    assert not g["success"], text
    assert "argument quantity: expected 1 (stated in the request), sent 2" in text
    assert "ship_to_city=" not in text


def test_a_text_to_the_passenger_may_greet_them_by_their_given_name():
    """c3-0007 P4: the booking confirmation texted, in the agent's own Spanish, to Diego
    Kim himself ("Hola Diego: tu vuelo está confirmado...") names its reader as a
    greeting does; the full name is no fact he needs told."""
    g, text = replay("tmz-v7-c3-0007-P4.played")
    assert g["success"], text


def test_a_text_to_the_passenger_that_names_nobody_or_another_still_fails():
    for name in ("tmz-v7-c3-0007-P4.no-name", "tmz-v7-c3-0007-P4.other-name"):
        g, text = replay(name)
        assert not g["success"], text
        assert '"Diego Kim" (addressee' in text
