"""A story's summary asked beside its headline adds to the headline (grading version 18;
toolmaze-v7 play-test c4-0020 P4 `slip-no-summary`: the headline alone passed for
"the leading sports headline with a one-line summary")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.summary_beside import summary_beside, without_headline

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v7"
EPISODE = "tmz-v7-c4-0020-P4"
SUMMARY = (" — over 13,487 runners finished the marathon as organisers added water "
           "stations in the heat.")
ARTICLE = ("Toronto marathon draws 13487 runners in record heat\nMore than 13487 runners "
           "finished the Toronto marathon. Organisers added water stations.")


def test_the_summary_is_read_beside_the_headline():
    head = ARTICLE.partition("\n")[0]
    assert "record heat" not in without_headline(f"Sports: {head.upper()}.", head)
    assert not summary_beside(f"Sports: {head}", ARTICLE)                 # headline only
    assert summary_beside(f"Sports: {head}{SUMMARY}", ARTICLE)
    assert summary_beside("Toronto marathon: 13487 runners finished; water stations added",
                          ARTICLE)                                          # no headline


@pytest.mark.parametrize(("new", "success"), [
    (SUMMARY, True),                                                     # as played
    (" - more than 13487 finished and extra water stations went up.", True),  # own words
    ("", False),                                                          # no summary
])
def test_the_screen_carries_a_summary_beside_the_headline(tmp_path, new, success):
    graded = replay_changed(PLAYED / f"{EPISODE}.actions", EPISODE, SUMMARY, new, tmp_path)
    assert graded["success"] is success
