"""A user's sentence said in another language keeps its sense (``toolmaze_gym.senses``,
grading version 21, toolmaze-v9 review c1-0080): what it is about in any of its words,
what it says of it, never the opposite."""

from __future__ import annotations

import pytest

from toolmaze_gym.senses import said
from toolmaze_gym.world.phrasebook import translation

THIN = "Does the job, though the manual is thin."


@pytest.mark.parametrize("text", [
    "Tut, was es soll, obwohl das Handbuch dünn ist. Geliefert am 13. August.",
    "Erfüllt seinen Zweck, auch wenn die Bedienungsanleitung knapp ist.",
    "Erfüllt seinen Zweck, auch wenn die Anleitung dürftig ist.",
    "Die Gebrauchsanleitung ist etwas spärlich, aber es funktioniert.",
    "Ein dünnes Handbuch, aber es tut, was es soll.",  # other order, inflected
    "Die Anleitung ist mager und knapp gehalten.",
    "Tut perfekt, was es soll, obwohl das Handbuch dünn ist.",  # praise elsewhere
])
def test_a_german_comment_in_other_words_keeps_the_sense(text):
    assert said(text, THIN, "de") is True


@pytest.mark.parametrize("text", [
    "Die Anleitung ist ausgezeichnet, alles perfekt. Geliefert am 13. August.",  # opposite
    "Tut, was es soll. Die Anleitung liegt bei.",  # the head without the qualifier
    "Tut, was es soll, obwohl es dünn ist.",  # the qualifier without the head
    "Das Handbuch ist nicht dünn.",  # the qualifier negated
    "Das Handbuch ist ausführlich, nicht dünn.",  # opposite beside the head
    "Das Handbuch ist hervorragend, knapp und klar.",  # praise, though "knapp" is there
])
def test_a_german_comment_that_loses_the_sense_fails(text):
    assert said(text, THIN, "de") is False


@pytest.mark.parametrize("code", ["de", "fr", "es", "it", "pt", "nl"])
def test_the_translators_own_output_keeps_the_sense(code):
    assert said(translation(THIN, code)[1], THIN, code) is True


@pytest.mark.parametrize(("text", "code", "ok"), [
    ("Fait le travail, même si la notice est succincte.", "fr", True),
    ("Le manuel est excellent.", "fr", False),
    ("Le manuel est excellent et succinct.", "fr", False),
    ("Cumple su función, aunque las instrucciones son breves.", "es", True),
    ("El manual no es escaso.", "es", False),
    ("Fa il suo lavoro, anche se il libretto di istruzioni è scarno.", "it", True),
    ("Il manuale è eccellente.", "it", False),
    ("Doet wat het moet doen, al is de gebruikershandleiding wat mager.", "nl", True),
    ("De handleiding is uitstekend.", "nl", False),
])
def test_other_languages_read_the_same_way(text, code, ok):
    assert said(text, THIN, code) is ok


def test_a_sentence_or_language_the_wordlist_does_not_list_is_left_to_the_heads():
    assert said("Gute Qualität.", "Good quality for the price.", "de") is None
    assert said("Cienkie.", THIN, "pl") is None


def test_a_negation_in_another_clause_denies_nothing():
    assert said("Nicht teuer, dünn ist nur das Handbuch.", THIN, "de") is True
