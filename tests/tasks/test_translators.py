"""Translators translate what the tasks ask them to, and say plainly what they do not
(issue 28, item 2; c1-0054: "put it into English" got the German back)."""

from __future__ import annotations

import dataclasses

import pytest

from toolmaze_gym.corpus.behaviours import general_text
from toolmaze_gym.corpus.catalog import Corpus, load_corpus
from toolmaze_gym.language import is_language
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.tasks.translators import doc_problems, library_problems
from toolmaze_gym.world.base import load_data

V3_DOCS = {  # the translators' descriptions as toolmaze-v3 shipped them
    "translate_text": "Translate text into a target language (ISO 639-1). The translation "
                      "is prefixed with its language tag, e.g. '[de] …'; English output "
                      "carries no tag.",
    "text_translator": "Translator-style text translation: one text to one target "
                       "language; output is tagged with the target language ('[fr] …'), "
                       "untagged for English.",
    "translate_v3": "Cloud Translation v3-style translateText for a single content string; "
                    "output is tagged with the target language code, untagged for English.",
}


def test_every_quoted_sentence_comes_back_in_the_language_asked():
    assert library_problems(load_library()) == []


def test_c1_0054_without_the_phrasebook_the_german_report_came_back_german(monkeypatch):
    """The v3 behaviour (tag or hand back, never translate) fails the check, on the
    scenario of tmz-v3-c1-0054 among others."""
    monkeypatch.setattr(general_text, "translation", lambda text, target: None)
    scenario = get_task("tmz-v3-c1-0054").meta["scenario"]
    problems = library_problems([s for s in load_library() if s.id == scenario])
    assert any("'Die VPN-Verbindung bricht jede Stunde ab.' into 'en'" in p for p in problems)
    assert len(problems) == 4  # each of the four reports


def test_the_report_of_c1_0054_is_translated_by_every_translator_tool():
    corpus = load_corpus()
    tools = [t for t in corpus.tools.values() if t.behaviour == "text.translate"]
    assert {t.name for t in tools} == set(V3_DOCS)
    out = general_text.translate(None, "Die VPN-Verbindung bricht jede Stunde ab.", "en")
    assert out == {"translated_text": "The VPN connection drops every hour.",
                   "target_language": "en", "source_language": "de", "characters": 41}


def test_a_text_outside_the_phrasebook_is_tagged_as_the_docs_say():
    out = general_text.translate(None, "Your order has shipped.", "es")
    assert out["translated_text"] == "[es] Your order has shipped."
    assert doc_problems(load_corpus()) == []


def test_the_v3_translator_docs_did_not_say_they_only_tag():
    corpus = load_corpus()
    tools = [dataclasses.replace(t, description=V3_DOCS.get(t.name, t.description))
             for t in corpus.tools.values()]
    problems = doc_problems(Corpus(tools, list(corpus.groups)))
    assert [p.split(":")[0] for p in problems] == sorted(V3_DOCS)


@pytest.mark.parametrize("entry", load_data("phrasebook.json"))
def test_each_phrasebook_version_is_in_its_language(entry):
    assert entry.get("en") and len(entry) >= 2
    for lang, sentence in entry.items():
        assert is_language(sentence, lang), (lang, sentence)
