"""A text asked to carry a summary carries the summary the run made, in the agent's own
words or the summariser's (toolmaze-v10 play-test c1-0046 P1 ``no-top-review``: "give
#it-helpdesk a one-line summary of the top review along with my score and the new
average" passed without the review)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.asked_summary import summaries_named
from toolmaze_gym.tasks.scenarios import load_library

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v10"
EPISODE = "tmz-v10-c1-0046-P1"
_POST = ("Lumen Premium Electric Toothbrush (PRD-414373): top review says it does the job, "
         "with setup taking a few minutes. My score: 7/10. New average: 4.5/5 stars over "
         "1283 reviews.")


@pytest.mark.parametrize(("clause", "named"), [
    ("give #it-helpdesk a one-line summary of the top review along with my score", True),
    ("post the gist of the top review and my score in #it-helpdesk", True),
    ("tell #it-helpdesk what I gave it and where the average stands now", False),
])
def test_a_summary_is_named_by_its_word(clause, named):
    sc = {s.id: s for s in load_library()}["sh-review-after-a-month"]
    got = summaries_named([clause], sc, sc.step_by_id["post"])
    assert got == (["gist.summary"] if named else [])


@pytest.mark.parametrize(("post", "success"), [
    (_POST, True),                                                     # as played
    ("Top review: 'Does the job; setup took a few minutes.' I gave it 7/10; the average "
     "is 4.5 now.", True),                                             # the summary itself
    ("Lumen Premium Electric Toothbrush: I scored it 7/10. New average: 4.5/5 stars over "
     "1283 reviews.", False),                                          # no top review
    ("Top review: battery dies in a day. I gave it 7/10; the average is 4.5 now.",
     False),                                                           # another review
])
def test_c1_0046s_post_with_a_summary_of_the_top_review(post, success, tmp_path):
    g = replay_changed(PLAYED / f"{EPISODE}.actions", EPISODE, _POST, post, tmp_path, 1)
    assert g["success"] is success
