"""Trip-level behaviours: visas, airports, itineraries, expenses and travel calculators.

Itineraries and expenses are episode state: items added or expenses recorded are
visible to every later call (shares report the item count, expense entries carry
the running trip total).
"""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import (
    CallContext,
    ToolError,
    add_minutes,
    behaviour,
    not_found,
)
from toolmaze_gym.corpus.behaviours.travel_common import (
    MAX_RENTAL_DAYS,
    bounded,
    counter,
    make_id,
    place,
    stamp,
    table,
    utc,
)
from toolmaze_gym.corpus.behaviours.travel_flights import booking

# DEFRA-style factors (kg CO2e per passenger-km, with radiative-forcing uplift).
EMISSION_BANDS = ((1500.0, 0.156), (4000.0, 0.131), (float("inf"), 0.115))

# ---------------------------------------------------------------- reference look-ups


@behaviour("travel.visa")
def visa(ctx: CallContext, passport_country: str, destination_country: str) -> dict:
    rule = ctx.world.travel.visa_rule(passport_country, destination_country)
    return {"passport_country": passport_country.upper(),
            "destination_country": destination_country.upper(),
            "visa_required": rule.required, "visa_type": rule.visa_type,
            "max_stay_days": rule.max_stay_days, "checked_at": ctx.world.now_iso}


@behaviour("travel.airport_info")
def airport_info(ctx: CallContext, airport_code: str) -> dict:
    p = ctx.world.travel.airport(airport_code)
    if p is None:
        raise not_found("airport", airport_code, "airport_code")
    return {"airport_code": p.airport_code, "airport_name": p.airport_name,
            "city": p.city.name, "city_code": p.city_code, "country_code": p.city.country_code,
            "timezone": p.city.timezone, "lat": p.city.lat, "lon": p.city.lon}


# ---------------------------------------------------------------- itineraries and expenses


def _itinerary(ctx: CallContext, itinerary_id: str) -> dict:
    """An itinerary of this episode, or a trip planned before it (copied on first use)."""
    iid, rows = itinerary_id.strip().upper(), table(ctx, "itineraries")
    if iid not in rows:
        it = ctx.world.travel.itineraries.get(iid)
        if it is None:
            raise not_found("itinerary", itinerary_id, "itinerary_id")
        rows[iid] = {"itinerary_id": iid, "title": it.title, "status": "active",
                     "items": list(it.items), "item_count": len(it.items),
                     "created_at": it.created_at}
    return rows[iid]


@behaviour("travel.itinerary_create")
def itinerary_create(ctx: CallContext, title: str) -> dict:
    title = " ".join(title.split())
    iid = make_id("ITN", 8, title.lower(), counter(ctx, "itinerary"))
    row = {"itinerary_id": iid, "title": title, "status": "active", "items": [],
           "item_count": 0, "created_at": ctx.world.now_iso}
    table(ctx, "itineraries")[iid] = row
    ctx.state.record(ctx.tool, {"action": "create_itinerary", "itinerary_id": iid})
    return {**row, "items": list(row["items"])}


@behaviour("travel.itinerary_get")
def itinerary_get(ctx: CallContext, itinerary_id: str) -> dict:
    """The trip and its first flight booking (409 while it holds none)."""
    it = _itinerary(ctx, itinerary_id)
    if not it["items"]:
        raise ToolError(409, "empty_itinerary", f"itinerary {itinerary_id} has no flight "
                        "bookings yet", "itinerary_id")
    b = booking(ctx, it["items"][0])
    return {"itinerary_id": it["itinerary_id"], "title": it["title"],
            "item_count": it["item_count"], "booking_ref": b["booking_ref"],
            "flight_id": b["flight_id"], "booking_status": b["status"],
            "departure": b["departure"], "destination": b["destination"],
            "passenger_name": b["passenger_name"]}


@behaviour("travel.itinerary_add")
def itinerary_add(ctx: CallContext, itinerary_id: str, booking_ref: str) -> dict:
    it = _itinerary(ctx, itinerary_id)
    b = booking(ctx, booking_ref)
    if b["booking_ref"] in it["items"]:
        raise ToolError(409, "duplicate_item", f"{b['booking_ref']} is already on the itinerary",
                        "booking_ref")
    it["items"].append(b["booking_ref"])
    it["item_count"] = len(it["items"])
    ctx.state.record(ctx.tool, {"action": "add_to_itinerary", "itinerary_id": it["itinerary_id"],
                                "booking_ref": b["booking_ref"]})
    return {"itinerary_id": it["itinerary_id"], "booking_ref": b["booking_ref"],
            "flight_id": b["flight_id"], "item_count": it["item_count"], "status": "added",
            "title": it["title"]}


