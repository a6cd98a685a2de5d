"""A time the request asks in a named zone is told on that zone's clock, in a text the
agent sent or the final answer (grading version 19; the toolmaze-v8 blind review:
c4-0001's Vienna call time and c3-0012's landing "local time" were graded nowhere).

Each episode is the task's reference path played in the env (no faults), its texts
and final answer written as a careful agent might; one change at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.grading.zone_told import clock_told, free_texts, zone_asks
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

CALL = "tmz-v8-c4-0001"      # a call with a friend in Vienna "in their local time"
LANDING = "tmz-v8-c3-0012"   # "Find out when I land, local time, and book a room ..."
SCENE = "tmz-v8-c1-0009"     # "schedule ... welcome home scene for that local time"
VIENNA = "2026-08-30T14:00:00+02:00"
SHANGHAI = "2026-08-20T11:24:00+08:00"
BODY = ("Order SO-AQMPRJFC (1 Northwind Studio USB-C Hub) should arrive by Monday 24 "
        "August. {call}")


def play(task_id: str, texts: dict[str, str], answer: str) -> dict[str, Any]:
    """The grade of ``task_id``'s reference path with its text arguments ``texts``
    (argument name -> words) and the final answer ``answer``."""
    s = PlaySession(get_task(task_id), "P0", prompt="failure_aware")
    for c in get_task(task_id).default_path.calls:
        args = {k: texts.get(k, v) for k, v in c.args.items()}
        s.handle(json.dumps({"name": c.tool, "arguments": args}, ensure_ascii=False))
    s.handle(json.dumps({"name": "finish", "arguments": {"answer": answer}}))
    return s.env.record()["grade"]


def test_only_a_conversion_asked_for_itself_is_asked():
    corpus = Simulator().corpus
    assert [z[1] for z in zone_asks(get_task(CALL), corpus)] == [VIENNA]
    assert [z[1] for z in zone_asks(get_task(LANDING), corpus)] == [SHANGHAI]
    # a local time only scheduled by (read by a later step, not asked to be found out)
    assert zone_asks(get_task(SCENE), corpus) == ()


@pytest.mark.parametrize(("text", "told"), [
    ("The call is at 14:00 Vienna time on Sunday 30 August.", True),
    ("Call on Sunday 30 August at 2 pm your time", True),
    ("Appel le dimanche 30 août à 14h, heure de Vienne", True),
    ("We talk at 14:00 your time.", True),                  # no date written: the request's
    ("We talk on 30 August at 12:00 UTC.", False),          # the instant, not Vienna's clock
    ("We talk on 30 August at 15:00 your time.", False),
    ("We talk at 14:00 your time on 31 August.", False),   # the clock on another day
])
def test_the_clock_is_read_in_any_competent_format(text, told):
    assert clock_told(text, VIENNA) is told


@pytest.mark.parametrize(("subject", "call", "answer", "success"), [
    ("Video call: 14:00 your time, Sunday 30 August", "", "Done.", True),
    ("Video call", "Our call is at 14:00 Vienna time on Sunday 30 August.", "Done.", True),
    ("Video call", "", "Booked the call for 2 pm Vienna time on Sunday 30 August.", True),
    ("Video call", "", "Done: order SO-AQMPRJFC, call booked.", False),  # v8 review's replay
    ("Video call at 12:00 UTC", "Call at 12:00 UTC on Sunday 30 August.", "Done.", False),
])
def test_the_vienna_time_of_the_call_is_told_somewhere(subject, call, answer, success):
    prices = " Price 80.91 GBP, shipping 16.73 GBP."
    graded = play(CALL, {"subject": subject, "body": BODY.format(call=call)},
                  answer + prices)
    assert graded["success"] is success, graded["unanswered"]


@pytest.mark.parametrize(("answer", "success"), [
    ("You land at 11:24 Shanghai time; room shanghai-andes is booked 13:24-14:54.", True),
    ("Your flight lands at 11:24 local time on Thursday 20 August.", True),
    ("Room shanghai-andes booked for 13:24 local time, 90 minutes.", False),  # v8 replay
    ("You land at 03:24 UTC; room shanghai-andes booked.", False),
])
def test_the_landing_time_asked_is_told_in_the_answer(answer, success):
    assert play(LANDING, {}, answer)["success"] is success


def test_only_an_actions_free_texts_tell_a_clock():
    """A room booked at the instant tells nobody the time; a Processor's input neither."""
    corpus = Simulator().corpus
    assert free_texts(corpus, "book_room", {"room_id": "shanghai-andes", "start": SHANGHAI,
                                            "duration_minutes": 90}) == []
    assert free_texts(corpus, "shift_datetime", {"datetime": SHANGHAI, "minutes": 120}) == []
    assert free_texts(corpus, "send_email", {"to": "a@b.c", "subject": "S", "body": "B"}) \
        == ["S", "B"]
