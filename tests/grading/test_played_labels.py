"""Played episodes (../shared/played/v3) whose labels, recovery and c* once misled.

Each is replayed through ``toolmaze_gym.play`` as a person played it; the asserts are
on labels, recovery and costs, not on success (other rules still move those).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.grading.test_played import _replay

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v3"


@cache
def _played(episode: str) -> tuple[dict, str]:
    return _replay(PLAYED / f"{episode}.actions", episode)


@pytest.mark.parametrize("episode", ["tmz-v3-c4-0050-P2", "tmz-v3-c4-0082-P2",
                                     "tmz-v3-c3-0062-P3"])
def test_a_slot_the_listing_shows_done_after_the_fault_is_recovered(episode):
    """Alternatives used, a rate applied by hand, a search retried with its summary
    written by the agent: recovered, and the explanation names no step as undone."""
    g, text = _played(episode)
    assert g["recovered"] is True
    assert "recovered: yes" in text


@pytest.mark.parametrize("episode", ["tmz-v3-c3-0083-P2", "tmz-v3-c3-0049-P4"])
def test_an_alternative_tool_is_a_path_switch(episode):
    g, _ = _played(episode)
    assert "path_switch" in g["labels"]


def test_a_required_action_with_a_wrong_value_is_not_collateral_damage():
    g, text = _played("tmz-v3-c4-0050-P2")
    if g["harmful"]:
        assert "wrong_arguments" in g["labels"] and "collateral_damage" not in g["labels"]
        assert "(wrong_arguments" in text


@pytest.mark.parametrize("episode", sorted(p.stem for p in PLAYED.glob("*.actions")))
def test_c_is_never_below_c_star(episode):
    """c* is for an agent that makes this agent's choices: a careful agent that
    skips a converter or an optional lookup cannot beat it."""
    g, _ = _played(episode)
    assert g["c"] >= g["c_star"]


ALL_PLAYED = PLAYED.parent
# Played files whose c* is known wrong, each a strict xfail naming the defect.
C_STAR_KNOWN: dict[str, str] = {
    # v9 c3-0043 P3 `status-and-time-tools` (c* 7 for the agent's 6) is right since grading
    # version 21: its convert_datetime call stood in for the time zone lookup and was the
    # side's conversion too, counted once (costs._stand_ins counts a Processor by kind).
}


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=[pytest.mark.xfail(strict=True, reason=C_STAR_KNOWN[p])]
                 if p in C_STAR_KNOWN else [])
    for p in sorted(str(p.relative_to(ALL_PLAYED)) for p in ALL_PLAYED.glob("**/*.actions"))])
def test_a_recovered_episode_never_beats_c_star(path):
    """Issue 27 item 6 over every played episode, probe and slip: c* is for an agent
    that derives what this agent derived and calls what it called, so wherever the
    agent recovered and attempted every required Action, c >= c* (an Action never
    attempted is counted in c* and not in c: v21 play-test c2-0024 P4 `no_delete`)."""
    g, _ = _replay(ALL_PLAYED / path, Path(path).name.split(".")[0])
    if g["recovered"] and "missing_action" not in g["labels"]:
        assert g["c"] >= g["c_star"]


def test_find_device_for_list_room_devices_is_no_shorter_recovery():
    """v5 c3-0016 P2: after get_room_climate's permanent 501 the player found the
    sensor with find_device instead of list_room_devices. That call did the listing's
    work, so c* counts it: the recovery is as short as one can be (c = c*), as the
    probe that lists the room instead."""
    v5 = ALL_PLAYED / "v5"
    played, _ = _replay(v5 / "tmz-v5-c3-0016-P2.actions", "tmz-v5-c3-0016-P2")
    probe, _ = _replay(v5 / "probes" / "tmz-v5-c3-0016-P2.listroom.actions",
                       "tmz-v5-c3-0016-P2")
    assert played["recovered"] and played["c"] == played["c_star"]
    assert probe["c"] == probe["c_star"] == played["c_star"]


def test_a_setpoint_told_in_whole_degrees_answers_no_reading():
    """toolmaze-v3 round 5 c4-0045 P2 (verdict: the task's): asked what the bedroom
    reads (20.7 °C), the player told the eco set point, 21 °C, and the outdoor 22.4 °C.
    Since grading version 14 the set point is no reading it rounds to: the reading is
    unanswered."""
    folder = ALL_PLAYED / "v3-round5"
    g, _ = _replay(folder / "tmz-v3-c4-0045-P2.actions", "tmz-v3-c4-0045-P2")
    assert not g["success"]
    assert [u["value"] for u in g["unanswered"]] == [20.7]
