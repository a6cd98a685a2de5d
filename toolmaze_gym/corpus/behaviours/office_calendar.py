"""Office calendar: free/busy, meetings, meeting rooms and reminders.

Availability is computed from the owner's pre-existing meetings (world facts) plus
every meeting the episode scheduled or moved, so a slot taken by schedule_meeting
is no longer offered; rooms are free unless the episode booked them.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.office_common import (
    counter,
    duration,
    future,
    future_day,
    iso,
    peek,
    seq,
    table,
    when,
)
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.office import DAY_END, DAY_START, Room

SEARCH_DAYS = 14  # the finder looks this many days ahead of the requested date

# ---------------------------------------------------------------- availability


def _episode_busy(ctx: CallContext) -> dict[date, list[tuple[int, int]]]:
    """The episode's live meetings as (start, end) minutes from midnight of their start day."""
    out: dict[date, list[tuple[int, int]]] = {}
    for m in peek(ctx, "meetings").values():
        start = when(m["start"], "start")
        if m["status"] == "cancelled":
            continue
        s = start.hour * 60 + start.minute
        out.setdefault(start.date(), []).append((s, s + m["duration"]))
    return out


def _free_starts(ctx: CallContext, day: date, minutes: int,
                 episode: dict[date, list[tuple[int, int]]]) -> list[int]:
    """Free grid slots of a day in minutes since midnight (this is the simulator's hottest
    loop): the world's free slots, cached per day, less those the episode has taken."""
    free = ctx.world.office.free_minutes(day, minutes)
    busy = episode.get(day)
    if not busy:
        return list(free)
    return [m for m in free if not any(m < e and s < m + minutes for s, e in busy)]


def next_free(ctx: CallContext, day: str, minutes: int) -> dict[str, Any]:
    """The earliest free slot on or after ``day`` within working hours (08:00-18:00 UTC)."""
    first = future_day(ctx, day, "date")
    minutes = duration(minutes, "duration_minutes", hi=DAY_END - DAY_START)
    episode = _episode_busy(ctx)
    for offset in range(SEARCH_DAYS):
        d = first + timedelta(days=offset)
        free = _free_starts(ctx, d, minutes, episode)
        if free:
            start = datetime(d.year, d.month, d.day) + timedelta(minutes=free[0])
            return {"start": iso(start), "duration_minutes": minutes,
                    "slots_available": len(free), "confidence": 100.0}
    raise ToolError(409, "no_availability",
                    f"no free {minutes}-minute slot within {SEARCH_DAYS} days of {day}", "date")


@behaviour("office.cal.availability")
def availability(ctx: CallContext, date: str, duration_minutes: int) -> dict:
    return next_free(ctx, date, duration_minutes)


# ---------------------------------------------------------------- meetings


def _schedule(ctx: CallContext, attendee: str, start: datetime, minutes: int,
              subject: str) -> dict[str, Any]:
    attendee = attendee.strip().lower()
    mid = make_id("EVT", 10, attendee, iso(start), minutes, " ".join(subject.split()),
                  counter(ctx, "meeting"))
    table(ctx, "meetings")[mid] = {"subject": subject, "start": iso(start), "duration": minutes,
                                   "attendee": attendee, "status": "confirmed"}
    ctx.state.record(ctx.tool, {"action": "meeting.schedule", "meeting_id": mid,
                                "start": iso(start), "attendee": attendee})
    return {"meeting_id": mid, "start": iso(start), "duration_minutes": minutes,
            "attendee": attendee, "status": "confirmed", "url": ctx.world.office.event_url(mid)}


@behaviour("office.cal.schedule")
def schedule(ctx: CallContext, attendee: str, start: str, duration_minutes: int,
             subject: str) -> dict:
    return _schedule(ctx, attendee, future(ctx, start, "start"),
                     duration(duration_minutes, "duration_minutes"), subject)


@behaviour("office.cal.book_next")
def book_next(ctx: CallContext, attendee: str, date: str, duration_minutes: int,
              subject: str) -> dict:
    slot = next_free(ctx, date, duration_minutes)
    return _schedule(ctx, attendee, when(slot["start"], "start"), slot["duration_minutes"],
                     subject)


def _meeting(ctx: CallContext, meeting_id: str) -> dict[str, Any]:
    """The episode's copy of an event, materialised from the calendar on first touch."""
    m = peek(ctx, "meetings").get(meeting_id)
    if m is None:
        f = ctx.world.office.meeting(meeting_id)
        if f is None:
            raise not_found("event", meeting_id, "meeting_id")
        m = {"subject": f.subject, "start": f.start, "duration": f.duration,
             "attendee": f.attendee, "status": "confirmed"}
    return m


def _view(meeting_id: str, m: dict[str, Any]) -> dict[str, Any]:
    return {"meeting_id": meeting_id, "subject": m["subject"], "start": m["start"],
            "duration_minutes": m["duration"], "attendee": m["attendee"], "status": m["status"]}


@behaviour("office.cal.get")
def get_meeting(ctx: CallContext, meeting_id: str) -> dict:
    return _view(meeting_id, _meeting(ctx, meeting_id))


