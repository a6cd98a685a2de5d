"""Whether a short sentence said in another language keeps its sense.

A user may ask for a sentence of their own to go out in another language ("translate
my comment 'Does the job, though the manual is thin.' into German"). The grader
checked such a sentence, which keeps no figure or name, by one word its phrasebook
entry lists (``_heads``: ``anleitung``) from a word's start. That is too strict and
too lenient at once (grading version 21, toolmaze-v9 review c1-0080): "Handbuch" (the
common German word) and "Bedienungsanleitung" (a compound) failed, and "Die Anleitung
ist ausgezeichnet" (the manual is excellent) passed for "the manual is thin".

A reader checks what the sentence is about and what it says of it, so does ``said``,
on the words of ``data/wording/senses.toml`` (lower case, no accents, as the text is
folded):

* a **head** (the phrasebook's and the wordlist's synonyms: "Anleitung", "Handbuch")
  names what it is about; a head of ``COMPOUND_MIN`` letters or more is found inside a
  word as well ("Bedienungsanleitung", "gebruikershandleiding");
* a **qualifier** says what the sentence says of it ("dünn", "knapp", "dürftig"): one
  must stand in a sentence that names a head, and not after a negation ("nicht dünn");
* an **opposite** ("ausgezeichnet") in a clause that names a head contradicts it.

A sentence the wordlist does not list keeps the phrasebook's heads alone
(``world.phrasebook.says_heads``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from toolmaze_gym.world.phrasebook import fold, heads

COMPOUND_MIN = 5  # a head this long is found inside a word too (a compound's tail)
NEGATION_SPAN = 2  # words before a qualifier, in its clause, where a negation denies it

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|;\s*")
_CLAUSE = re.compile(r"[,:;]\s*|\s[-–—]\s")


@dataclass(frozen=True)
class Sense:
    """What a sentence says in one language: its heads, qualifiers and opposites, and
    the words that deny a qualifier there."""

    heads: re.Pattern[str]
    qualifiers: re.Pattern[str]
    opposites: re.Pattern[str] | None
    negation: re.Pattern[str] | None


@cache
def _wording() -> dict:
    """``data/wording/senses.toml``, read once."""
    path = resources.files("toolmaze_gym") / "data" / "wording" / "senses.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _key(sentence: str) -> str:
    return " ".join(sentence.split()).casefold()


def _word(word: str) -> str:
    """A listed word as a pattern: whole, or from a word's start with a final ``*``."""
    stem = re.escape(word.removesuffix("*"))
    return rf"(?<!\w){stem}" + (r"\w*" if word.endswith("*") else r"(?!\w)")


def _head(word: str) -> str:
    """A head: inside a word when long enough (a compound), else from a word's start."""
    if len(word) >= COMPOUND_MIN:
        return re.escape(word)
    return rf"(?<!\w){re.escape(word)}"


def _either(patterns: list[str]) -> re.Pattern[str] | None:
    return re.compile("|".join(patterns)) if patterns else None


@cache
def sense(sentence: str, code: str) -> Sense | None:
    """The sense of ``sentence`` (as the phrasebook holds it in English) in language
    ``code``, or None where the wordlist does not list it."""
    data = _wording()
    entry = next((e for e in data["sense"] if _key(e["sentence"]) == _key(sentence)), None)
    if entry is None or code not in entry:
        return None
    listed = entry[code]
    words = dict.fromkeys([*heads(sentence, code), *map(fold, listed["heads"])])
    negation = data["negation"].get(code, ())
    return Sense(heads=re.compile("|".join(map(_head, words))),
                 qualifiers=re.compile("|".join(map(_word, listed["qualifiers"]))),
                 opposites=_either([_word(w) for w in listed.get("opposites", ())]),
                 negation=_either([_word(w) for w in negation]))


def _qualified(part: str, s: Sense) -> bool:
    """Whether ``part`` says a qualifier no negation denies."""
    for m in s.qualifiers.finditer(part):
        before = " ".join(_CLAUSE.split(part[:m.start()])[-1].split()[-NEGATION_SPAN:])
        if s.negation is None or not s.negation.search(before):
            return True
    return False


def said(text: str, sentence: str, code: str) -> bool | None:
    """Whether ``text`` (in language ``code``) says ``sentence`` in its sense: a
    sentence of it names a head and says a qualifier, and no clause that names a head
    says an opposite. None where the wordlist does not list ``sentence`` in ``code``."""
    s = sense(sentence, code)
    if s is None:
        return None
    folded = fold(text.replace("\u2019", "'"))
    parts = [p for p in _SENTENCE.split(folded) if s.heads.search(p)]
    if s.opposites is not None and any(
            s.heads.search(c) and s.opposites.search(c)
            for p in parts for c in _CLAUSE.split(p)):
        return False
    return any(_qualified(p, s) for p in parts)
