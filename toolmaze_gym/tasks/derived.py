"""Params derived from another param, so two literals of one query never disagree.

A query that names a record and a fact about it ("the {product} from order
{order}", "{customer} paid invoice {invoice}", "my alert {alert} on {symbol}",
"refund payment {payment} and pay {payee} again") states one thing twice; drawn
independently, the two would contradict each other in almost every task. A
derived param (``from = "order"`` in the scenario file) is instead read off its
source: the day of a date-time, the city a trip flies to ("my partner flies home to
{site} on itinerary {trip}"), the city of a station ("a train to {to_station}, then a
walk to our house in {site}"), the station and eve of a trip's flight ("the train
to {destination} on {date}, filed on trip {trip}"), the city, airport and traveller of
a trip an expense is filed on ("book {passenger} to {destination} and put the fare on trip {trip}"),
the currency of a city ("{qty} items at {price} {local_currency} each" in {city}), or
the product, customer, site, symbol or payee that a record of the world holds.

``DERIVATIONS`` maps (param type, source type) to a description and the function
that computes the value from the source value and the world.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

Derive = Callable[[Any, Any], Any]


class DerivationError(ValueError):
    """The source value names no record the derivation can read."""


def _day(value: Any, world: Any) -> str:
    return str(value)[:10]


def _past_order(value: Any, world: Any):
    order = world.commerce.order(str(value))
    if order is None:
        raise DerivationError(f"{value!r} is not an order placed before the episode")
    return order


def _order_product(value: Any, world: Any):
    return world.commerce.by_id(_past_order(value, world).lines[0][0])


def _order_destination(value: Any, world: Any) -> str:
    return _past_order(value, world).destination


def _order_buyer(value: Any, world: Any) -> str:
    return _past_order(value, world).email


def _invoice_customer(value: Any, world: Any) -> str:
    invoice = world.records.invoices.get(str(value).strip().upper())
    person = world.people.by_email(invoice.customer_email) if invoice else None
    if person is None:
        raise DerivationError(f"{value!r} is not an invoice sent before the episode")
    return person.name


def _payment_recipient(value: Any, world: Any) -> str:
    payment = world.records.payments.get(str(value).strip().upper())
    person = world.people.by_email(payment.recipient) if payment else None
    if person is None:
        raise DerivationError(f"{value!r} is not a payment made before the episode")
    return person.name


def _city_currency(value: Any, world: Any) -> str:
    city = world.geo.city(str(value))
    if city is None:
        raise DerivationError(f"{value!r} is not a city of the world")
    return city.currency


def _city_country(value: Any, world: Any) -> str:
    """The country a city is in: a job "in Amsterdam" is taxed in the Netherlands
    (toolmaze-v13 c4-0060 moved to Amsterdam on a Swiss salary taxed in Switzerland)."""
    city = world.geo.city(str(value))
    if city is None:
        raise DerivationError(f"{value!r} is not a city of the world")
    return city.country_code


def _home_city(value: Any, world: Any) -> str:
    """The city a person of the directory lives in: a colleague "where they sit" sits
    where the directory places them, with its phone (toolmaze-v13 c4-0048: a reviewer
    who "sits in Sydney" with a French mobile)."""
    person = world.people.by_name(str(value))
    if person is None:
        raise DerivationError(f"{value!r} is no one of the directory")
    return person.city


def _itinerary(value: Any, world: Any):
    itinerary = world.travel.itineraries.get(str(value).strip().upper())
    if itinerary is None:
        raise DerivationError(f"{value!r} is not an itinerary planned before the episode")
    return itinerary


def _itinerary_flight(value: Any, world: Any):
    """The flight of the trip's first booking."""
    travel = world.travel
    return travel.flight(travel.bookings[_itinerary(value, world).items[0]].flight_id)


def _itinerary_landing(value: Any, world: Any):
    return _itinerary_flight(value, world).destination


def _itinerary_destination(value: Any, world: Any) -> str:
    return _itinerary_landing(value, world).city.name


def _itinerary_traveller(value: Any, world: Any) -> str:
    return _itinerary(value, world).owner


def _itinerary_station(value: Any, world: Any) -> str:
    """The city's own station (the first the network lists for it) where the trip's
    flight leaves: the train a trip files is the one that takes its traveller there."""
    city = _itinerary_flight(value, world).origin.city.name
    station = next((s for s in world.travel.stations if s.place.city.name == city), None)
    if station is None:
        raise DerivationError(f"{value!r} flies from {city}, which has no station")
    return station.name


