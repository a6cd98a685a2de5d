"""An agent's own one-line summary of an article, without the summariser, is judged on
the article's facts: it may keep any of its sentences, not only the one the
summariser keeps (v4 draft-2 play-test c3-0061 P1: an own summary held to
summarize_article's sentence, a tool the episode never called). A summary with a
fact the article does not have still fails. Played on toolmaze-v3's task of the same
scenario, after the news search's transient fault (P1) and without it (P0)."""

from __future__ import annotations

import pytest

from tests.grading._helpers import FINISH, call, graded, play, suite

TASK = "tmz-v3-c2-0008"  # article: "The arena in Toronto seats 238 people. Helix Foods
# booked its first season of concerts."; the summariser keeps the first sentence
POST = ("Toronto barbecue 2026-08-26: high 13.4 C (56.1 F). Also in town: {summary} "
        "https://tmz.link/r4ddmryt")


def _posted(mode: str, summary: str) -> bool:
    """Success of s* without summarize_article (the news search retried after a
    transient fault), the post's summary written by the agent."""
    task = next(t for t in suite() if t.id == TASK)
    acts = []
    for c in task.default_path.calls:
        if c.tool == "summarize_article":
            continue
        acts.append(call(c, text=POST.format(summary=summary)) if c.tool.startswith("post_")
                    else call(c))
        if mode == "P1" and c.tool == "newsapi_everything":
            acts.append(call(c))
    return graded(play(task, mode, [*acts, FINISH])).success


@pytest.mark.parametrize("mode", ["P0", "P1"])
@pytest.mark.parametrize(("summary", "success"), [
    ("Helix Foods has booked the first season of concerts at a new arena.", True),
    ("Helix Foods has opened a 238-seat concert arena.", True),
    # subtly wrong: another company, another size
    ("Nordic Foods has booked the first season of concerts at a new arena.", False),
    ("A new concert arena seats 283 people.", False),
])
def test_an_own_summary_may_keep_any_sentence_of_the_article(mode, summary, success):
    assert _posted(mode, summary) is success
