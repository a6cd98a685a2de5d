"""A news story's headline, description and summary in the languages translators are
asked (world edition 3, ``generated_text_translations``; issue 28 item 2).

toolmaze-v5 sent a story's summary to a translator and got "[es] Telescope near
Paris spots a comet ..." back (gen-news-digest-for-grandparent and five more
scenarios). ``data/world/news_texts.json`` holds each ``news.json`` template with its
translations, written by hand; a story's text is matched against the English (or any
listed) version and handed back in the language asked, its city and country said as
that language names them (``exonyms.json`` for cities, the file's ``countries``),
its figures and company kept. A summary is a description's first sentence
(``general_text.summarize_body``), so each description also yields that template.
"""

from __future__ import annotations

import re
from functools import cache

from toolmaze_gym.world.base import load_data

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _first(description: str) -> str:
    """A description template's first sentence: what a summariser keeps of it."""
    return _SENTENCE_END.split(description, maxsplit=1)[0]


# What of a story a translator may be handed: its headline, as it is or ending a
# sentence in a request ("... next month."), its description, its summary.
_PARTS = (lambda v: v[0], lambda v: v[0] + ".", lambda v: v[1], lambda v: _first(v[1]))


@cache
def news_templates() -> tuple[dict[str, str], ...]:
    """Each story's headline (also with a period), description and its first sentence, as
    templates by language (the shape of ``generated_texts.json``'s ``templates``)."""
    out: list[dict[str, str]] = []
    for story in load_data("news_texts.json")["stories"]:
        langs = {k: v for k, v in story.items() if not k.startswith("_")}
        for part in _PARTS:
            out.append({"_behaviour": "news.top_story", "_from": "en",
                        **{lang: part(v) for lang, v in langs.items()}})
    return tuple(out)


@cache
def place_words() -> dict[str, dict[str, str]]:
    """City and country names (casefolded English) -> their name by language, where
    the language has its own ("Lisbon": es "Lisboa"; "Germany": es "Alemania")."""
    data = load_data("news_texts.json")
    langs = set(data["languages"])
    words = {c.casefold(): {k: v for k, v in names.items() if k in langs}
             for c, names in load_data("exonyms.json").items() if not c.startswith("_")}
    for country, names in data["countries"].items():
        words[country.casefold()] = dict(names)
    return words