def _itinerary_eve(value: Any, world: Any) -> str:
    day = date.fromisoformat(_itinerary_flight(value, world).day)
    return (day - timedelta(days=1)).isoformat()


def _station_city(value: Any, world: Any) -> str:
    station = world.travel.station(str(value))
    if station is None:
        raise DerivationError(f"{value!r} is not a station of the rail network")
    return station.place.city.name


def _attendee_city(value: Any, world: Any) -> str:
    """The city a meeting's attendee lives in: the request that places them ("they're
    based in {city}") places them where the directory does, so the text goes to a
    number of that country (toolmaze-v9 c2-0010: "based in Tokyo", a +33 mobile)."""
    meeting = world.office.meeting(str(value).strip().upper())
    person = world.people.by_email(meeting.attendee) if meeting else None
    if person is None:
        raise DerivationError(f"{value!r} is no meeting with an attendee of the directory")
    return person.city


def _city_language(value: Any, world: Any) -> str:
    """The language people write in the city: a mother at home in Istanbul is texted in
    Turkish, not Spanish (toolmaze-v9 c4-0097)."""
    city = world.geo.city(str(value))
    if city is None:
        raise DerivationError(f"{value!r} is not a city of the world")
    return city.language


def _resident_currency(value: Any, world: Any) -> str:
    """The currency of the country the directory's person lives in: a client billed "in
    their own currency" is billed in it, and taxed as their country is (toolmaze-v9
    c2-0028: an SGD invoice to a Vancouver client carried Canada's 5 % GST)."""
    person = world.people.by_email(str(value))
    city = world.geo.city(person.city) if person else None
    if city is None:
        raise DerivationError(f"{value!r} is no account of the directory")
    return city.currency


def _automation_site(value: Any, world: Any) -> str:
    automation = world.records.automations.get(str(value).strip().upper())
    if automation is None:
        raise DerivationError(f"{value!r} is not a scheduled automation")
    return automation.site


def _iban_currency(value: Any, world: Any) -> str:
    """The currency of the country an IBAN belongs to (its first two letters)."""
    country = str(value).strip()[:2].upper()
    found = {c.currency for c in world.geo.cities if c.country_code == country}
    if len(found) != 1:
        raise DerivationError(f"{value!r} is not an IBAN of a country of the world")
    return found.pop()


def _country_currency(value: Any, world: Any) -> str:
    """The currency a country pays in: an invoice "plus German VAT" is billed in EUR, not
    in SEK (toolmaze-v8 c1-0093 read "10203 SEK plus DE VAT")."""
    return _iban_currency(value, world)


def _account_currency(value: Any, world: Any) -> str:
    """The currency an account of the user's holds ("from my {currency} account {account}")."""
    account = world.markets.account(str(value))
    if account is None:
        raise DerivationError(f"{value!r} is not an account of the user's")
    return account.currency


def _alert_symbol(value: Any, world: Any) -> str:
    alert = world.records.alerts.get(str(value).strip().upper())
    if alert is None:
        raise DerivationError(f"{value!r} is not a price alert set before the episode")
    return alert.symbol


def _local_mobiles(country: str, world: Any) -> list[str]:
    """The directory's mobiles of a country (by calling code), in directory order."""
    from toolmaze_gym.tasks.coherence import phone_countries
    return [n for n in world.people.mobiles if country in phone_countries(n)]


def _local_mobile(value: Any, world: Any) -> str:
    """A mobile of someone at home in the city's country, to collect a traveller there;
    where the directory has none, any mobile (the coherence rule ``local_pickup`` then
    has the city drawn again)."""
    from toolmaze_gym import hashing
    city = world.geo.city(str(value))
    if city is None:
        raise DerivationError(f"{value!r} is not a city of the world")
    pool = _local_mobiles(city.country_code, world) or world.people.mobiles
    return hashing.choice(pool, "local-mobile", city.name)


def _order_neighbour(value: Any, world: Any) -> str:
    """A mobile of the country the order's parcel goes to (the neighbour who takes it in)."""
    return _local_mobile(_order_destination(value, world), world)


def _booking_pickup(value: Any, world: Any) -> str:
    """Someone with a mobile of the country the booked flight lands in (the person who
    collects the traveller there)."""
    travel = world.travel
    booking = travel.bookings.get(str(value).strip().upper())
    flight = travel.flight(booking.flight_id) if booking else None
    if flight is None:
        raise DerivationError(f"{value!r} is not a flight booked before the episode")
    return world.people.by_phone(_local_mobile(flight.destination.city.name, world)).name


