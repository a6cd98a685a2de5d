"""A digest the agent writes itself from a headline it read, translated and filed, is
the task done (grading version 16, issue 27).

toolmaze-v7's news digests sum up a story's headline: summarize_article, chained
behind search_news in one slot, hands the headline back whole. An agent that skips the
summariser and translates the headline it read has the digest: the news search, a Source
of the same slot, returned that very text. The grader counted no response of the slot's
own side as a source of its text, so the translation did not count as the expected one,
and the document holding that translation was judged a wrong text
(toolmaze-v7 c1-0075 P0, P1, P3: the ``own_summary`` variant). Played on that task.
"""

from __future__ import annotations

import json

import pytest

from tests.grading._helpers import FINISH, call, graded, play
from toolmaze_gym.tasks.suite import get_task

TASK = "tmz-v7-c1-0075"  # climate news -> a short digest -> Spanish -> a new document


def _filed(digest: str) -> tuple[bool, str]:
    """Success of s* without summarize_article, ``digest`` translated in its place, and
    the Spanish text the document got."""
    task = get_task(TASK)
    ep = play(task, "P0", [])
    translated = ""
    for c in task.default_path.calls:
        if c.tool == "summarize_article":
            continue
        if c.tool == "translate_text":
            ep.step(call(c, text=digest))
            translated = json.loads(ep.steps[-1].observation)["translated_text"]
            continue
        ep.step(call(c, text=translated) if c.tool == "append_to_document" else call(c))
    ep.step(FINISH)
    return graded(ep).success, translated


def test_the_summariser_hands_the_headline_back_whole():
    task = get_task(TASK)
    news, summary = task.default_path.calls[:2]
    assert summary.tool == "summarize_article"
    assert summary.response["summary"] == news.response["headline"]


@pytest.mark.parametrize("digest", [
    "Mexico City plants 4369 trees to cool its streets",  # the headline, as read
    "Mexico City plants 4369 trees to cool its streets.",
])
def test_an_own_digest_of_the_headline_translated_and_filed_passes(digest):
    success, filed = _filed(digest)
    assert filed.startswith("Ciudad de México planta 4369 árboles")
    assert success


def test_another_story_filed_instead_still_fails():
    success, filed = _filed("Oslo plants 1200 trees to cool its streets.")
    assert "Oslo" in filed
    assert not success
