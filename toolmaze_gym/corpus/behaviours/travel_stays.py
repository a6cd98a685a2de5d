"""Hotel, rail and rental-car behaviours.

Hotels release a few rooms per night to the channel; every booking takes one room
for each night of the stay, so a hotel sells out within an episode and searches
then move on to the next cheapest property. Reservation ids are keyed by what was
booked, so booking a searched hotel and instant-booking the same stay agree.
"""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.travel_common import (
    MAX_RENTAL_DAYS,
    MAX_STAY_NIGHTS,
    bounded,
    counter,
    make_id,
    person,
    place,
    plus_days,
    remember,
    stamp,
    table,
    travel_day,
)
from toolmaze_gym.world.travel import CarOffer, Hotel, Station, Train

# ---------------------------------------------------------------- hotels


def _nights(n: int) -> int:
    return bounded(n, MAX_STAY_NIGHTS, "nights", "a stay")


@lru_cache(maxsize=65536)
def _night_keys(hotel_id: str, check_in: str, nights: int) -> tuple[str, ...]:
    """The ``rooms_booked`` keys of a stay, one per night."""
    return tuple(f"{hotel_id}|{plus_days(check_in, i)}" for i in range(nights))


def rooms_left(ctx: CallContext, h: Hotel, check_in: str, nights: int) -> int:
    booked = table(ctx, "rooms_booked")
    if not booked:
        return h.rooms
    # min over nights of (rooms - booked) is rooms - the busiest night
    return h.rooms - max(booked.get(k, 0) for k in _night_keys(h.hotel_id, check_in, nights))


def _stay(ctx: CallContext, h: Hotel, check_in: str, nights: int) -> dict[str, Any]:
    memo = ctx.world.travel.memo
    k = ("stay", h.hotel_id, check_in, nights)
    base = memo.get(k)
    if base is None:  # everything but the rooms left is a pure fact; shared, never mutated
        rate = ctx.world.travel.nightly_rate(h, check_in)
        base = remember(ctx, k, {
            "hotel_id": h.hotel_id, "hotel_name": h.name, "city": h.place.city.name,
            "stars": h.stars, "guest_rating": h.guest_rating, "check_in": check_in,
            "check_out": plus_days(check_in, nights), "nights": nights, "nightly_rate": rate,
            "total_price": round(rate * nights, 2), "currency": h.place.city.currency})
    return {**base, "rooms_left": max(0, rooms_left(ctx, h, check_in, nights))}


def _hotel(ctx: CallContext, hotel_id: str) -> Hotel:
    h = ctx.world.travel.hotel(hotel_id)
    if h is None:
        raise not_found("hotel", hotel_id, "hotel_id")
    return h


def _best_hotel(ctx: CallContext, city: str, check_in: str, nights: int) -> tuple[Hotel, int]:
    # cheapest by (nightly rate, hotel id) among those with a room every night
    p = place(ctx, city)
    ranked = ctx.world.travel.hotels_by_rate(p, check_in)
    booked = table(ctx, "rooms_booked")
    if booked:
        busy = {k.partition("|")[0] for k in booked}
        free = [h for h in ranked
                if (rooms_left(ctx, h, check_in, nights) if h.hotel_id in busy else h.rooms) > 0]
    else:  # nothing booked yet this episode: the same for every episode, so memoised
        k = ("open_hotels", p.city_code, check_in)
        free = ctx.world.travel.memo.get(k)
        if free is None:
            free = remember(ctx, k, [h for h in ranked if h.rooms > 0])
    if not free:
        raise ToolError(409, "sold_out", f"no hotel in {city} has rooms for these dates", "city")
    return free[0], len(free)


@behaviour("travel.hotel_search")
def hotel_search(ctx: CallContext, city: str, check_in: str, nights: int) -> dict:
    day, n = travel_day(ctx, check_in, "check_in"), _nights(nights)
    best, available = _best_hotel(ctx, city, day, n)
    return {**_stay(ctx, best, day, n), "results": available}


@behaviour("travel.hotel_rate")
def hotel_rate(ctx: CallContext, hotel_id: str, check_in: str, nights: int) -> dict:
    return _stay(ctx, _hotel(ctx, hotel_id), travel_day(ctx, check_in, "check_in"),
                 _nights(nights))


def _reserve(ctx: CallContext, h: Hotel, check_in: str, nights: int, guest: str) -> dict:
    if rooms_left(ctx, h, check_in, nights) < 1:
        raise ToolError(409, "sold_out", f"{h.name} has no rooms left for these dates",
                        "hotel_id")
    booked = table(ctx, "rooms_booked")
    for k in _night_keys(h.hotel_id, check_in, nights):
        booked[k] = booked.get(k, 0) + 1
    name = person(ctx, guest)
    rid = make_id("HR", 8, h.hotel_id, check_in, nights, name.lower(),
                  counter(ctx, "hotel_reservation"))
    row = {**_stay(ctx, h, check_in, nights), "reservation_id": rid, "status": "confirmed",
           "guest_name": name, "booked_at": ctx.world.now_iso}
    table(ctx, "hotel_reservations")[rid] = row
    ctx.state.record(ctx.tool, {"action": "book_hotel", "reservation_id": rid,
                                "hotel_id": h.hotel_id, "check_in": check_in, "nights": nights})
    return dict(row)


