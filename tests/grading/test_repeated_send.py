"""A draft sent twice is sent once: the second ``send_draft`` answers 409 and changes
nothing, so the grade is the one of a single send (the toolmaze-v14 play-test p2 asked
whether a repeated send was tolerated on purpose: it is, by the world's own answer)."""

from __future__ import annotations

from tests.grading.test_played import PLAYED, played_text
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

SOURCE = PLAYED / "v14-g30" / "tmz-v14-c4-0001-P2.actions"
SEND = 'send_draft {"draft_id": "DRF-ZTYLW868"}'


def _record(lines: list[str]) -> dict:
    s = PlaySession(get_task("tmz-v14-c4-0001"), "P2", prompt="failure_aware")
    for line in lines:
        if s.done:
            break
        s.handle(line)
    return s.env.record()


def test_a_second_send_of_the_same_draft_is_refused_and_changes_nothing():
    lines = played_text(SOURCE).splitlines()
    assert lines.count(SEND) == 1
    at = lines.index(SEND)
    once, twice = _record(lines), _record([*lines[:at + 1], SEND, *lines[at + 1:]])
    sends = [s for s in twice["steps"] if s["action"].get("name") == "send_draft"]
    assert len(sends) == 2 and "error" in sends[1]["observation"]
    assert "409" in str(sends[1]["observation"]) and "already sent" in str(sends[1]["observation"])
    assert once["grade"]["success"] and twice["grade"]["success"]
