"""A report says which grading rules its figures come from (its own: every grade is
derived again), and how the stored grades compared: how many disagreed, under which
other versions they were stored, how many had none."""

from __future__ import annotations

from collections import Counter

from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.report import Regraded


def test_the_current_version_is_stated_without_a_warning():
    lines = Regraded(records=[{}, {}], stored=2).lines()
    assert any(f"under grading version {GRADING_VERSION} (docs/grading.md)" in ln
               for ln in lines)
    assert not any("Warning" in ln for ln in lines)
    assert "0 of 2 stored grades disagreed with the trajectories." in lines


def test_disagreements_other_versions_and_missing_grades_are_counted():
    said = Regraded(records=[{}] * 5, stored=4, disagreed=2,
                    versions=Counter({"3": 2, "2": 1})).lines()[-1]
    assert said.startswith("**Warning:** 2 of 4 stored grades disagreed")
    assert "2 were stored under grading version 3" in said
    assert "1 was stored under grading version 2" in said
    assert "1 had no stored grade" in said
