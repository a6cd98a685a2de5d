"""docs/grading.md's 12-hour clock examples hold (the toolmaze-v4 review, r1: "2:00 AM PDT"
and "6:00 PM JST" were not confirmed by the docs a reviewer reads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym.mentions import mentions

DOC = (Path(__file__).parents[1] / "docs" / "grading.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("text", "says"), [
    ("27 Aug, 2:00 AM PDT", True),
    ("Thu 27 Aug 6:00 PM JST", True),
    ("27 Aug, 2:00 PM PDT", False),
])
def test_a_12_hour_time_is_its_24_hour_time(text, says):
    assert " ".join(text.split()[-3:]) in " ".join(DOC.split())
    assert mentions(text, "iso_datetime", "2026-08-27T09:00:00Z") is says
