"""Every tool that takes the id of a record answers 404 for an id that names nothing.

A real API does not send a draft that does not exist, nor append a row to a sheet
nobody created; it answers 404 naming the id. Records the world holds before the
episode (an event on the calendar, an open invoice, a past order) and records the
episode created (a draft, a sheet, a booking) keep working.
"""

from __future__ import annotations

import re

import pytest

from toolmaze_gym import values
from toolmaze_gym.corpus import EpisodeState, load_corpus
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.tasks.scenarios import load_library

CORPUS = load_corpus()
# Identifiers of records besides the ``*_id`` types: booking references, parcel numbers
# and warehouse SKUs. A URL, an IBAN or an e-mail address names something outside the
# world (a web page, another bank's account, a mailbox) and is not a record id here.
RECORD_TYPES_BESIDES_IDS = {"flight_booking_ref", "tracking_number", "sku"}


def record_id_type(type_name: str) -> bool:
    return type_name.endswith("_id") or type_name in RECORD_TYPES_BESIDES_IDS


def _id_params() -> list[tuple[str, str]]:
    return [(t.name, p.name) for t in sorted(CORPUS.tools.values(), key=lambda t: t.name)
            for p in t.params if record_id_type(p.type)]


def _shift(ch: str) -> str:
    if ch.isdigit():
        return str((int(ch) + 1) % 10)
    base = 65 if ch.isupper() else 97
    return chr((ord(ch) - base + 1) % 26 + base)


def unknown_like(value: str, type_name: str) -> str:
    """A well-formed id of the same type that differs from ``value`` in one character
    (the first one whose change keeps the documented format)."""
    pattern = values.get(type_name).schema.get("pattern")
    for i, ch in enumerate(value):
        if ch.isascii() and ch.isalnum():
            cand = value[:i] + _shift(ch) + value[i + 1:]
            if pattern is None or re.fullmatch(pattern, cand):
                return cand
    raise AssertionError(f"no well-formed variant of {value!r}")


def test_the_id_parameters_cover_every_record_kind():
    kinds = {CORPUS[t].param(p).type for t, p in _id_params()}
    assert len(_id_params()) >= 100
    assert kinds >= {"draft_id", "spreadsheet_id", "document_id", "itinerary_id", "payment_id",
                     "invoice_id", "price_alert_id", "shop_order_id", "device_id",
                     "flight_booking_ref", "meeting_id", "ticket_id", "file_id",
                     "email_message_id", "tracking_number", "room_id"}


@pytest.mark.parametrize(("tool", "pname"), _id_params())
def test_an_unknown_id_is_a_404_naming_it_and_a_known_one_works(sim, tool, pname):
    spec = CORPUS[tool]
    state = EpisodeState()
    args = valid_arguments(sim, spec, state, "404")
    assert args is not None and pname in args, (tool, pname)
    known = sim.call(tool, args, state.copy())
    assert known.ok, (tool, args, known.body)
    bad = unknown_like(args[pname], spec.param(pname).type)
    resp = sim.call(tool, {**args, pname: bad}, state.copy())
    assert resp.status == 404, (tool, pname, bad, resp.body)
    err = resp.body["error"]
    assert err["type"] == "not_found" and err["field"] == pname, err
    assert bad in err["message"], err


@pytest.mark.parametrize(("tool", "first"), [
    ("send_draft", ("create_draft", {"to": "ana@example.com", "subject": "Hi", "body": "Hello"},
                    "draft_id", "draft_id")),
    ("append_row", ("create_spreadsheet", {"title": "Q3 expenses"}, "spreadsheet_id",
                    "spreadsheet_id")),
    ("append_to_document", ("create_document", {"title": "Notes"}, "document_id",
                            "document_id")),
    ("create_share_link", ("upload_file", {"file_name": "notes.txt", "content": "hello"},
                           "file_id", "file_id")),
])
def test_records_created_in_the_episode_keep_working(sim, tool, first):
    maker, maker_args, field, pname = first
    state = EpisodeState()
    made = sim.call(maker, maker_args, state)
    assert made.ok, made.body
    spec = CORPUS[tool]
    args = valid_arguments(sim, spec, EpisodeState(), "made") or {}
    resp = sim.call(tool, {**args, pname: made.body[field]}, state)
    assert resp.ok, (tool, resp.body)
    fresh = sim.call(tool, {**args, pname: made.body[field]}, EpisodeState())
    assert fresh.status == 404, (tool, fresh.body)  # another episode never made it


def test_a_reply_to_a_message_sent_in_the_episode_goes_to_its_recipient(sim, world):
    state = EpisodeState()
    to = world.people.emails[3]
    sent = sim.call("send_email", {"to": to, "subject": "Plan", "body": "See you."}, state)
    reply = sim.call("reply_to_email", {"message_id": sent.body["message_id"],
                                        "body": "One more thing."}, state)
    assert reply.ok and reply.body["to"] == to, reply.body


def _held_record_cases() -> list[tuple[str, str, str]]:
    """(tool, parameter, id) for every record the office holds before the episode."""
    from toolmaze_gym.world import get_world

    office = get_world(0).office
    kind_of = {"meeting_id": "meetings", "ticket_id": "tickets", "document_id": "documents",
               "draft_id": "drafts", "spreadsheet_id": "sheets", "file_id": "files"}
    out = []
    for tool, pname in _id_params():
        kind = kind_of.get(CORPUS[tool].param(pname).type)
        if kind:
            out += [(tool, pname, rid) for rid in sorted(office.records[kind])]
    return out


@pytest.mark.parametrize(("tool", "pname", "rid"), _held_record_cases())
def test_every_record_held_before_the_episode_is_found(sim, tool, pname, rid):
    args = valid_arguments(sim, CORPUS[tool], EpisodeState(), "held") or {}
    resp = sim.call(tool, {**args, pname: rid}, EpisodeState())
    assert resp.status != 404, (tool, rid, resp.body)


def _stated_ids() -> list[tuple[str, str, str]]:
    out = set()
    for sc in load_library():
        for p in sc.params:
            if record_id_type(p.type):
                for v in (*p.choices, *([p.value] if p.value is not None else [])):
                    out.add((sc.id, p.type, str(v)))
    return sorted(out)


def test_every_id_a_scenario_states_names_a_record_of_the_world(sim):
    """A query that says "cancel meeting EVT-…" must name an event the calendar holds."""
    stated = _stated_ids()
    assert len(stated) >= 40
    taker = {}
    for tool, pname in _id_params():
        taker.setdefault(CORPUS[tool].param(pname).type, (tool, pname))
    missing = []
    for scenario, type_name, rid in stated:
        tool, pname = taker[type_name]
        args = valid_arguments(sim, CORPUS[tool], EpisodeState(), "stated") or {}
        if sim.call(tool, {**args, pname: rid}, EpisodeState()).status == 404:
            missing.append((scenario, type_name, rid))
    assert missing == []
