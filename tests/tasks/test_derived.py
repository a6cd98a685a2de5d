"""Derived params: a fact of the record another param names, never a second draw."""

from __future__ import annotations

import pytest

from toolmaze_gym.tasks.derived import DERIVATIONS, DerivationError, derive
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.world import get_world

WORLD = get_world()


def _first(mapping):
    return sorted(mapping)[0]


def test_an_order_gives_its_product_by_name_and_by_id():
    commerce = WORLD.commerce
    oid = _first(commerce.orders)
    product = commerce.by_id(commerce.orders[oid].lines[0][0])
    assert derive("product_name", "shop_order_id", oid, WORLD) == product.name
    assert derive("product_id", "shop_order_id", oid.lower(), WORLD) == product.product_id


def test_an_order_gives_its_home_buyer_and_a_neighbour_there():
    """toolmaze-v11's two parcels for one neighbour: the earlier order names the home the
    new one ships to, the account that placed it and a mobile of that country (v10
    c4-0043 shipped to Prague and texted Oslo's weather to a Danish number)."""
    from toolmaze_gym.tasks.coherence import phone_countries

    commerce, geo = WORLD.commerce, WORLD.geo
    for oid in sorted(commerce.orders)[:20]:
        order = commerce.orders[oid]
        city = derive("city_name", "shop_order_id", oid, WORLD)
        assert city == order.destination
        assert derive("email", "shop_order_id", oid, WORLD) == order.email
        phone = derive("phone", "shop_order_id", oid, WORLD)
        local = [n for n in WORLD.people.mobiles
                 if geo.city(city).country_code in phone_countries(n)]
        assert phone in (local or WORLD.people.mobiles)
    with pytest.raises(DerivationError):
        derive("city_name", "shop_order_id", "SO-NOSUCH00", WORLD)


def test_records_give_their_customer_payee_home_and_stock():
    rec, people = WORLD.records, WORLD.people
    inv = rec.invoices[_first(rec.invoices)]
    pay = rec.payments[_first(rec.payments)]
    auto = rec.automations[_first(rec.automations)]
    alert = rec.alerts[_first(rec.alerts)]
    assert derive("person_name", "invoice_id", inv.invoice_id, WORLD) == \
        people.by_email(inv.customer_email).name
    assert derive("person_name", "payment_id", pay.payment_id, WORLD) == \
        people.by_email(pay.recipient).name
    assert derive("city_name", "automation_id", auto.schedule_id, WORLD) == auto.site
    assert derive("stock_symbol", "price_alert_id", alert.alert_id, WORLD) == alert.symbol


def test_an_itinerary_gives_the_city_its_flight_lands_in():
    travel = WORLD.travel
    iid = _first(travel.itineraries)
    flight = travel.flight(travel.bookings[travel.itineraries[iid].items[0]].flight_id)
    assert derive("city_name", "itinerary_id", iid, WORLD) == flight.destination.city.name


def test_an_itinerary_gives_its_traveller_and_the_airport_it_lands_at():
    travel = WORLD.travel
    iid = _first(travel.itineraries)
    booking = travel.bookings[travel.itineraries[iid].items[0]]
    flight = travel.flight(booking.flight_id)
    assert derive("person_name", "itinerary_id", iid, WORLD) == booking.passenger
    assert derive("airport_code", "itinerary_id", iid, WORLD) == flight.destination.airport_code


def test_a_city_gives_the_currency_it_pays_in():
    assert derive("currency_code", "city_name", "Tokyo", WORLD) == "JPY"


def test_a_station_gives_the_city_it_is_in():
    station = WORLD.travel.stations[0]
    assert derive("city_name", "rail_station", station.name.upper(), WORLD) == \
        station.place.city.name
    assert derive("city_name", "rail_station", "Wien Hauptbahnhof", WORLD) == "Vienna"


def test_a_guest_walks_from_the_station_to_a_house_in_the_same_city():
    """Play-test tmz-v3-c4-0083: "a train to Wien Hauptbahnhof, then a 15-minute walk to
    our house in Toronto"; the house's city is the train's destination."""
    sc = next(s for s in load_library() if s.id == "iot-err-guest-arrives-by-train")
    gen = ScenarioGenerator()
    for k in range(6):
        params = gen.draw_params(sc, _stream(f"guest-{k}"))
        assert params["site"] == WORLD.travel.station(params["to_station"]).place.city.name


def test_a_date_is_the_day_of_its_date_time():
    assert derive("iso_date", "iso_datetime", "2026-08-24T23:30:00Z", WORLD) == "2026-08-24"


def test_a_trip_gives_the_station_and_eve_of_its_flight():
    """A train filed on a trip takes its traveller to the trip's flight (toolmaze-v11
    c2-0028 filed a Warsaw-Vienna train of 23 August on a Seattle-Barcelona trip three
    weeks later): the station of the city it leaves from, the day before it leaves."""
    from datetime import date, timedelta

    from toolmaze_gym.tasks.scenarios import RECORD_STATES

    travel = WORLD.travel
    trips = RECORD_STATES["itinerary_id"]["by_rail"](WORLD)
    assert len(trips) >= 6
    for trip in trips:
        flight = travel.flight(travel.bookings[travel.itineraries[trip].items[0]].flight_id)
        station = travel.station(derive("rail_station", "itinerary_id", trip, WORLD))
        assert station.place.city.name == flight.origin.city.name
        eve = date.fromisoformat(derive("iso_date", "itinerary_id", trip, WORLD))
        assert eve == date.fromisoformat(flight.day) - timedelta(days=1)
    # a trip flying from a city with no station is not drawn for a train, and says why
    seattle = "ITN-D56CG86X"  # Seattle to Barcelona
    assert seattle not in trips
    with pytest.raises(DerivationError, match="Seattle, which has no station"):
        derive("rail_station", "itinerary_id", seattle, WORLD)


@pytest.mark.parametrize(("kind", "source", "value"), [
    ("product_name", "shop_order_id", "SO-NOTREAL1"),
    ("person_name", "invoice_id", "INV-NOTREAL12"),
    ("city_name", "automation_id", "SCH-NOTREAL1"),
    ("city_name", "rail_station", "Atlantis Central"),
    ("person_name", "itinerary_id", "ITN-NOTREAL1"),
    ("currency_code", "city_name", "Atlantis"),
])
def test_a_record_that_does_not_exist_is_a_clear_error(kind, source, value):
    with pytest.raises(DerivationError, match=value):
        derive(kind, source, value, WORLD)


def test_every_derived_param_of_the_library_matches_its_record():
    """Generated tasks state the record and the fact derived from it consistently."""
    gen = ScenarioGenerator()
    derived = [sc for sc in load_library()
               if any(p.derived_from and p.type != "iso_date" for p in sc.params)]
    assert len(derived) >= 10
    for sc in derived:
        params = gen.draw_params(sc, _stream(sc.id))
        for p in sc.params:
            if p.derived_from and p.type != "iso_date":
                src = sc.param_by_name[p.derived_from]
                assert (p.type, src.type) in DERIVATIONS
                assert params[p.name] == derive(p.type, src.type, params[src.name], WORLD)


def _stream(name):
    from toolmaze_gym import hashing

    return hashing.Stream("derived-test", name)
