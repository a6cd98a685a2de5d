"""A figure the final answer states wrong fails, though a text carries it right
(grading version 19; toolmaze-v8 play-test c3-0040 P2 ``FVoff``: the SMS carried the
10-year value 69,188,015.37 JPY, the answer told the user ¥69,188,915)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed
from toolmaze_gym.explain import _unanswered_reason
from toolmaze_gym.grading.wrong_figures import near_figures

V8 = Path(__file__).parent.parent / "data" / "played" / "v8"
PROJECTION = "tmz-v8-c3-0040-P2"  # SMS and answer: a portfolio's yen value in 10 years
PLAYED = V8 / f"{PROJECTION}.actions"
TOLD = "about ¥69,188,015 in 10 years"  # as played: the whole yen of 69,188,015.37


def test_a_near_figure_that_is_no_rounding_of_the_sum_is_a_wrong_claim():
    assert near_figures("grow to ¥69,188,915", 69188015.37) == [69188915.0]
    assert near_figures("grow to ¥69,188,015", 69188015.37) == []   # whole yen
    assert near_figures("about ¥69,188,000", 69188015.37) == []     # to the thousand
    assert near_figures("about 1,205 GBP", 1205.21) == []            # to the unit
    assert near_figures("¥69.19 million", 69188015.37) == []        # nothing near
    assert near_figures("¥69,188,015.37 (not ¥69,188,915)", 69188015.37) == []
    assert near_figures("220,014.39 JPY", 220014.0) == []            # told more finely


@pytest.mark.parametrize(("told", "wrong"), [
    (TOLD, None),
    ("about ¥69,188,000 in 10 years", None),   # rounded to the thousand it is written to
    ("¥69,188,915 in 10 years", 69188915.0),   # a wrong figure, though the SMS is right
    ("about ¥69,188,016 in 10 years", None),   # rounded up: whole yen either way
    ("about ¥69,188,017 in 10 years", 69188017.0),
])
def test_the_answer_states_the_sum_the_sms_carries_right_or_not_at_all(
        tmp_path, told, wrong):
    g = replay_changed(PLAYED, PROJECTION, TOLD, told, tmp_path)
    assert g["success"] is (wrong is None)
    assert [u.get("told") for u in g["unanswered"]] == ([] if wrong is None else [wrong])


def test_an_answer_that_leaves_the_sum_to_the_sms_passes():
    g, _ = _replay(V8 / "probes" / f"{PROJECTION}.noFV.actions", PROJECTION)
    assert g["success"]


def test_the_explanation_names_the_wrong_figure_and_the_right_one():
    said = _unanswered_reason({"type": "money_amount", "value": 69188015.37,
                               "slot": "s4", "told": 69188915.0})
    assert "69188915" in said and "69188015.37" in said and "wrong figure" in said


@pytest.mark.parametrize("truncated", [False, True])
def test_an_episode_with_no_action_is_graded_a_failure_not_an_error(truncated):
    """A run can cut an episode before its first action (a model that failed on its
    first turn); the final answer is only read where the episode finished."""
    from tests.grading._helpers import profile, simulator
    from toolmaze_gym.grading import grade
    from toolmaze_gym.tasks.suite import get_task

    task = get_task(PROJECTION.rsplit("-", 1)[0])
    g = grade(task, profile(task, "P2"), [], truncated=truncated, sim=simulator())
    assert not g.success and not g.exposed
