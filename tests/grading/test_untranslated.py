"""A "[es] …" tag is the translators' mark, not a language (grading version 23,
``grading/untranslated.py``; v10-g22 play-test c2-0001 P2 ``es_tag_no_translator``: an
English SMS asked "in Spanish" that the agent tagged "[es]" itself passed)."""

from __future__ import annotations

import pytest

from tests.grading.test_played import PLAYED, played_text, replay_variant
from toolmaze_gym.grading.untranslated import tag_counts, tagged_languages
from toolmaze_gym.tasks.suite import get_task

SLIPS = PLAYED / "v10-g22" / "slips"
EPISODE = "tmz-v10-c2-0001-P2"
ENGLISH = ("Hi Emma, we have received your payment of 1,650.00 GBP for invoice "
           "INV-HM5YMM3JAG. Thank you very much!")
SPANISH = ("Hola Emma, hemos recibido tu pago de 1,650.00 GBP por la factura "
           "INV-HM5YMM3JAG. ¡Muchas gracias!")
NOT_SPANISH = "which is not in Spanish (es)"


def _graded(tmp_path, slip: str, body: str) -> tuple[bool, str]:
    """The slip replayed with the SMS body ``body``."""
    source = SLIPS / f"{EPISODE}.{slip}.actions"
    text = played_text(source)
    old = f'"Body": "[es] {ENGLISH}"'
    assert old in text
    g, out = replay_variant(source, text.replace(old, f'"Body": "{body}"'), EPISODE, tmp_path)
    return g["success"], out


@pytest.mark.parametrize(("body", "success"), [
    (f"[es] {ENGLISH}", False),   # the agent's own tag on English: the slip
    (ENGLISH, False),             # English, untagged
    (SPANISH, True),              # its own Spanish
    (f"[es] {SPANISH}", True),    # its own Spanish under a tag: Spanish by its words
])
def test_with_no_translator_called_a_tag_makes_no_language(tmp_path, body, success):
    ok, out = _graded(tmp_path, "es_tag_no_translator", body)
    assert ok is success, out
    assert (NOT_SPANISH in out) is not success


@pytest.mark.parametrize(("body", "success"), [
    # the translator's answer as it came: English under its tag, no Spanish (grading
    # version 26, toolmaze-v11 review c3-0008; up to 25 the world's translation)
    (f"[es] {ENGLISH}", False),
    (SPANISH, True),              # its own Spanish instead
    (ENGLISH, False),             # the answer's tag dropped: English
])
def test_the_translators_tagged_answer_is_no_translation(tmp_path, body, success):
    ok, out = _graded(tmp_path, "send_untranslated", body)
    assert ok is success, out
    assert success or NOT_SPANISH in out, out


def test_a_world_that_translates_the_requests_text_answers_no_language_tagged():
    assert tagged_languages(get_task("tmz-v10-c2-0001")) == frozenset()


def test_an_older_world_answers_the_requests_text_tagged():
    assert "de" in tagged_languages(get_task("tmz-v3-c2-0040"))


@pytest.mark.parametrize(("text", "counts"), [
    ("[de] Price for the desk lamp: 36.29 USD", True),
    ("Hello Omar,\n\n[de] Price for the desk lamp: 36.29 USD", True),   # one line of it
    ("[de] Lunch order closes at noon.", False),  # the phrasebook's: it comes back German
    ("Price for the desk lamp: 36.29 USD", False),
])
def test_where_tags_count_they_count_as_the_translators_answer(text, counts):
    assert tag_counts(text, "de") is counts
