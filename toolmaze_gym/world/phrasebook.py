"""The world's sentences in the languages they are told in: what a translator returns.

A sentence the world or a request gives in one language (a colleague's problem
report in German) is an entry of ``data/world/phrasebook.json`` with its versions in
other languages, written once by hand; a translator tool returns the version asked
for, so "put it into English" gets English (issue 28, c1-0054: the tool used to hand
back the German). A text outside the phrasebook has no translation in this world:
the translator tools say so in their docs and tag it instead (``general_text``).
"""

from __future__ import annotations

from functools import cache

from toolmaze_gym.world.base import load_data


def _key(text: str) -> str:
    """Sentences compare with their spacing and case evened out."""
    return " ".join(text.split()).casefold()


@cache
def _index() -> dict[str, tuple[str, dict[str, str]]]:
    """Each version of each entry -> (its language, the entry)."""
    out: dict[str, tuple[str, dict[str, str]]] = {}
    for entry in load_data("phrasebook.json"):
        for lang, sentence in entry.items():
            out[_key(sentence)] = (lang, entry)
    return out


def translation(text: str, target: str) -> tuple[str, str] | None:
    """(the text's language, its version in ``target``), or None when the phrasebook
    does not hold the text in ``target``."""
    hit = _index().get(_key(text))
    if hit is None or target not in hit[1]:
        return None
    return hit[0], hit[1][target]
