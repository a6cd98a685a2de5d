"""A text the request asks to note several facts carries each one (grading version 18;
toolmaze-v7 play-test c4-0099 P2: "a to-do ... noting SO-4DNKM2FU's delivery date, the
return, refund and new order" passed without the refund)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from tests.grading.test_played import _replay, played_text, replay_variant
from toolmaze_gym.agents.scripted import OracleAgent
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.asked_facts import clause_on, cue_starts
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.play import PlaySession
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.suite import get_task

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v7"


def test_a_noting_clause_runs_from_the_actions_word_to_the_clause_end():
    q = "Book it, then create a to-do noting the return and refund. Tell me the rest."
    assert [clause_on(q, at) for at in cue_starts(q, ("to-do",))] == \
        ["to-do noting the return and refund"]


def test_the_refund_the_to_do_is_asked_to_note_is_added_to_its_asks():
    task = get_task("tmz-v7-c4-0099")
    noted = with_noted(task, load_corpus())
    added = {m[1] for s in noted.slots for i in s.inputs for m in i.mentions} \
        - {m[1] for s in task.slots for i in s.inputs for m in i.mentions}
    assert added == {559.98}
    assert with_noted(get_task("tmz-v7-c1-0010"), load_corpus()) == get_task("tmz-v7-c1-0010")


@pytest.mark.parametrize(("new", "success"), [
    (None, True),                                                 # as played
    ("refund 559.98 USD", True),
    ("refund of USD 559.98", True),                               # other words
    ("", False),                                                  # the refund left out
    ("refund 599.98 USD", False),                                 # a wrong refund
])
def test_the_to_do_must_note_the_refund(tmp_path, new, success):
    source = PLAYED / "tmz-v7-c4-0099-P2.actions"
    text = played_text(source)
    old = ", refund 559.98 USD,"
    assert old in text
    if new is not None:
        text = text.replace(old, f", {new}," if new else ",")
    g, out = replay_variant(source, text, "tmz-v7-c4-0099-P2", tmp_path)
    assert g["success"] is success, out


def test_a_cue_inside_a_longer_cue_names_the_longer_ones_output():
    """toolmaze-v9 c1-0067: "notify the household of the new temperature" names the set
    point ("new temperature"), not the reading whose cue "temperature" it holds; the
    reading is asked of the final answer ("tell me what it reads now")."""
    task = get_task("tmz-v9-c1-0067")
    assert with_noted(task, load_corpus()) == task
    # the request's own words, with the reading's cue said on its own, still ask it
    said = task.query.replace("of the new temperature", "of the new temperature and the "
                              "temperature it read")
    asked = with_noted(dataclasses.replace(task, query=said), load_corpus())
    added = {m[1] for s in asked.slots for i in s.inputs for m in i.mentions} \
        - {m[1] for s in task.slots for i in s.inputs for m in i.mentions}
    assert added == {21.5}


@pytest.mark.parametrize(("message", "success"), [
    ("the guest room thermostat has been raised to 22.5 °C (72.5 °F)", True),  # as played
    ("the guest room thermostat has been raised to 24 °C (75.2 °F)", False),   # wrong
])
def test_the_household_is_told_the_new_temperature(tmp_path, message, success):
    played = Path(__file__).parent.parent / "data" / "played" / "v9"
    source = played / "tmz-v9-c1-0067-P3.actions"
    text = source.read_text(encoding="utf-8")
    old = "the guest room thermostat has been raised to 22.5 °C (72.5 °F)"
    assert old in text
    path = tmp_path / source.name
    path.write_text(text.replace(old, message), encoding="utf-8")
    g, out = _replay(path, "tmz-v9-c1-0067-P3")
    assert g["success"] is success, out


PLAYED_V21 = Path(__file__).parent.parent / "data" / "played" / "v9-g21"


def test_a_text_with_no_asks_of_its_own_is_asked_what_its_clause_names():
    """toolmaze-v9 play-test p4 c4-0090 P1: "Make an itinerary showing the visa type and
    landing time": the title had no asks, so a wrong landing time passed (version 21).
    Both things the clause names are asked of it: the landing time and the visa type."""
    task = get_task("tmz-v9-c4-0090")
    title = next(i for s in task.slots for i in s.inputs if i.role == "title")
    assert title.mentions == ()
    title = next(i for s in with_noted(task, load_corpus()).slots for i in s.inputs
                 if i.role == "title")
    assert [m[1] for m in title.mentions] == ["2026-08-28T21:15:00+02:00", "visa-free"]


def test_a_value_another_argument_carries_is_not_asked_of_the_text():
    """toolmaze-v3 c3-0059: "make me a task due 2026-08-22 to wrap the gift": the date
    the to-do's due date carries is not asked of its title too."""
    task = get_task("tmz-v3-c3-0059")
    assert with_noted(task, load_corpus()) == task


def _itinerary_id(actions: str) -> str:
    """The id create_itinerary answers ``actions``' itinerary with (it hangs on the title)."""
    s = PlaySession(get_task("tmz-v9-c4-0090"), "P1", prompt="failure_aware")
    for line in actions.splitlines():
        reply = s.handle(line)
        if line.startswith("create_itinerary"):
            return re.search(r"ITN-[A-Z0-9]+", reply.text).group()
    raise AssertionError("no create_itinerary")