def _colleague(value: Any, world: Any) -> str:
    """Someone else in the directory at the same company (the e-mail's domain)."""
    from toolmaze_gym import hashing
    email = str(value).strip().lower()
    domain = email.rsplit("@", 1)[-1]
    pool = [e for e in world.people.emails if e.rsplit("@", 1)[-1] == domain and e != email]
    if not pool:
        raise DerivationError(f"{value!r} has no colleague in the directory")
    return hashing.choice(pool, "colleague", email)


def _account_owner(value: Any, world: Any) -> str:
    person = world.people.by_email(str(value))
    if person is None:
        raise DerivationError(f"{value!r} is no account of the directory")
    return person.name


DERIVATIONS: dict[tuple[str, str], tuple[str, Derive]] = {
    ("iso_date", "iso_datetime"): ("the date part", _day),
    ("iso_date", "timestamp"): ("the date part", _day),
    ("product_name", "shop_order_id"): ("the product the order holds",
                                        lambda v, w: _order_product(v, w).name),
    ("product_id", "shop_order_id"): ("the product the order holds",
                                      lambda v, w: _order_product(v, w).product_id),
    # "my earlier order" and the one placed now go to one home (toolmaze-v10 c4-0043,
    # c4-0083: a parcel for Prague or Sao Paulo, a neighbour told New York's weather)
    ("city_name", "shop_order_id"): ("the city the order ships to", _order_destination),
    ("email", "shop_order_id"): ("the account that placed the order", _order_buyer),
    ("phone", "shop_order_id"): ("a mobile where the order ships to", _order_neighbour),
    ("person_name", "invoice_id"): ("the customer the invoice was sent to",
                                    _invoice_customer),
    ("person_name", "payment_id"): ("the person the payment went to", _payment_recipient),
    ("city_name", "itinerary_id"): ("the city the itinerary's flight lands in",
                                    _itinerary_destination),
    ("airport_code", "itinerary_id"): ("the airport the itinerary's flight lands at",
                                       lambda v, w: _itinerary_landing(v, w).airport_code),
    ("person_name", "itinerary_id"): ("the traveller the itinerary is for",
                                      _itinerary_traveller),
    # A train filed on a trip takes its traveller to the trip's flight, the day before
    # (toolmaze-v11 c2-0028 filed a Warsaw-Vienna train on a Seattle-Barcelona trip
    # three weeks later: coherence.trip_expenses).
    ("rail_station", "itinerary_id"): ("the station of the city the itinerary's flight "
                                       "leaves from", _itinerary_station),
    ("iso_date", "itinerary_id"): ("the day before the itinerary's flight leaves",
                                   _itinerary_eve),
    ("city_name", "rail_station"): ("the city the station is in", _station_city),
    ("city_name", "automation_id"): ("the home the automation runs at", _automation_site),
    ("city_name", "meeting_id"): ("the city the meeting's attendee lives in", _attendee_city),
    ("currency_code", "city_name"): ("the currency the city pays in", _city_currency),
    ("country_code", "city_name"): ("the country the city is in", _city_country),
    ("city_name", "person_name"): ("the city the person lives in", _home_city),
    ("language_code", "city_name"): ("the language the city writes", _city_language),
    ("stock_symbol", "price_alert_id"): ("the stock the alert watches", _alert_symbol),
    ("currency_code", "iban"): ("the currency of the IBAN's country", _iban_currency),
    ("currency_code", "country_code"): ("the currency the country pays in", _country_currency),
    ("currency_code", "bank_account_id"): ("the currency the account holds", _account_currency),
    ("phone", "city_name"): ("a mobile of someone at home in the city's country",
                             _local_mobile),
    ("person_name", "flight_booking_ref"): ("someone at home where the booked flight lands",
                                            _booking_pickup),
    ("email", "email"): ("a colleague at the same company", _colleague),
    ("person_name", "email"): ("the name of the account's owner", _account_owner),
    ("currency_code", "email"): ("the currency where the account's owner lives",
                                 _resident_currency),
}


def derive(param_type: str, source_type: str, value: Any, world: Any) -> Any:
    """The derived param's value (DerivationError when the record does not exist)."""
    return DERIVATIONS[(param_type, source_type)][1](value, world)
