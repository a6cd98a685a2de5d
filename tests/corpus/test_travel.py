"""Travel domain: offers resolve from their ids, bookings change what later calls see,
and providers of one capability agree."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.corpus.helpers import call, status_of
from toolmaze_gym.corpus import Simulator, load_corpus
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import World

QUOTA = {"Source": 14, "Processor": 8, "Action": 23}
GROUP_QUOTA = {"one_to_one": 7, "one_to_n": 4, "n_to_n": 9}


@pytest.fixture(scope="module")
def world() -> World:
    return World(5)


@pytest.fixture(scope="module")
def sim(world: World) -> Simulator:
    return Simulator(world=world)


def day(world: World, days: int) -> str:
    return (world.now + timedelta(days=days)).strftime("%Y-%m-%d")


def person(world: World, i: int) -> str:
    return world.people.names[i]


def test_travel_counts_match_quota() -> None:
    c = load_corpus()
    tools = c.by_domain("Travel")
    assert {cat: sum(t.category == cat for t in tools) for cat in QUOTA} == QUOTA
    groups = [g for g in c.groups if g.domain == "Travel"]
    assert {k: sum(g.kind == k for g in groups) for k in GROUP_QUOTA} == GROUP_QUOTA
    assert all(g.id.startswith("tr_") for g in groups)


# ---------------------------------------------------------------- flights


def test_flight_ids_resolve_to_the_same_facts(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    found = call(sim, st, "search_flights", origin="Lisbon", destination="Seoul",
                 date=day(world, 20))
    fid = found["flight_id"]
    assert fid.endswith(day(world, 20).replace("-", "")) and "-LISICN-" in fid
    fare = call(sim, st, "get_fare", flight_id=fid)
    assert fare["total_fare"] == found["fare"] and fare["currency"] == "EUR"
    status = call(sim, st, "get_flight_status", flight_id=fid)
    assert status["scheduled_arrival"] == found["arrival"]
    # Any offer of the day resolves, not only the cheapest one.
    lis, icn = world.travel.place("Lisbon"), world.travel.place("Seoul")
    for f in world.travel.flights(lis, icn, day(world, 20)):
        assert call(sim, st, "get_fare", flight_id=f.flight_id)["total_fare"] == f.fare
    bogus = fid.replace("-LISICN-", "-LISCDG-")
    assert status_of(sim, st, "get_fare", flight_id=bogus) == 404


def test_same_city_and_past_dates_are_rejected(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    assert status_of(sim, st, "search_flights", origin="Paris", destination="paris",
                     date=day(world, 3)) == 422
    assert status_of(sim, st, "search_flights", origin="Paris", destination="Rome",
                     date=day(world, -2)) == 422


def test_holds_take_seats_until_the_flight_sells_out(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    fid = call(sim, st, "search_flights", origin="Madrid", destination="Oslo",
               date=day(world, 9))["flight_id"]
    quote = call(sim, st, "get_fare", flight_id=fid)
    for left in range(quote["seats_left"], 0, -1):
        assert call(sim, st, "get_fare", flight_id=fid)["seats_left"] == left
        call(sim, st, "hold_seat", fare_quote_id=quote["fare_quote_id"])
    assert call(sim, st, "get_fare", flight_id=fid)["seats_left"] == 0
    assert status_of(sim, st, "hold_seat", fare_quote_id=quote["fare_quote_id"]) == 409


def test_hold_then_ticket_equals_direct_ticket(sim: Simulator, world: World) -> None:
    results = []
    for path in ("hold", "direct"):
        st = EpisodeState()
        fid = call(sim, st, "find_cheapest_flight", from_city="Berlin", to_city="Dubai",
                   departure_date=day(world, 30))["flight"]
        fq = call(sim, st, "get_fare", flight_id=fid)["fare_quote_id"]
        if path == "hold":
            hold = call(sim, st, "hold_seat", fare_quote_id=fq)
            res = call(sim, st, "book_flight", hold_id=hold["hold_id"],
                       passenger_name=person(world, 4))
            assert status_of(sim, st, "book_flight", hold_id=hold["hold_id"],
                             passenger_name=person(world, 4)) == 409
        else:
            res = call(sim, st, "book_flight_offer", fare_quote_id=fq,
                       passenger_name=person(world, 4))
        results.append((res["booking_ref"], res["fare"]))
    assert results[0] == results[1]


def test_cancellation_refunds_under_fare_rules_and_frees_the_seat(sim: Simulator,
                                                                  world: World) -> None:
    st = EpisodeState()
    hold = call(sim, st, "search_fares_with_hold", origin="Toronto", destination="Miami",
                date=day(world, 40))
    fq = "FQ-" + hold["flight_id"]
    seats = call(sim, st, "get_fare", flight_id=hold["flight_id"])["seats_left"]
    pnr = call(sim, st, "book_flight", hold_id=hold["hold_id"],
               passenger_name=person(world, 1))["booking_ref"]
    res = call(sim, st, "cancel_flight_reservation", record_locator=pnr)
    assert res["refund.refund_total"] == pytest.approx(res["refund.original_fare"] * 0.85,
                                                abs=0.011)
    assert call(sim, st, "get_fare", flight_id=hold["flight_id"])["seats_left"] == seats + 1
    assert status_of(sim, st, "cancel_pnr", pnr=pnr) == 409
    assert status_of(sim, st, "check_in_online", booking_ref=pnr) == 409
    assert call(sim, st, "hold_seat", fare_quote_id=fq)["status"] == "held"


def test_check_in_is_stable_and_providers_agree(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    h = call(sim, st, "search_fares_with_hold", origin="Sydney", destination="Auckland",
             date=day(world, 12))
    pnr = call(sim, st, "book_flight", hold_id=h["hold_id"],
               passenger_name=person(world, 2))["booking_ref"]
    first = call(sim, st, "check_in_online", booking_ref=pnr)
    again = call(sim, st, "checkin_passenger", record_locator=pnr)
    assert first["seat"] == again["boarding.seat_assignment"]
    assert first["boarding_pass_id"] == again["boarding.boarding_pass"]
    assert status_of(sim, st, "check_in_online", booking_ref="ZZZZZZ") == 404


# ---------------------------------------------------------------- hotels, rail, cars


def test_rooms_sell_out_and_search_moves_on(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    check_in = day(world, 15)
    first = call(sim, st, "search_hotels", city="Prague", check_in=check_in, nights=2)
    hid = first["hotel_id"]
    for left in range(first["rooms_left"], 0, -1):
        rate = call(sim, st, "get_hotel_rate", hotel_id=hid, check_in=check_in, nights=2)
        assert rate["rooms_left"] == left
        call(sim, st, "book_hotel", hotel_id=hid, check_in=check_in, nights=2,
             guest_name=person(world, left))
    assert call(sim, st, "get_hotel_rate", hotel_id=hid, check_in=check_in,
                nights=2)["rooms_left"] == 0
    assert status_of(sim, st, "reserve_room", property_id=hid, arrival_date=check_in,
                     length_of_stay=2, guest=person(world, 9)) == 409
    # A stay overlapping one sold-out night is refused too; a later stay is not.
    assert status_of(sim, st, "book_hotel", hotel_id=hid, check_in=day(world, 16), nights=3,
                     guest_name=person(world, 9)) == 409
    call(sim, st, "book_hotel", hotel_id=hid, check_in=day(world, 17), nights=1,
         guest_name=person(world, 9))
    after = call(sim, st, "search_hotels", city="Prague", check_in=check_in, nights=2)
    assert after["hotel_id"] != hid and after["total_price"] >= first["total_price"]


def test_search_and_book_equals_instant_booking(sim: Simulator, world: World) -> None:
    out = []
    for path in ("two-step", "instant"):
        st = EpisodeState()
        args = {"check_in": day(world, 25), "nights": 4, "guest_name": person(world, 7)}
        if path == "two-step":
            hid = call(sim, st, "search_hotels", city="Singapore", check_in=args["check_in"],
                       nights=4)["hotel_id"]
            res = call(sim, st, "book_hotel", hotel_id=hid, **args)
        else:
            res = call(sim, st, "instant_book_hotel", city="Singapore", **args)
        out.append((res["reservation_id"], res["total_price"], res["currency"]))
    assert out[0] == out[1] and out[0][2] == "SGD"


def test_rail_journey_booking_matches_search_then_book(sim: Simulator, world: World) -> None:
    a, b, d = "London St Pancras", "Paris Gare de Lyon", day(world, 8)
    st = EpisodeState()
    found = call(sim, st, "search_trains", origin=a, destination=b, date=d)
    assert found["operator"] == "Eurostar" and found["destination_city"] == "Paris"
    two_step = call(sim, st, "book_train", train_id=found["train_id"],
                    passenger_name=person(world, 3))
    one_call = call(sim, EpisodeState(), "book_rail_journey", origin=a, destination=b, date=d,
                    passenger_name=person(world, 3))
    assert two_step["ticket_id"] == one_call["ticket_id"]
    assert status_of(sim, st, "search_trains", origin=a, destination=a, date=d) == 422


def test_car_offer_ids_resolve(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    offer = call(sim, st, "search_car_rentals", city="Johannesburg", pickup_date=day(world, 5),
                 days=6)
    res = call(sim, st, "reserve_rental_car", offer_id=offer["offer_id"],
               driver_name=person(world, 0))
    assert res["total_price"] == offer["total_price"] and res["currency"] == "ZAR"
    assert status_of(sim, st, "reserve_rental_car", offer_id="CAR-JNB-20200101-06-ECMR-HZ",
                     driver_name=person(world, 0)) == 404


# ---------------------------------------------------------------- trips


def test_itinerary_collects_bookings_and_shares_them(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    it = call(sim, st, "create_itinerary", title="Seoul kickoff")["itinerary_id"]
    for i in range(2):
        h = call(sim, st, "search_fares_with_hold", origin="Tokyo", destination="Seoul",
                 date=day(world, 3 + i))
        pnr = call(sim, st, "book_flight", hold_id=h["hold_id"],
                   passenger_name=person(world, i))["booking_ref"]
        added = call(sim, st, "add_to_itinerary", itinerary_id=it, booking_ref=pnr)
        assert added["item_count"] == i + 1
    assert status_of(sim, st, "add_to_itinerary", itinerary_id=it, booking_ref=pnr) == 409
    shared = call(sim, st, "tripit_share_trip", trip_id=it,
                  recipient_email=world.people.emails[5])
    assert shared["object_count"] == 2
    assert status_of(sim, st, "email_itinerary", itinerary_id="ITN-AAAAAAAA",
                     to=world.people.emails[5]) == 404


def test_trip_expenses_keep_a_running_total(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    it = call(sim, st, "create_itinerary", title="Berlin fair")["itinerary_id"]
    totals = [call(sim, st, "record_trip_expense", itinerary_id=it, amount=a, currency="EUR",
                   description="taxi")["trip_total"] for a in (12.5, 30.0, 7.25)]
    assert totals == [12.5, 42.5, 49.75]
    other = call(sim, st, "record_trip_expense", itinerary_id=it, amount=10, currency="USD",
                 description="tip")
    assert other["previous_total"] == 0 and other["trip_total"] == 10


def test_visa_rules(sim: Simulator) -> None:
    st = EpisodeState()
    assert call(sim, st, "get_visa_requirements", passport_country="FR",
                destination_country="DE")["visa_required"] is False
    assert call(sim, st, "get_visa_requirements", passport_country="JP",
                destination_country="JP")["visa_type"].startswith("citizen")
    a = call(sim, st, "get_visa_requirements", passport_country="IN", destination_country="US")
    b = call(sim, st, "check_visa_requirement", nationality="in", destination="us")
    assert a["visa_required"] is b["requirement.visa_needed"] is True
    assert a["max_stay_days"] == b["requirement.allowed_stay_days"]


def test_calculators_agree_with_flight_facts(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    f = call(sim, st, "search_flights", origin="Mumbai", destination="London",
             date=day(world, 11))
    arr = call(sim, st, "calculate_arrival_time", departure=f["departure"],
               duration_minutes=f["duration_minutes"])
    assert arr["arrival"] == f["arrival"]
    e1 = call(sim, st, "estimate_flight_emissions", distance_km=f["distance_km"], passengers=3)
    e2 = call(sim, st, "climatiq_flight_estimate", distance=f["distance_km"], passengers=3)
    assert e1["co2_kg"] == e2["estimate.co2e"] > 0
    split = call(sim, st, "split_trip_cost", total_amount=f["fare"], travellers=4)
    share = call(sim, st, "calculate_cost_share", amount=f["fare"], people=4)
    assert split["per_person"] == share["split.share"] == round(f["fare"] / 4, 2)
    assert status_of(sim, st, "split_trip_cost", total_amount=10, travellers=0) == 422


def test_trips_booked_before_the_episode(sim: Simulator, world: World) -> None:
    st = EpisodeState()
    iid = next(iter(world.travel.itineraries))
    trip = call(sim, st, "get_itinerary", itinerary_id=iid)
    assert trip["item_count"] == 1 and trip["booking_status"] == "ticketed"
    pnr = trip["booking_ref"]
    assert world.travel.bookings[pnr].passenger == trip["passenger_name"]
    board = call(sim, st, "issue_boarding_pass", pnr=pnr)
    assert call(sim, st, "get_itinerary", itinerary_id=iid)["booking_status"] == "checked_in"
    call(sim, st, "cancel_booking", booking_ref=pnr)
    assert call(sim, st, "get_itinerary", itinerary_id=iid)["booking_status"] == "cancelled"
    assert board["flight_id"] == trip["flight_id"]
    # The change lives in the episode, not in the world.
    fresh = call(sim, EpisodeState(), "get_itinerary", itinerary_id=iid)
    assert fresh["booking_status"] == "ticketed"
    other = next(r for r in world.travel.bookings if r != pnr)
    assert call(sim, st, "add_to_itinerary", itinerary_id=iid,
                booking_ref=other)["item_count"] == 2
    empty = call(sim, st, "create_itinerary", title="Empty trip")["itinerary_id"]
    assert status_of(sim, st, "get_itinerary", itinerary_id=empty) == 409


def test_worlds_differ_by_seed_and_repeat_by_seed() -> None:
    def cheapest(seed: int) -> tuple[str, float]:
        w = World(seed)
        d = (w.now + timedelta(days=10)).strftime("%Y-%m-%d")
        f = w.travel.cheapest_flight(w.travel.place("Paris"), w.travel.place("Rome"), d)
        return f.flight_id[:6], f.fare

    assert cheapest(11) == cheapest(11)
    assert len({cheapest(s) for s in range(6)}) > 1
