"""Flight behaviours: search, fare quote, status, seat holds, ticketing, cancellation, check-in.

Seats are episode state: a hold or a direct booking takes one, a cancellation
gives it back, and the fare quote reports what is left. Booking references are
keyed by flight and passenger (not by the path taken), so holding then ticketing
and ticketing a quote directly yield the same record locator.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.travel_common import (
    counter,
    make_id,
    need,
    person,
    remember,
    route,
    stamp,
    table,
    travel_day,
)
from toolmaze_gym.world.geo import round_money
from toolmaze_gym.world.travel import Flight

PNR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
HOLD_HOURS = 24


def _flight(ctx: CallContext, flight_id: str, field: str = "flight_id") -> Flight:
    f = ctx.world.travel.flight(flight_id)
    if f is None:
        raise not_found("flight", flight_id, field)
    return f


def _quoted(ctx: CallContext, fare_quote_id: str) -> Flight:
    fq = fare_quote_id.strip().upper()
    if not fq.startswith("FQ-"):
        raise not_found("fare quote", fare_quote_id, "fare_quote_id")
    f = ctx.world.travel.flight(fq[3:])
    if f is None:
        raise not_found("fare quote", fare_quote_id, "fare_quote_id")
    return f


def seats_left(ctx: CallContext, f: Flight) -> int:
    return max(0, f.seats - table(ctx, "seats_taken").get(f.flight_id, 0))


def _take_seat(ctx: CallContext, f: Flight) -> None:
    if seats_left(ctx, f) < 1:
        raise ToolError(409, "sold_out", f"no seats left on {f.flight_id} at this fare",
                        "flight_id")
    taken = table(ctx, "seats_taken")
    taken[f.flight_id] = taken.get(f.flight_id, 0) + 1


def _summary(ctx: CallContext, f: Flight) -> dict[str, Any]:
    """The flight's public facts, memoised per world (a flight id names one flight);
    the dict is shared, so callers spread it and never mutate it."""
    memo = ctx.world.travel.memo
    k = ("summary", f.flight_id)
    out = memo.get(k)
    if out is None:
        out = remember(ctx, k, _summary_of(f))
    return out


def _summary_of(f: Flight) -> dict[str, Any]:
    return {"flight_id": f.flight_id, "carrier": f.carrier, "origin": f.origin.city.name,
            "destination": f.destination.city.name, "origin_airport": f.origin.airport_code,
            "destination_airport": f.destination.airport_code,
            "departure": stamp(f.departure), "arrival": stamp(f.arrival),
            "duration_min": f.duration_min, "distance_km": f.distance_km, "fare": f.fare,
            "currency": f.currency}


@behaviour("travel.flight_search")
def flight_search(ctx: CallContext, origin: str, destination: str, date: str) -> dict:
    a, b = route(ctx, origin, destination)
    day = travel_day(ctx, date)
    options = ctx.world.travel.flights(a, b, day)
    best = ctx.world.travel.cheapest_flight(a, b, day)
    return {**_summary(ctx, best), "date": day, "results": len(options),
            "seats_left": seats_left(ctx, best)}


@behaviour("travel.fare_quote")
def fare_quote(ctx: CallContext, flight_id: str) -> dict:
    f = _flight(ctx, flight_id)
    taxes = round_money(f.fare * f.tax_share, f.currency)  # whole yen and won
    return {**_summary(ctx, f), "fare_quote_id": f"FQ-{f.flight_id}",
            "base_fare": round_money(f.fare - taxes, f.currency), "taxes": taxes,
            "total_fare": f.fare,
            "seats_left": seats_left(ctx, f), "cabin": "economy",
            "quoted_at": ctx.world.now_iso}


@behaviour("travel.flight_status")
def flight_status(ctx: CallContext, flight_id: str) -> dict:
    f = _flight(ctx, flight_id)
    t = ctx.world.travel
    delay = t.flight_delay(f)
    return {**_summary(ctx, f), "status": t.flight_status(f), "delay_min": delay,
            "estimated_departure": stamp(f.departure + timedelta(minutes=delay)),
            "updated_at": ctx.world.now_iso}


def _hold(ctx: CallContext, f: Flight) -> dict:
    _take_seat(ctx, f)
    hold_id = make_id("HLD", 8, f.flight_id, counter(ctx, "hold"))
    row = {**_summary(ctx, f), "hold_id": hold_id, "status": "held",
           "expires_at": stamp(ctx.world.now + timedelta(hours=HOLD_HOURS))}
    table(ctx, "holds")[hold_id] = row
    ctx.state.record(ctx.tool, {"action": "hold_seat", "hold_id": hold_id,
                                "flight_id": f.flight_id})
    return dict(row)


@behaviour("travel.hold_seat")
def hold_seat(ctx: CallContext, fare_quote_id: str) -> dict:
    return _hold(ctx, _quoted(ctx, fare_quote_id))


@behaviour("travel.search_and_hold")
def search_and_hold(ctx: CallContext, origin: str, destination: str, date: str) -> dict:
    a, b = route(ctx, origin, destination)
    return _hold(ctx, ctx.world.travel.cheapest_flight(a, b, travel_day(ctx, date)))


def _ticket(ctx: CallContext, f: Flight, passenger: str, hold_id: str = "") -> dict:
    name = person(ctx, passenger)
    pnr = hashing.token(PNR_ALPHABET, 6, "pnr", f.flight_id, name.lower(),
                        counter(ctx, "booking"))
    row = {**_summary(ctx, f), "booking_ref": pnr, "status": "ticketed", "passenger_name": name,
           "hold_id": hold_id, "booked_at": ctx.world.now_iso}
    table(ctx, "bookings")[pnr] = row
    ctx.state.record(ctx.tool, {"action": "book_flight", "booking_ref": pnr,
                                "flight_id": f.flight_id, "passenger": name})
    return dict(row)


@behaviour("travel.book_hold")
def book_hold(ctx: CallContext, hold_id: str, passenger_name: str) -> dict:
    hold = need(table(ctx, "holds").get(hold_id.strip().upper()), "hold", hold_id, "hold_id")
    if hold["status"] != "held":
        raise ToolError(409, "hold_used", f"hold {hold_id} was already ticketed", "hold_id")
    hold["status"] = "ticketed"
    return _ticket(ctx, _flight(ctx, hold["flight_id"]), passenger_name, hold["hold_id"])


@behaviour("travel.book_offer")
def book_offer(ctx: CallContext, fare_quote_id: str, passenger_name: str) -> dict:
    f = _quoted(ctx, fare_quote_id)
    _take_seat(ctx, f)
    return _ticket(ctx, f, passenger_name)


def booking(ctx: CallContext, booking_ref: str) -> dict[str, Any]:
    """A booking of this episode, or one made before it (copied into state on first use)."""
    ref, rows = booking_ref.strip().upper(), table(ctx, "bookings")
    if ref not in rows:
        b = ctx.world.travel.bookings.get(ref)
        if b is None:
            raise not_found("booking", booking_ref, "booking_ref")
        rows[ref] = {**_summary(ctx, _flight(ctx, b.flight_id)), "booking_ref": ref,
                     "status": "ticketed", "passenger_name": b.passenger, "hold_id": "",
                     "booked_at": b.booked_at}
    return rows[ref]


@behaviour("travel.cancel_flight")
def cancel_flight(ctx: CallContext, booking_ref: str) -> dict:
    """Refund the fare less the fare rule's fee: 15 % two weeks out, 50 % after."""
    row = booking(ctx, booking_ref)
    if row["status"] == "cancelled":
        raise ToolError(409, "already_cancelled", f"booking {booking_ref} is already cancelled",
                        "booking_ref")
    f = _flight(ctx, row["flight_id"])
    late = f.departure - ctx.world.now < timedelta(days=14)
    fee = round_money(f.fare * (0.5 if late else 0.15), f.currency)
    row["status"] = "cancelled"
    taken = table(ctx, "seats_taken")
    taken[f.flight_id] = max(0, taken.get(f.flight_id, 0) - 1)
    ctx.state.record(ctx.tool, {"action": "cancel_booking", "booking_ref": row["booking_ref"]})
    return {**row, "refund_amount": round_money(f.fare - fee, f.currency), "cancellation_fee": fee,
            "cancelled_at": ctx.world.now_iso}


@behaviour("travel.check_in")
def check_in(ctx: CallContext, booking_ref: str) -> dict:
    row = booking(ctx, booking_ref)
    if row["status"] == "cancelled":
        raise ToolError(409, "booking_cancelled", f"booking {booking_ref} is cancelled",
                        "booking_ref")
    pnr = row["booking_ref"]
    if row["status"] != "checked_in":
        row.update(status="checked_in",
                   seat=f"{hashing.randint(5, 38, 'row', pnr)}{hashing.choice('ABCDEF', 'l', pnr)}",
                   boarding_pass_id=make_id("BP", 10, "bp", pnr))
        ctx.state.record(ctx.tool, {"action": "check_in", "booking_ref": pnr})
    return dict(row)
