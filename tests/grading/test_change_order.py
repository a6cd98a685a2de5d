"""A change told the right way round (``grading.change_order``, grading version 21)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay
from toolmaze_gym.grading.change_order import changes, swapped
from toolmaze_gym.tasks.suite import get_task

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v9-g21"


@pytest.mark.parametrize(("text", "figure"), [
    ("setpoint was 20.5 °C, now 19 °C (heat)", ""),
    ("now 19 °C (was 20.5 °C)", ""),                      # each with its own label
    ("went from 20.5 °C to 19 °C", ""),
    ("20.5 °C → 19 °C", ""),
    ("old setpoint: 20.5 °C, new setpoint: 19 °C", ""),
    ("20.5 °C before, 19 °C now", ""),                    # labels after the figures
    ("lowered to 19 °C", ""),
    ("the eco setpoint is 19 °C", ""),                    # no label: nothing either way
    ("setpoint was 19 °C, now 20.5 °C (heat)", "19"),     # the other way round
    ("went from 19 °C to 20.5 °C", "19"),
    ("19 °C → 20.5 °C", "20.5"),
    ("now 20.5 °C (was 19 °C)", "20.5"),
    ("19 °C before, 20.5 °C now", "19"),
    ("raised to 20.5 °C", "20.5"),
])
def test_a_change_told_the_other_way_round(text, figure):
    assert swapped(text, 20.5, 19.0) == figure


def test_an_unchanged_value_or_no_figures_says_nothing():
    assert swapped("was 19 °C, now 19 °C", 19.0, 19.0) == ""
    assert swapped("was 19 °C, now 20.5 °C", None, 19.0) == ""


def test_the_old_and_new_setpoint_are_a_change():
    """The scenario cues the reading "old" and the set point "new"."""
    assert [(c[0], c[2], c[3], c[5]) for c in changes(get_task("tmz-v9-c3-0028"))] \
        == [("s2", 20.5, "s5", 19.0)]
    assert changes(get_task("tmz-v9-c4-0090")) == ()


@pytest.mark.parametrize(("name", "success"), [
    ("tmz-v9-c3-0028-P2.actions", True),                  # as played
    ("tmz-v9-c3-0028-P2.swapped.actions", False),         # "was 19 °C, now 20.5 °C"
])
def test_the_household_is_told_the_change_the_right_way_round(name, success):
    """toolmaze-v9 play-test p4 c3-0028 P2 `swapped`."""
    g, out = _replay(next(PLAYED.rglob(name)), "tmz-v9-c3-0028-P2")
    assert g["success"] is success, out