@pytest.mark.parametrize(("title", "success"), [
    (None, True),                                                       # as played
    ("lands in Munich 21:15 local time", True),                         # no UTC gloss
    ("lands in Munich 20:15 local time", False),                        # wrong landing
    ("lands in Munich", False),                                         # no landing time
])
def test_the_itinerary_title_tells_the_landing_time(tmp_path, title, success):
    source = PLAYED_V21 / "tmz-v9-c4-0090-P1.actions"
    text = played_text(source)
    old = "lands in Munich 21:15 local time (19:15 UTC)\"}"
    assert old in text
    if title is not None:
        text = text.replace(old, f"{title}\"}}")
        text = text.replace("ITN-Z7ZSHKKT", _itinerary_id(text))  # the id its title gets
    g, out = replay_variant(source, text, "tmz-v9-c4-0090-P1", tmp_path)
    assert g["success"] is success, out


def test_the_slip_with_the_wrong_landing_time_in_the_title_fails():
    slip = PLAYED_V21 / "slips" / "tmz-v9-c4-0090-P1.titlewrongland.actions"
    g, out = _replay(slip, "tmz-v9-c4-0090-P1")
    assert not g["success"], out


def test_a_fact_a_legacy_task_asks_by_value_is_not_asked_again_by_its_output():
    """toolmaze-v2's tasks record a text's asks without their step outputs; "write the
    #sales-apac club a quick brief on Vellumon Leisure AG: current price, ..." names the
    price its post asks already, which asked again by its output would ask 244.93 CHF
    written twice (the reference writes it once)."""
    post = with_noted(get_task("tmz-v2-c1-0055"), load_corpus()).slot_by_id["s6"]
    told = [m for i in post.inputs for m in i.mentions]
    assert [m[1] for m in told].count(244.93) == 1
    assert [m[1] for m in told].count(3.67) == 1


# Grading version 32: a clause asks the Action whose own words begin it, up to the next
# errand (the toolmaze-v14 review's sweep of what the noted-facts rule added).

def _oracle_lines(task_id: str) -> list[str]:
    """The reference run of ``task_id`` as `toolmaze play` lines, its answer last."""
    rec = rollout(get_task(task_id), "P0", OracleAgent())
    lines = [f"{a['name']} {json.dumps(a.get('arguments', {}), ensure_ascii=False)}"
             for a in (s["action"] for s in rec["steps"]) if a.get("name", "finish") != "finish"]
    return [*lines, "finish All done as asked."]


def _graded_lines(tmp_path: Path, task_id: str, lines: list[str]) -> tuple[dict, str]:
    path = tmp_path / "episode.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return _replay(path, f"{task_id}-P0")


def _with_subject(lines: list[str], tool: str, key: str, subject: str) -> list[str]:
    out = []
    for line in lines:
        name, _, args = line.partition(" ")
        if name == tool:
            args = json.dumps({**json.loads(args), key: subject}, ensure_ascii=False)
        out.append(f"{name} {args}")
    return out


@pytest.mark.parametrize(("task_id", "tool", "key", "subject"), [
    # "Please book a room, save the to-dos ... and invite Ines Moreau": the room is booked,
    # the invite is not asked to name it
    ("tmz-v14-c4-0034", "schedule_meeting", "subject", "Sprint retrospective"),
    # "book a room ... for a welcome meeting with yuki.novak@umbrella.co ..., and post a
    # brief summary with the meeting time ... and the room": the room is the post's
    ("tmz-v14-c4-0005", "create_calendar_event", "summary", "Welcome Malik Silva"),
    # "... a summary of all that, meeting time (Milan time) and room included, posted"
    ("tmz-v14-c4-0060", "create_calendar_event", "summary", "Welcome Emma Schmidt"),
    # "book a call with the customer then, reply ... with the ticket number": the reply's
    ("tmz-v14-c4-0020", "schedule_meeting", "subject", "Call about your complaint"),
    # "... for a walkthrough call, and text Mia Schmidt the invoice": the text's
    ("tmz-v14-c2-0083", "create_calendar_event", "summary", "Walkthrough call"),
])
def test_a_meeting_named_in_its_own_words_passes(tmp_path, task_id, tool, key, subject):
    lines = _oracle_lines(task_id)
    assert any(line.startswith(tool + " ") for line in lines)
    grade, closing = _graded_lines(tmp_path, task_id, _with_subject(lines, tool, key, subject))
    assert grade["success"], closing


def test_a_clause_that_does_ask_the_meeting_for_the_room_still_does():
    """The same request asking the invite "to a meeting in the room we booked" holds the
    invite's subject to the room: the rule reads whose words begin the clause."""
    task = get_task("tmz-v14-c4-0034")
    assert with_noted(task, load_corpus()) == task
    said = task.query.replace("and invite Ines Moreau.",
                              "and invite Ines Moreau to a meeting in the room, saying which.")
    assert said != task.query
    asked = with_noted(dataclasses.replace(task, query=said), load_corpus())
    subject = {i.role: i.mentions for s in asked.slots if s.id == "s8" for i in s.inputs}
    assert [m[1] for m in subject["subject"]] == ["Manchester Delta"]


def test_a_wrong_meeting_still_fails(tmp_path):
    lines = _oracle_lines("tmz-v14-c4-0034")
    wrong = [line.replace('"2026-08-26T16:00:00Z", "duration_minutes": 90, "subject"',
                          '"2026-08-26T17:00:00Z", "duration_minutes": 90, "subject"')
             for line in lines]
    assert wrong != lines
    grade, _ = _graded_lines(tmp_path, "tmz-v14-c4-0034", wrong)
    assert not grade["success"]
