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
