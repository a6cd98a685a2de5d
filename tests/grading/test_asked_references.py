"""Where the request asks for the booking references themselves, a text must carry the
codes: the flight number or the hotel's name no longer stand in (grading version 16,
the toolmaze-v6 play-test's _REFS slips). Where it asks only to mention the bookings,
any identifier still names them (``test_record_names``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolmaze_gym.grading.asked_references import is_reference, references_asked
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

V6 = Path(__file__).parent.parent / "data" / "played" / "v6"
TRIP = "tmz-v6-c3-0074-P2"  # "send ines.souza@tailspin.dev both booking references"
FLIGHT_REF = ", booking reference 6SSG98.\\n"
HOTEL_REF = ", reservation HR-6KE95TCS.\\n"


@pytest.mark.parametrize(("query", "asked"), [
    ("send ines.souza@tailspin.dev both booking references", True),
    ("e-mail me the confirmation codes", True),
    ("text her the booking code and the weather", True),
    ("send me an e-mail mentioning the flight, the hotel and the car", False),
])
def test_references_are_asked_by_that_word(query, asked):
    assert references_asked(query) is asked


def test_the_reference_keys_are_the_booking_codes():
    assert is_reference("flight_booking_ref@booking_ref")
    assert is_reference("hotel_reservation_id@reservation_id")
    assert not is_reference("flight_id@flight_id") and not is_reference("text@hotel_name")


def _played_with(lines: list[str]) -> dict:
    """The episode replayed, the draft sent being the one this replay created (its id
    follows from its text)."""
    s = PlaySession(get_task(TRIP.rsplit("-", 1)[0]), "P2", prompt="failure_aware")
    draft = ""
    for line in lines:
        if s.done:
            break
        if line.startswith("send_draft "):
            line = f'send_draft {json.dumps({"draft_id": draft})}'
        s.handle(line)
        if line.startswith("create_draft "):
            draft = json.loads(s.steps[-1].observation)["draft_id"]
    return s.env.record()["grade"]


@pytest.mark.parametrize(("drop", "success"), [
    ((), True),
    ((FLIGHT_REF,), False),             # the flight only by its number W63695
    ((HOTEL_REF,), False),              # the hotel only by its name
    ((FLIGHT_REF, HOTEL_REF), False),
])
def test_the_asked_references_must_be_the_codes(drop, success):
    lines = (V6 / f"{TRIP}.actions").read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("create_draft "))
    for part in drop:
        assert part in lines[k]
        lines[k] = lines[k].replace(part, ".\\n")
    g = _played_with(lines)
    assert g["success"] is success
    assert [m["tool"] for m in g["missing"]] == ([] if success else ["create_draft"])
