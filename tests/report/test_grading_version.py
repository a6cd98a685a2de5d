"""A report says which grading rules its figures come from, and warns when a record
was graded under other rules than this code's."""

from __future__ import annotations

from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.report import Row, grading_versions


def _row(*versions: str) -> Row:
    return Row("oracle", "standard", [{"grading_version": v, "grade": {}} for v in versions])


def test_current_version_is_stated_without_a_warning():
    lines = grading_versions([_row(GRADING_VERSION, GRADING_VERSION)])
    assert f"Grading version {GRADING_VERSION} (docs/grading.md)." in lines
    assert not any("Warning" in line for line in lines)


def test_records_of_another_version_are_counted_in_a_warning():
    lines = grading_versions([_row(GRADING_VERSION, "3", "3"), _row("2")])
    warning = next(line for line in lines if "Warning" in line)
    assert "2 under version 3" in warning and "1 under version 2" in warning
    assert "of 4 records" in warning and "toolmaze grade" in warning
