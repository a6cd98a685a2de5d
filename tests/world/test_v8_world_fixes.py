"""World edition 6: the toolmaze-v8 blind review's world findings (issue 28), each told
as the v8 player met it on edition 5 and gone on edition 6: a German translator's 500
on a summary written in the agent's own words (c3-0072), ...
"""

from __future__ import annotations

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world

V8, V9 = 5, 6

# The own_summary variant's text on c3-0072: its words, then the story's headline.
OWN_GIST = "In my own words, the gist: Hong Kong parliament passes budget after long debate."


def _translate(corpus, edition: int, text: str, target: str):
    sim = Simulator(corpus, get_world(0, edition))
    return sim.call("translate_text", {"text": text, "target_language": target},
                    EpisodeState())


def test_c3_0072_a_text_that_only_ends_like_a_story_is_tagged_from_edition_6(corpus):
    """Edition 5 read "In my own words, the gist: Hong Kong" as the story's country and
    answered 500 (no German "of" form of it); edition 6 has no translation of the text
    and says so as the doc does: tagged."""
    assert _translate(corpus, V8, OWN_GIST, "de").status == 500
    got = _translate(corpus, V9, OWN_GIST, "de")
    assert got.status == 200
    assert got.body["translated_text"] == f"[de] {OWN_GIST}"


def test_the_story_itself_is_still_translated_on_edition_6(corpus):
    headline = "Hong Kong parliament passes budget after long debate."
    for edition in (V8, V9):
        got = _translate(corpus, edition, headline, "de").body["translated_text"]
        assert got == "Parlament Hongkongs verabschiedet Haushalt nach langer Debatte."
