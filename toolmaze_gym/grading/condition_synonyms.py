"""A weather condition told in other words people use for it.

The forecast's "clear" is what people call "sunny and dry"; its "light rain" is told as
"rainy (15.1 mm)" by someone who gives the amount instead of the adjective. A text
asked to mention the condition says it by those words (``data/world/
condition_synonyms.json``; grading version 16, toolmaze-v6 play-test c1-0061, c3-0071);
a word negated ("no rain", "not sunny") says nothing. Since grading version 21
(toolmaze-v9 review c2-0088) every condition has its words, a stronger one included
("gusty winds", "gales" for windy) but never a weaker one ("breezy" is no windy day).

A text in another language says the condition in its words (``condition_said_in``,
grading version 19, toolmaze-v8 play-test c1-0014: an Italian return reason says the
thunderstorm by "temporale"; up to version 18 a condition, a common word, went
unchecked there, so a reason without any weather passed).
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.phrasebook import fold

_NEGATED = r"(?<!\bno )(?<!\bnot )(?<!\bwithout )"
# A precipitation amount above zero: "15.1 mm", "15,1mm".
_AMOUNT = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s?mm\b", re.I)


@lru_cache(maxsize=1)
def _words() -> dict:
    return load_data("generated_texts.json")["words"]


@lru_cache(maxsize=1)
def _table() -> dict:
    return load_data("condition_synonyms.json")


def _said(text: str, words: list[str]) -> bool:
    return any(re.search(rf"{_NEGATED}\b{re.escape(w)}\b", text, re.I) for w in words)


def condition_said(text: str, condition: str) -> bool:
    """Whether ``text`` tells the weather ``condition`` in another word for it, or (for
    a condition listed "with_amount") a rain word beside an amount of rain."""
    table = _table()
    if _said(text, table["synonyms"].get(condition, [])):
        return True
    words = table["with_amount"].get(condition, [])
    return bool(words) and _said(text, words) and _rain_measured(text)


def _rain_measured(text: str) -> bool:
    """Whether ``text`` writes an amount of rain above zero ("15.1 mm")."""
    return any(float(m[1].replace(",", ".")) > 0 for m in _AMOUNT.finditer(text))


def condition_said_in(text: str, condition: str, language: str) -> bool:
    """Whether ``text`` (in ``language``) tells the weather ``condition``: in English
    words (a condition kept as written), by the translators' word for it, or by one of
    the language's own words (``in_language``), each word of an entry the start of a
    word of the text, accents folded; "light rain" also by a rain word beside an
    amount of rain. A language the world knows no weather words in (Polish) is not
    checked (toolmaze-v3 c2-0037, v4 c2-0074: "częściowe zachmurzenie")."""
    own = _table()["in_language"].get(language, {})
    said = _words().get(condition, {}).get(language)
    if not own and said is None:
        return True  # a language the world has no weather words for: unchecked
    if condition_said(text, condition) or _said(text, [condition]):
        return True
    folded = fold(text)
    entries = [*([fold(said)] if said else []), *own.get(condition, [])]
    if any(_starts_words(folded, e) for e in entries):
        return True
    return condition == "light rain" and any(
        _starts_words(folded, e) for e in own.get("rain", [])) and _rain_measured(text)


def _starts_words(folded: str, entry: str) -> bool:
    """Each word of ``entry`` starts a word of ``folded``."""
    return all(re.search(rf"(?<![a-z0-9]){re.escape(w)}", folded) for w in entry.split())


def condition_words_in(condition: str, language: str) -> str:
    """The words ``condition_said_in`` accepts for ``condition`` in a text in
    ``language``, as a reader is told them: the language's word starts, the
    translators' word, and the English words (v8 play-test c1-0014: a reason told it
    left out "thunderstorm" beside the Italian "temporale" that said it)."""
    table = _table()
    words = table["in_language"].get(language, {})
    own = list(words.get(condition, []))
    said = _words().get(condition, {}).get(language)
    parts = []
    if own:
        covered = bool(said) and any(_starts_words(fold(said), e) for e in own)
        note = f"; the translators' \"{said}\" is one" if covered else ""
        parts.append(f"words starting {_either(own)} (accents aside{note})")
    if said and not (own and covered):
        parts.append(f'"{said}"')
    if condition == "light rain" and words.get("rain"):
        parts.append(f"words starting {_either(words['rain'])} beside an amount of rain in mm")
    parts.append("in English " + _either([condition, *table["synonyms"].get(condition, [])]))
    amount = table["with_amount"].get(condition, [])
    if amount:
        parts.append(f"{_either(amount)} beside an amount of rain in mm")
    return ", or ".join(parts)


def _either(words: list[str]) -> str:
    """ "a", "b" or "c". """
    quoted = [f'"{w}"' for w in words]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
