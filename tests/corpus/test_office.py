"""Office domain: stateful tools see earlier changes, providers of one capability agree."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.corpus.helpers import call, status_of
from toolmaze_gym import values
from toolmaze_gym.corpus import Simulator, load_corpus
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import World

QUOTA = {"Source": 12, "Processor": 12, "Action": 37}
GROUP_QUOTA = {"one_to_one": 9, "one_to_n": 5, "n_to_n": 11}


@pytest.fixture(scope="module")
def world() -> World:
    return World(3)


@pytest.fixture(scope="module")
def sim(world: World) -> Simulator:
    return Simulator(world=world)


def sample(world: World, type_name: str, key: str) -> Any:
    return values.get(type_name).sample(world, key)


def day(world: World, days: int) -> str:
    return (world.now + timedelta(days=days)).strftime("%Y-%m-%d")


def at(world: World, days: int, hour: int) -> str:
    return f"{day(world, days)}T{hour:02d}:00:00Z"


# ---------------------------------------------------------------- shape of the domain


def test_office_counts_match_quota() -> None:
    c = load_corpus()
    tools = c.by_domain("Office")
    assert {cat: sum(t.category == cat for t in tools) for cat in QUOTA} == QUOTA
    groups = [g for g in c.groups if g.domain == "Office"]
    assert {k: sum(g.kind == k for g in groups) for k in GROUP_QUOTA} == GROUP_QUOTA
    assert all(g.id.startswith("office_") for g in groups)


def test_every_office_tool_answers_sampled_arguments(world: World, sim: Simulator) -> None:
    for key in range(6):
        for t in load_corpus().by_domain("Office"):
            args = {p.name: sample(world, p.type, f"{t.name}.{p.name}.{key}") for p in t.params}
            call(sim, EpisodeState(), t.name, **args)


def test_reads_leave_the_episode_untouched(world: World, sim: Simulator) -> None:
    for t in load_corpus().by_domain("Office"):
        if t.category == "Action":
            continue
        st = EpisodeState()
        args = {p.name: sample(world, p.type, f"{t.name}.{p.name}") for p in t.params}
        call(sim, st, t.name, **args)
        assert st.data == {} and st.effects == [], t.name


# ---------------------------------------------------------------- stateful tools


def test_scheduled_slot_is_no_longer_available(world: World, sim: Simulator) -> None:
    st = EpisodeState()
    date = day(world, 2)
    first = call(sim, st, "query_availability", date=date, duration_minutes=60)
    graph = call(sim, st, "find_meeting_times", date=date, meetingDurationMinutes=60)
    assert graph["suggestion.suggestedStart"] == first["start"]
    attendee = world.people.emails[0]
    call(sim, st, "schedule_meeting", attendee=attendee, start=first["start"],
         duration_minutes=60, subject="Planning")
    second = call(sim, st, "query_availability", date=date, duration_minutes=60)
    assert second["start"] > first["start"]


def test_reschedule_and_cancel_are_visible(world: World, sim: Simulator) -> None:
    st = EpisodeState()
    made = call(sim, st, "schedule_meeting", attendee=world.people.emails[1],
                start=at(world, 3, 10), duration_minutes=30, subject="1:1")
    mid = made["meeting_id"]
    call(sim, st, "reschedule_meeting", meeting_id=mid, start=at(world, 4, 15))
    got = call(sim, st, "get_meeting", meeting_id=mid)
    assert got["start"] == at(world, 4, 15) and got["status"] == "rescheduled"
    assert got["duration_minutes"] == 30
    call(sim, st, "cancel_meeting", meeting_id=mid)
    assert call(sim, st, "get_meeting", meeting_id=mid)["status"] == "cancelled"
    assert status_of(sim, st, "cancel_meeting", meeting_id=mid) == 409
    assert status_of(sim, st, "reschedule_meeting", meeting_id=mid,
                     start=at(world, 5, 9)) == 409


def test_booked_room_is_not_offered_again(world: World, sim: Simulator) -> None:
    st = EpisodeState()
    req = {"city": "Paris", "min_capacity": 6, "start": at(world, 2, 9), "duration_minutes": 60}
    room = call(sim, st, "find_room", **req)
    assert room["capacity"] >= 6
    booking = {k: req[k] for k in ("start", "duration_minutes")}
    call(sim, st, "book_room", room_id=room["room_id"], **booking)
    assert status_of(sim, st, "book_room", room_id=room["room_id"], **booking) == 409
    assert call(sim, st, "find_room", **req)["room_id"] != room["room_id"]


def test_posted_message_is_latest_in_channel(sim: Simulator) -> None:
    st = EpisodeState()
    before = call(sim, st, "get_channel_history", channel="finance")
    call(sim, st, "post_slack_message", channel="finance", text="EUR/USD closed at 1.09.")
    after = call(sim, st, "get_channel_history", channel="finance")
    assert after["text"] == "EUR/USD closed at 1.09."
    assert after["message_count"] == before["message_count"] + 1
    assert status_of(sim, st, "post_slack_message", channel="no-such-channel", text="hi") == 422


def test_appended_text_counts_in_document(sim: Simulator) -> None:
    st = EpisodeState()
    doc = call(sim, st, "create_document", title="Trip notes")["document_id"]
    assert call(sim, st, "get_document", document_id=doc)["word_count"] == 0
    out = call(sim, st, "append_to_document", document_id=doc, text="Flight lands at nine.")
    assert out["word_count"] == 4
    assert call(sim, st, "get_document", document_id=doc)["word_count"] == 4


def test_ticket_lifecycle(world: World, sim: Simulator) -> None:
    st = EpisodeState()
    tid = call(sim, st, "create_ticket", summary="VPN down", description="Since 9am",
               priority="high")["ticket_id"]
    assignee = world.people.emails[5]
    call(sim, st, "assign_ticket", ticket_id=tid, assignee=assignee)
    got = call(sim, st, "get_ticket", ticket_id=tid)
    assert got["assignee"] == assignee and got["status"] == "assigned"
    call(sim, st, "close_ticket", ticket_id=tid, resolution="Router restarted")
    assert call(sim, st, "get_ticket", ticket_id=tid)["status"] == "closed"
    assert status_of(sim, st, "close_ticket", ticket_id=tid, resolution="again") == 409
    assert call(sim, st, "assign_ticket", ticket_id=tid, assignee=assignee)["status"] == "closed"
    assert status_of(sim, st, "assign_ticket", ticket_id=tid,
                     assignee="nobody@unknown.example") == 404


def test_draft_is_sent_once(world: World, sim: Simulator) -> None:
    st = EpisodeState()
    did = call(sim, st, "create_draft", to=world.people.emails[2], subject="Hi",
               body="Lunch?")["draft_id"]
    call(sim, st, "send_draft", draft_id=did)
    assert status_of(sim, st, "send_draft", draft_id=did) == 409
    assert len(st.data["office.outbox"]) == 1


def test_bad_input_is_rejected(world: World, sim: Simulator) -> None:
    st = EpisodeState()
    past = (world.now - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert status_of(sim, st, "schedule_meeting", attendee=world.people.emails[0], start=past,
                     duration_minutes=30, subject="Late") == 422
    assert status_of(sim, st, "query_availability", date=day(world, 1),
                     duration_minutes=900) == 422
    assert status_of(sim, st, "get_latest_email", from_address="ghost@nowhere.example") == 404
    assert status_of(sim, st, "find_room", city="Paris", min_capacity=500,
                     start=at(world, 2, 9), duration_minutes=30) == 404
    assert not st.effects


# ---------------------------------------------------------------- alternatives agree


def run_side(sim: Simulator, side: tuple[str, ...], key: str) -> dict[str, Any]:
    """Run a chain, binding each parameter from an earlier output of its type if any."""
    st, produced, body = EpisodeState(), {}, {}
    for name in side:
        spec = sim.corpus[name]
        args = {p.name: produced[p.type] if p.type in produced
                else sample(sim.world, p.type, f"{key}.{p.type}") for p in spec.params}
        body = call(sim, st, name, **args)
        produced.update({f.type: body[f.name] for f in spec.returns})
    return {f.type: body[f.name] for f in sim.corpus[side[-1]].returns}


@pytest.mark.parametrize("gid", [g.id for g in load_corpus().groups if g.domain == "Office"])
def test_group_sides_agree(sim: Simulator, gid: str) -> None:
    group = load_corpus().group_by_id[gid]
    for key in range(3):
        outs = [run_side(sim, side, f"{gid}.{key}") for side in group.members]
        for t in group.provides:
            assert all(values.get(t).same(o[t], outs[0][t]) for o in outs), (t, outs)


def test_world_is_deterministic() -> None:
    a, b = World(11), World(11)
    held = a.office.sample_record("meetings", "det")
    ids = [a.office.meeting(held).start, a.office.room_ids[:5],
           a.office.busy_blocks(a.now.date() + timedelta(days=1))]
    assert ids == [b.office.meeting(held).start, b.office.room_ids[:5],
                   b.office.busy_blocks(b.now.date() + timedelta(days=1))]
    assert a.office.me == b.office.me