@behaviour("office.cal.reschedule")
def reschedule(ctx: CallContext, meeting_id: str, start: str) -> dict:
    m = _meeting(ctx, meeting_id)
    if m["status"] == "cancelled":
        raise ToolError(409, "conflict", f"event {meeting_id} is cancelled", "meeting_id")
    new = future(ctx, start, "start")
    table(ctx, "meetings")[meeting_id] = {**m, "start": iso(new), "status": "rescheduled"}
    ctx.state.record(ctx.tool, {"action": "meeting.reschedule", "meeting_id": meeting_id,
                                "start": iso(new)})
    return _view(meeting_id, table(ctx, "meetings")[meeting_id])


@behaviour("office.cal.cancel")
def cancel(ctx: CallContext, meeting_id: str) -> dict:
    m = _meeting(ctx, meeting_id)
    if m["status"] == "cancelled":
        raise ToolError(409, "conflict", f"event {meeting_id} is already cancelled",
                        "meeting_id")
    table(ctx, "meetings")[meeting_id] = {**m, "status": "cancelled"}
    ctx.state.record(ctx.tool, {"action": "meeting.cancel", "meeting_id": meeting_id})
    return {**_view(meeting_id, table(ctx, "meetings")[meeting_id]),
            "cancelled_at": ctx.world.now_iso}


# ---------------------------------------------------------------- rooms


def _room_busy(ctx: CallContext, room: Room, start: datetime, minutes: int) -> bool:
    return _booked(ctx.state.data.get("office.room_bookings", ()), room, start, minutes)


def _booked(bookings: Any, room: Room, start: datetime, minutes: int) -> bool:
    """Whether an episode booking of ``room`` overlaps ``minutes`` from ``start``."""
    end = start + timedelta(minutes=minutes)
    rid = room.room_id
    for b in bookings:
        if b["room_id"] == rid:
            b_start = when(b["start"], "start")
            if start < b_start + timedelta(minutes=b["duration"]) and b_start < end:
                return True
    return False


def _find_room(ctx: CallContext, city: str, capacity: int, start: datetime,
               minutes: int) -> Room:
    if ctx.world.geo.city(city) is None:
        raise not_found("city", city, "city")
    if capacity < 1:
        raise ToolError(422, "invalid_parameter", "capacity must be at least 1", "capacity")
    fits = [r for r in ctx.world.office.rooms_in(city) if r.capacity >= capacity]
    if not fits:
        raise ToolError(404, "not_found", f"no room in {city} seats {capacity}", "capacity")
    bookings = ctx.state.data.get("office.room_bookings", ())
    free = next((r for r in fits if not _booked(bookings, r, start, minutes)), None)
    if free is None:
        raise ToolError(409, "no_availability", f"every room in {city} for {capacity} is booked "
                        f"at {iso(start)}", "start")
    return free


@behaviour("office.room.find")
def find_room(ctx: CallContext, city: str, capacity: int, start: str,
              duration_minutes: int) -> dict:
    when_ = future(ctx, start, "start")
    minutes = duration(duration_minutes, "duration_minutes")
    r = _find_room(ctx, city, capacity, when_, minutes)
    return {"room_id": r.room_id, "room_name": r.name, "capacity": r.capacity, "city": r.city,
            "floor": r.floor, "start": iso(when_), "duration_minutes": minutes}


def _book(ctx: CallContext, room: Room, start: datetime, minutes: int) -> dict[str, Any]:
    if _room_busy(ctx, room, start, minutes):
        raise ToolError(409, "conflict", f"room {room.room_id} is already booked at {iso(start)}",
                        "room_id")
    bid = make_id("RB", 8, room.room_id, iso(start), minutes, counter(ctx, "room_booking"))
    seq(ctx, "room_bookings").append({"booking_id": bid, "room_id": room.room_id,
                                      "start": iso(start), "duration": minutes})
    ctx.state.record(ctx.tool, {"action": "room.book", "booking_id": bid,
                                "room_id": room.room_id, "start": iso(start)})
    return {"booking_id": bid, "room_id": room.room_id, "room_name": room.name,
            "start": iso(start), "duration_minutes": minutes, "status": "confirmed"}


@behaviour("office.room.book")
def book_room(ctx: CallContext, room_id: str, start: str, duration_minutes: int) -> dict:
    room = ctx.world.office.room(room_id)
    if room is None:
        raise not_found("room", room_id, "room_id")
    return _book(ctx, room, future(ctx, start, "start"),
                 duration(duration_minutes, "duration_minutes"))


@behaviour("office.room.reserve_any")
def reserve_any(ctx: CallContext, city: str, capacity: int, start: str,
                duration_minutes: int) -> dict:
    when_ = future(ctx, start, "start")
    minutes = duration(duration_minutes, "duration_minutes")
    return _book(ctx, _find_room(ctx, city, capacity, when_, minutes), when_, minutes)


# ---------------------------------------------------------------- reminders


@behaviour("office.reminder.create")
def create_reminder(ctx: CallContext, text: str, remind_at: str) -> dict:
    at = future(ctx, remind_at, "remind_at")
    rid = make_id("RMD", 8, " ".join(text.split()), iso(at), counter(ctx, "reminder"))
    table(ctx, "reminders")[rid] = {"text": text, "remind_at": iso(at)}
    ctx.state.record(ctx.tool, {"action": "reminder.create", "reminder_id": rid,
                                "remind_at": iso(at)})
    return {"reminder_id": rid, "remind_at": iso(at), "status": "scheduled"}
