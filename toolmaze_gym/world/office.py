"""Office facts: the user's mailbox, calendar, chat workspace, rooms, drive and tracker.

Everything an Office tool reads that the episode has not changed comes from here.
The workspace holds a fixed set of records before the episode (``records`` in
data/world/office.json: events on the calendar, tickets in the tracker, documents,
sheets and files in the drive, drafts in the mailbox; the inbox holds the latest
message of each directory contact). Their facts are drawn from their ids; any other
id is unknown, and the tools answer it with a 404, as a real API does. What Actions
create or change lives in the episode state, layered on top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cached_property
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.base import Facts, load_data
from toolmaze_gym.world.people import Person

DAY_START = 8 * 60  # working day in minutes from midnight, UTC
DAY_END = 18 * 60
GRID = 15  # calendar slots start on quarter hours
ISO = "%Y-%m-%dT%H:%M:%SZ"
CACHE_LIMIT = 65_536  # entries per fact cache; cleared when full (keys come from agents)


@dataclass(frozen=True)
class Room:
    room_id: str
    name: str
    city: str
    capacity: int
    floor: int


@dataclass(frozen=True)
class Mail:
    message_id: str
    sender: str
    subject: str
    received_at: str


@dataclass(frozen=True)
class Meeting:
    subject: str
    start: str
    duration: int
    attendee: str


@dataclass(frozen=True)
class Ticket:
    summary: str
    status: str
    priority: str
    assignee: str


class Office(Facts):
    """The user's workspace; ``me`` is the mailbox owner, a person of the directory."""

    def __init__(self, world) -> None:
        super().__init__(world)
        self.data = load_data("office.json")
        self.channels: list[str] = list(self.data["channels"])
        self.file_names: list[str] = list(self.data["file_names"])
        self.me: Person = hashing.choice(world.people.people, *self.key("me"))
        self.records: dict[str, frozenset[str]] = {
            kind: frozenset(ids) for kind, ids in self.data["records"].items()}
        # Pure facts are recomputed by hashing on every call otherwise; every cached
        # value is immutable (tuples, frozen dataclasses, strings), so sharing is safe.
        self._caches: dict[str, dict[Any, Any]] = {}

    def _cached(self, name: str, key: Any, make: Callable[[], Any]) -> Any:
        cache = self._caches.get(name)
        if cache is None:
            cache = self._caches[name] = {}
        try:
            return cache[key]
        except KeyError:
            pass
        value = make()
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = value
        return value

    def sample_record(self, kind: str, key: str) -> str:
        """The id of a record of ``kind`` ('meetings', 'tickets'…) held before the episode."""
        return hashing.choice(sorted(self.records[kind]), "office-record", kind, key)

    def sample_message_id(self, key: str) -> str:
        return hashing.choice(sorted(self._inbox_ids), "inbox-message", key)

    # -- people --------------------------------------------------------------

    def contact_id(self, person: Person) -> str:
        return self._cached("contact", person.email,
                            lambda: make_id("CT", 8, *self.key("contact", person.email)))

    def person(self, name: str) -> Person | None:
        return self.world.people.by_name(name)

    # -- rooms ---------------------------------------------------------------

    @cached_property
    def rooms(self) -> list[Room]:
        out: list[Room] = []
        for city in self.world.geo.cities:
            n = hashing.randint(3, 6, *self.key("rooms", city.name))
            names = hashing.sample(self.data["room_names"], n, *self.key("rnames", city.name))
            slug = city.name.lower().replace(" ", "-")
            for i, name in enumerate(names):
                cap = (hashing.randint(24, 40, *self.key("cap", city.name, i)) if i == 0
                       else hashing.choice((4, 6, 8, 10, 12, 16), *self.key("cap", city.name, i)))
                out.append(Room(f"{slug}-{name.lower()}", f"{city.name} {name}", city.name, cap,
                                hashing.randint(1, 12, *self.key("floor", city.name, i))))
        return sorted(out, key=lambda r: (r.city, r.capacity, r.room_id))

    @cached_property
    def _rooms_by_id(self) -> dict[str, Room]:
        return {r.room_id: r for r in self.rooms}

    @cached_property
    def room_ids(self) -> list[str]:
        return [r.room_id for r in self.rooms]

    def room(self, room_id: str) -> Room | None:
        return self._rooms_by_id.get(room_id.strip().lower())

    def rooms_in(self, city: str) -> list[Room]:
        """Rooms of a city, smallest first (the finder proposes the tightest fit)."""
        return list(self._rooms_in(city.strip().lower()))

    def _rooms_in(self, city: str) -> tuple[Room, ...]:
        return self._cached("rooms_in", city,
                            lambda: tuple(r for r in self.rooms if r.city.lower() == city))

    # -- calendar ------------------------------------------------------------

    def busy_blocks(self, day: date) -> list[tuple[int, int]]:
        """The owner's pre-existing meetings on ``day`` as (start, end) minutes; weekends free."""
        return list(self._busy_blocks(day))

    def _busy_blocks(self, day: date) -> tuple[tuple[int, int], ...]:
        return self._cached("busy", day, lambda: tuple(self._make_busy_blocks(day)))

    def free_minutes(self, day: date, minutes: int) -> tuple[int, ...]:
        """Grid starts (minutes from midnight) of ``day`` free of pre-existing meetings and
        not before now, for a meeting of ``minutes``; episode meetings are not considered."""
        def make() -> tuple[int, ...]:
            busy = self._busy_blocks(day)
            midnight = datetime(day.year, day.month, day.day)
            earliest = (self.world.now - midnight).total_seconds() / 60
            return tuple(m for m in range(DAY_START, DAY_END - minutes + 1, GRID)
                         if m >= earliest
                         and not any(m < e and s < m + minutes for s, e in busy))
        return self._cached("free", (day, minutes), make)

    def _make_busy_blocks(self, day: date) -> list[tuple[int, int]]:
        if day.weekday() >= 5:
            return []
        k = self.key("busy", day.isoformat())
        blocks = []
        for i in range(hashing.randint(2, 5, *k)):
            start = DAY_START + 30 * hashing.randint(0, 18, *k, "s", i)
            length = hashing.choice((30, 30, 45, 60, 60, 90), *k, "l", i)
            blocks.append((start, min(start + length, DAY_END)))
        return sorted(blocks)

    def meeting(self, meeting_id: str) -> Meeting | None:
        """An event already on the calendar, or None for an id it does not hold."""
        if meeting_id not in self.records["meetings"]:
            return None
        return self._cached("meeting", meeting_id, lambda: self._make_meeting(meeting_id))

    def _make_meeting(self, meeting_id: str) -> Meeting:
        k = self.key("meeting", meeting_id)
        day = self.world.now.date() + timedelta(days=hashing.randint(1, 20, *k, "d"))
        start = datetime(day.year, day.month, day.day) + timedelta(
            minutes=DAY_START + 30 * hashing.randint(0, 14, *k, "t"))
        return Meeting(hashing.choice(self.data["meeting_subjects"], *k, "s"), start.strftime(ISO),
                       hashing.choice((30, 45, 60, 90), *k, "len"),
                       hashing.choice(self.world.people.emails, *k, "who"))

    # -- mail ----------------------------------------------------------------

    def _ago(self, minutes: int) -> str:
        return (self.world.now - timedelta(minutes=minutes)).strftime(ISO)

    def latest_mail_from(self, sender: str) -> Mail:
        return self._cached("inbox", sender, lambda: self._make_latest_mail_from(sender))

    def _make_latest_mail_from(self, sender: str) -> Mail:
        k = self.key("inbox", sender.strip().lower())
        return Mail(make_id("MSG", 10, *k), sender.strip().lower(),
                    hashing.choice(self.data["email_subjects"], *k, "subj"),
                    self._ago(hashing.randint(4, 1380, *k, "ago")))

    @cached_property
    def _inbox_ids(self) -> dict[str, str]:
        return {self.latest_mail_from(e).message_id: e for e in self.world.people.emails}

    def mail(self, message_id: str) -> Mail | None:
        """A message in the inbox (the latest from each contact), or None."""
        sender = self._inbox_ids.get(message_id)
        return None if sender is None else self.latest_mail_from(sender)

    def draft(self, draft_id: str) -> tuple[str, str, str] | None:
        """(to, subject, body) of a draft already in the Drafts folder, or None."""
        if draft_id not in self.records["drafts"]:
            return None
        return self._cached("draft", draft_id, lambda: self._make_draft(draft_id))

    def _make_draft(self, draft_id: str) -> tuple[str, str, str]:
        k = self.key("draft", draft_id)
        return (hashing.choice(self.world.people.emails, *k, "to"),
                hashing.choice(self.data["email_subjects"], *k, "s"),
                hashing.choice(self.data["draft_bodies"], *k, "b"))

    # -- chat ----------------------------------------------------------------

    def channel_latest(self, channel: str) -> tuple[str, str, str, int]:
        """(text, author name, posted_at, message count) before the episode."""
        return self._cached("chan", channel, lambda: self._make_channel_latest(channel))

    def _make_channel_latest(self, channel: str) -> tuple[str, str, str, int]:
        k = self.key("chan", channel.strip().lower())
        return (hashing.choice(self.data["chat_messages"], *k, "txt"),
                hashing.choice(self.world.people.names, *k, "who"),
                self._ago(hashing.randint(3, 900, *k, "ago")),
                hashing.randint(40, 25000, *k, "n"))

    # -- drive, sheets, tracker ---------------------------------------------

    def document(self, doc_id: str) -> tuple[str, int] | None:
        """(title, word count) of a document already in the drive, or None."""
        if doc_id not in self.records["documents"]:
            return None
        return self._cached("doc", doc_id, lambda: self._make_document(doc_id))

    def _make_document(self, doc_id: str) -> tuple[str, int]:
        k = self.key("doc", doc_id)
        return (hashing.choice(self.data["document_titles"], *k, "t"),
                hashing.randint(80, 4000, *k, "w"))

    def sheet_rows(self, sheet_id: str) -> int | None:
        """Rows of a spreadsheet already in the drive, or None."""
        if sheet_id not in self.records["sheets"]:
            return None
        return self._cached("sheet", sheet_id,
                            lambda: hashing.randint(0, 400, *self.key("sheet", sheet_id)))

    def ticket(self, ticket_id: str) -> Ticket | None:
        """A ticket already in the tracker, or None."""
        if ticket_id not in self.records["tickets"]:
            return None
        return self._cached("ticket", ticket_id, lambda: self._make_ticket(ticket_id))

    def _make_ticket(self, ticket_id: str) -> Ticket:
        k = self.key("ticket", ticket_id)
        return Ticket(hashing.choice(self.data["ticket_summaries"], *k, "s"),
                      hashing.choice(("open", "assigned", "in_progress"), *k, "st"),
                      hashing.choice(("low", "normal", "high", "urgent"), *k, "p"),
                      hashing.choice(self.world.people.emails, *k, "a"))

    def file(self, file_id: str) -> tuple[str, int] | None:
        """(name, size in bytes) of a file already in storage, or None."""
        if file_id not in self.records["files"]:
            return None
        return self._cached("file", file_id, lambda: self._make_file(file_id))

    def _make_file(self, file_id: str) -> tuple[str, int]:
        k = self.key("file", file_id)
        return hashing.choice(self.file_names, *k, "n"), hashing.randint(200, 8_000_000, *k, "b")

    @staticmethod
    def doc_url(doc_id: str) -> str:
        return f"https://docs.example.com/document/{doc_id}"

    @staticmethod
    def sheet_url(sheet_id: str) -> str:
        return f"https://sheets.example.com/spreadsheet/{sheet_id}"

    @staticmethod
    def share_url(file_id: str) -> str:
        return f"https://files.example.com/s/{file_id.lower()}"

    @staticmethod
    def event_url(meeting_id: str) -> str:
        return f"https://calendar.example.com/event?eid={meeting_id}"
