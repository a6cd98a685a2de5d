"""The paired TSR lift: episodes matched by key, a seeded bootstrap interval."""

from __future__ import annotations

import pytest

from toolmaze_gym.lift import paired_lift


def _runs(outcomes: list[bool], prefix: str = "t") -> list[dict]:
    return [{"key": f"{prefix}{i}/P0/standard/0", "grade": {"success": s}}
            for i, s in enumerate(outcomes)]


def test_a_clear_lift_has_an_interval_above_zero():
    before = _runs([False] * 60 + [True] * 20)
    after = _runs([True] * 50 + [False] * 10 + [True] * 20)
    lift = paired_lift(before, after)
    assert lift.pairs == 80 and lift.lift == pytest.approx(50 / 80)
    assert 0 < lift.ci[0] <= lift.lift <= lift.ci[1] and lift.excludes_zero()


def test_no_change_is_not_called_a_lift():
    # the same success rate, shuffled over the episodes: the interval spans zero
    before = _runs([i % 2 == 0 for i in range(60)])
    after = _runs([i % 2 == 1 for i in range(60)])
    lift = paired_lift(before, after)
    assert lift.lift == 0 and lift.ci[0] < 0 < lift.ci[1] and not lift.excludes_zero()


def test_only_paired_episodes_count_and_the_rest_are_counted():
    before = _runs([False] * 10)
    after = _runs([True] * 10) + _runs([False] * 5, prefix="extra")
    lift = paired_lift(before, after)
    assert lift.pairs == 10 and lift.unpaired == 5 and lift.after == 1.0
    assert "5 unpaired left out" in lift.line()


def test_the_interval_is_seeded():
    before, after = _runs([i % 3 == 0 for i in range(40)]), _runs([i % 2 == 0 for i in
                                                                    range(40)])
    assert paired_lift(before, after, seed=4).ci == paired_lift(before, after, seed=4).ci


def test_runs_of_other_episodes_are_refused_in_one_line():
    with pytest.raises(ValueError, match="share no episode"):
        paired_lift(_runs([True]), _runs([True], prefix="other"))
