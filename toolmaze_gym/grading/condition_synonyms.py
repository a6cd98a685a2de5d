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
unchecked there, so a reason without any weather passed). Since grading version 21
(toolmaze-v9 play-test c2-0030 P1) Polish has its words too, and a text that tells a
condition must not claim another (``condition_claimed``): "deszczowo" (rainy) or
"light rain" in a Polish SMS for a partly cloudy day passed, Polish being unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
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
    amount of rain. A language the world knows no weather words in is not checked
    (Polish was not up to grading version 20: toolmaze-v3 c2-0037, v4 c2-0074's
    "częściowe zachmurzenie" passes by its words since)."""
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


# A word or a figure of a folded text ("17,7" one token, so a zero amount reads whole).
_TOKEN = re.compile(r"[^\W_]+(?:[.,]\d+)*")
_ZERO = re.compile(r"0+(?:[.,]0+)?")
_NEAR = 2  # words before a condition's word that may negate it
_ZERO_NEAR = 3  # words either side of it that may be a zero amount ("0 mm of rain")


def condition_claimed(text: str, told: Iterable[str], language: str = "") -> str | None:
    """The condition of ``claim``, or None."""
    found = claim(text, told, language)
    return found[0] if found else None


def claim(text: str, told: Iterable[str], language: str = "") -> tuple[str, str] | None:
    """The weather condition ``text`` claims that is none of ``told`` (the conditions
    it must tell) nor may be said beside one of them (``besides``: a partly cloudy day
    has sun and cloud), or None. A condition is claimed by its words in ``language``
    (each word of an entry starting a word of the text, in sequence) or in English (whole
    words), unless a negation stands within two words before it, a zero amount within
    three words of it ("bez opadów deszczu", "no rain", "0 mm of rain"), or it is a word
    of a name ("Rain Jacket"); an entry too common to claim the weather is left out
    ("klare 5 von 5 Sternen", "Sonntag": ``not_claiming``): v9 play-test
    c2-0030 P1's Polish SMS with "deszczowo" or "light rain" for a partly cloudy day.
    Returned with the text's words that claim it, for the explanation."""
    told = set(told)
    besides = _table()["besides"]
    fine = told | {b for c in told for b in besides.get(c, ())}
    folded = _fold_in_place(text)
    negations = _negations(language)
    spans = [(m.start(), m.end(), condition, m)
             for condition, patterns in _claims(language).items()
             for pattern in patterns for m in pattern.finditer(folded)]
    for start, end, condition, m in spans:
        if condition in fine or _inside(start, end, spans) or _negated(folded, m, negations) \
                or _in_name(text, start, end):
            continue
        return condition, text[start:end]
    return None


# A capitalised word joined to the span by a space only: the span is part of a name.
_NAME_BEFORE = re.compile(r"(?<![.:;!?\n])\b[A-Z][\w-]*[ \t]$")
_NAME_AFTER = re.compile(r"^[ \t]+[A-Z]")


def _in_name(text: str, start: int, end: int) -> bool:
    """Whether the capitalised span start-end of ``text`` is a word of a name, a
    capitalised word beside it ("Veloxa Edge Rain Jacket", "Storm Shell"), not a
    condition told (``_fold_in_place`` keeps the text's length: its spans are the text's)."""
    if not text[start:start + 1].isupper():
        return False
    return bool(_NAME_AFTER.match(text[end:end + 3])
                or _NAME_BEFORE.search(text[max(0, start - 40):start]))


def _fold_in_place(text: str) -> str:
    """``text`` folded as ``fold`` folds it, each character to one ("ß" stays), so a
    span of the folded text is the same span of ``text``."""
    return "".join(_fold_char(c) for c in text)


@lru_cache(maxsize=1024)
def _fold_char(c: str) -> str:
    folded = fold(c)
    return folded if len(folded) == 1 else c.lower()[:1]


def _inside(start: int, end: int, spans: list) -> bool:
    """Whether the span start-end lies inside a longer span of ``spans``: the word of
    another condition within a condition's words ("cloudy" in "partly cloudy")."""
    return any(s <= start and end <= e and e - s > end - start for s, e, *_ in spans)


@lru_cache(maxsize=32)
def _claims(language: str) -> dict[str, tuple[re.Pattern[str], ...]]:
    """Per condition, the patterns that claim it in a folded text in ``language``."""
    table = _table()
    own = table["in_language"].get(language, {})
    out = {}
    for condition, synonyms in table["synonyms"].items():
        said = _words().get(condition, {}).get(language)
        common = set(table["not_claiming"].get(language, ()))
        starts = [e for e in (*own.get(condition, []), *([fold(said)] if said else []))
                  if e not in common]
        english = [fold(w) for w in (condition, *synonyms)]
        out[condition] = (*(_starts_pattern(e) for e in starts),
                          *(re.compile(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])")
                            for w in english))
    return out


def _starts_pattern(entry: str) -> re.Pattern[str]:
    """Each word of ``entry`` starts a word of the text, one after the other."""
    return re.compile(r"(?<![^\W_])" + r"\w*\s+".join(re.escape(w) for w in entry.split()))


@lru_cache(maxsize=32)
def _negations(language: str) -> frozenset[str]:
    """The words that negate a condition's word near them in ``language`` or English."""
    table = _table()["not_before"]
    return frozenset((*table.get("en", ()), *table.get(language, ())))


def _negated(folded: str, match: re.Match[str], negations: frozenset[str]) -> bool:
    """Whether a negation stands within ``_NEAR`` words before ``match``, or a zero
    amount within ``_ZERO_NEAR`` words either side ("0 mm of rain"); a negation after it
    negates the next word ("deszczowo, bez opadów" is no "bez deszczu")."""
    before = _TOKEN.findall(folded[:match.start()])[-_ZERO_NEAR:]
    after = _TOKEN.findall(folded[match.end():])[:_ZERO_NEAR]
    return any(w in negations for w in before[-_NEAR:]) \
        or any(_ZERO.fullmatch(w) for w in (*before, *after))


# The conditions that answer "will it rain?" with yes.
RAINY = frozenset({"rain", "light rain", "thunderstorm"})


def rain_answered(text: str, condition: str, language: str = "") -> bool:
    """Whether ``text`` answers "whether it'll rain" for a day of ``condition`` (grading
    version 26, toolmaze-v11 review c2-0074: a Polish SMS "nie będzie padać" for a windy
    Cairo day failed for not saying "windy", which the request never asked): a rain word
    told as such for a rainy day, negated ("no rain", "bez deszczu", "nie będzie padać")
    for any other. A word of a name ("Rain Jacket") says nothing."""
    folded = _fold_in_place(text)
    claims = _claims(language)
    spans = [m for c in ("rain", "light rain") for p in claims.get(c, ())
             for m in p.finditer(folded) if not _in_name(text, m.start(), m.end())]
    negations = _negations(language)
    if condition in RAINY:
        return any(not _negated(folded, m, negations) for m in spans)
    return any(_negated(folded, m, negations) for m in spans)