@behaviour("travel.hotel_book")
def hotel_book(ctx: CallContext, hotel_id: str, check_in: str, nights: int,
               guest_name: str) -> dict:
    return _reserve(ctx, _hotel(ctx, hotel_id), travel_day(ctx, check_in, "check_in"),
                    _nights(nights), guest_name)


@behaviour("travel.hotel_instant_book")
def hotel_instant_book(ctx: CallContext, city: str, check_in: str, nights: int,
                       guest_name: str) -> dict:
    day, n = travel_day(ctx, check_in, "check_in"), _nights(nights)
    best, _ = _best_hotel(ctx, city, day, n)
    return _reserve(ctx, best, day, n, guest_name)


# ---------------------------------------------------------------- rail


def _journey(t: Train) -> dict[str, Any]:
    return {"train_id": t.train_id, "operator": t.operator, "origin": t.origin.name,
            "destination": t.destination.name, "origin_city": t.origin.place.city.name,
            "destination_city": t.destination.place.city.name, "date": t.day,
            "departure": stamp(t.departure),
            "arrival": stamp(t.departure + timedelta(minutes=t.duration_min)),
            "duration_min": t.duration_min, "distance_km": t.distance_km, "fare": t.fare,
            "currency": t.currency}


def _station(ctx: CallContext, name: str, field: str) -> Station:
    s = ctx.world.travel.station(name)
    if s is None:
        raise not_found("station", name, field)
    return s


def _cheapest_train(ctx: CallContext, origin: str, destination: str,
                    date: str) -> tuple[Train, int]:
    a, b = _station(ctx, origin, "origin"), _station(ctx, destination, "destination")
    if a == b:
        raise ToolError(422, "invalid_parameter", "origin and destination must differ",
                        "destination")
    day = travel_day(ctx, date)
    t = ctx.world.travel
    return t.cheapest_train(a, b, day), len(t.trains(a, b, day))


@behaviour("travel.train_search")
def train_search(ctx: CallContext, origin: str, destination: str, date: str) -> dict:
    best, n = _cheapest_train(ctx, origin, destination, date)
    return {**_journey(best), "results": n}


def _issue(ctx: CallContext, t: Train, passenger: str) -> dict:
    name = person(ctx, passenger)
    tid = make_id("RTK", 8, t.train_id, name.lower(), counter(ctx, "rail_ticket"))
    n = counter(ctx, f"coach:{t.train_id}")
    row = {**_journey(t), "ticket_id": tid, "status": "issued", "passenger_name": name,
           "coach": str(1 + n // 60), "seat": f"coach {1 + n // 60}, seat {11 + n % 60}",
           "issued_at": ctx.world.now_iso}
    table(ctx, "rail_tickets")[tid] = row
    ctx.state.record(ctx.tool, {"action": "book_train", "ticket_id": tid,
                                "train_id": t.train_id, "passenger": name})
    return dict(row)


@behaviour("travel.train_book")
def train_book(ctx: CallContext, train_id: str, passenger_name: str) -> dict:
    t = ctx.world.travel.train(train_id)
    if t is None:
        raise not_found("train", train_id, "train_id")
    return _issue(ctx, t, passenger_name)


@behaviour("travel.rail_journey_book")
def rail_journey_book(ctx: CallContext, origin: str, destination: str, date: str,
                      passenger_name: str) -> dict:
    best, _ = _cheapest_train(ctx, origin, destination, date)
    return _issue(ctx, best, passenger_name)


# ---------------------------------------------------------------- rental cars


def _offer(o: CarOffer) -> dict[str, Any]:
    return {"offer_id": o.offer_id, "city": o.place.city.name,
            "pickup_location": o.place.airport_name, "pickup_date": o.day,
            "return_date": plus_days(o.day, o.days), "days": o.days, "supplier": o.supplier,
            "car_class": o.car_class, "acriss_code": o.acriss, "daily_rate": o.daily_rate,
            "total_price": o.total, "currency": o.currency}


@behaviour("travel.car_search")
def car_search(ctx: CallContext, city: str, pickup_date: str, days: int) -> dict:
    day = travel_day(ctx, pickup_date, "pickup_date")
    n = bounded(days, MAX_RENTAL_DAYS, "days", "a rental")
    p = place(ctx, city)
    return {**_offer(ctx.world.travel.cheapest_car(p, day, n)),
            "results": len(ctx.world.travel.car_offers(p, day, n))}


@behaviour("travel.car_reserve")
def car_reserve(ctx: CallContext, offer_id: str, driver_name: str) -> dict:
    o = ctx.world.travel.car_offer(offer_id)
    if o is None:
        raise not_found("car offer", offer_id, "offer_id")
    name = person(ctx, driver_name)
    rid = make_id("CR", 8, o.offer_id, name.lower(), counter(ctx, "car_reservation"))
    row = {**_offer(o), "reservation_id": rid, "status": "confirmed", "driver_name": name,
           "booked_at": ctx.world.now_iso}
    table(ctx, "car_reservations")[rid] = row
    ctx.state.record(ctx.tool, {"action": "reserve_car", "reservation_id": rid,
                                "offer_id": o.offer_id})
    return dict(row)