@behaviour("travel.itinerary_share")
def itinerary_share(ctx: CallContext, itinerary_id: str, email: str) -> dict:
    it = _itinerary(ctx, itinerary_id)
    to = email.strip().lower()
    sid = make_id("SHR", 8, it["itinerary_id"], to, counter(ctx, "share"))
    table(ctx, "shares")[sid] = {"itinerary_id": it["itinerary_id"], "email": to}
    ctx.state.record(ctx.tool, {"action": "share_itinerary", "share_id": sid,
                                "itinerary_id": it["itinerary_id"], "to": to})
    return {"share_id": sid, "itinerary_id": it["itinerary_id"], "email": to,
            "title": it["title"], "item_count": it["item_count"], "status": "shared",
            "shared_at": ctx.world.now_iso}


@behaviour("travel.expense_record")
def expense_record(ctx: CallContext, itinerary_id: str, amount: float, currency: str,
                   description: str) -> dict:
    it = _itinerary(ctx, itinerary_id)
    cur = currency.upper()
    totals = it.setdefault("expense_totals", {})
    before = totals.get(cur, 0.0)
    totals[cur] = round(before + amount, 2)
    eid = make_id("TEX", 8, it["itinerary_id"], amount, cur, description,
                  counter(ctx, "expense"))
    ctx.state.record(ctx.tool, {"action": "record_trip_expense", "expense_id": eid,
                                "amount": amount, "currency": cur})
    return {"expense_id": eid, "itinerary_id": it["itinerary_id"], "amount": round(amount, 2),
            "currency": cur, "description": " ".join(description.split()),
            "previous_total": before, "trip_total": totals[cur], "status": "recorded"}


# ---------------------------------------------------------------- calculators


@behaviour("travel.split_cost")
def split_cost(ctx: CallContext, total_amount: float, travellers: int) -> dict:
    if travellers < 1:
        raise ToolError(422, "invalid_parameter", "travellers must be at least 1", "travellers")
    return {"per_person": round(total_amount / travellers, 2), "total_amount": total_amount,
            "travellers": travellers}


@behaviour("travel.arrival_time")
def arrival_time(ctx: CallContext, departure: str, duration_minutes: int) -> dict:
    start = utc(departure, "departure")
    return {"arrival": stamp(add_minutes(start, duration_minutes, "departure")),
            "departure": stamp(start), "duration_minutes": duration_minutes}


@behaviour("travel.flight_emissions")
def flight_emissions(ctx: CallContext, distance_km: float, passengers: int) -> dict:
    if passengers < 1:
        raise ToolError(422, "invalid_parameter", "passengers must be at least 1", "passengers")
    factor = next(f for limit, f in EMISSION_BANDS if distance_km <= limit)
    co2 = round(distance_km * factor * passengers, 2)
    return {"co2_kg": co2, "factor": factor, "distance_km": distance_km,
            "passengers": passengers, "co2_per_passenger_kg": round(co2 / passengers, 2)}


@behaviour("travel.per_diem")
def per_diem(ctx: CallContext, city: str, days: int) -> dict:
    n = bounded(days, MAX_RENTAL_DAYS, "days", "a per-diem period")
    p = place(ctx, city)
    daily = ctx.world.travel.per_diem(p)
    return {"city": p.city.name, "daily_rate": daily, "days": n,
            "total_allowance": round(daily * n, 2), "currency": p.city.currency}


@behaviour("travel.booking_message")
def booking_message(ctx: CallContext, booking_ref: str, passenger_name: str, amount: float,
                    currency: str) -> dict:
    ref, cur = booking_ref.strip().upper(), currency.upper()
    known = ctx.state.data.get("travel.bookings") or {}
    if ref not in known and ref not in ctx.world.travel.bookings:
        # A confirmation of a booking that does not exist would state a falsehood.
        raise not_found("booking", booking_ref, "booking_ref")
    text = (f"Booking {ref} is confirmed for {' '.join(passenger_name.split())}. "
            f"Total charged: {amount:,.2f} {cur}. Keep this reference for check-in.")
    return {"message": text, "booking_ref": ref, "amount": amount, "currency": cur}
