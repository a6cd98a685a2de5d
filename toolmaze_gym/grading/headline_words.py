"""A headline asked as a title is said by its own words, not by its place alone.

A text a tool returned and the request asks for by its content (not quoted) may be
told in other words that carry its facts, its figures and names
(``text_facts``). A headline asked as a notification's title ("use the top climate
headline in Vienna as the notification title") has few facts: "Flood defences
completed in Vienna" carries only "Vienna", so any title naming the city passed
("Vienna weather", "Hello from Vienna"), while the headline itself without the place
the user already named failed (grading version 16, toolmaze-v6 play-test c1-0000).
A headline is said by its words: every word of it that is no name and no little
word (articles, prepositions), and each of its figures; its names may be left out
(the place the request named), but never stand in for the rest.

Its words are read as a reader reads them (grading version 21, toolmaze-v9 review
c3-0040: "Stockholm start-ups have raised record funding as investors come back" was
held to "... raise record funding as investors return"): in any inflection (the light
stem of ``toolmaze_gym.paraphrase``), hyphens aside ("startups"), or by a word or phrase
that says the same fact (``data/wording/headline_words.json``: "come back" for
"return"). All of them in one stretch of the text (a sentence, a clause, or two side by
side) that names no place or company the headline does not: "Oslo start-ups raise
record funding ..." is another story, and so is "... record losses ...".
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from itertools import pairwise

from toolmaze_gym.mentions import mentions
from toolmaze_gym.paraphrase import other_story, stem, stretches
from toolmaze_gym.text_facts import ORDINAL, carries, facts

HEADLINE_WORDS = "headline_words"  # a pseudo type: (HEADLINE_WORDS, headline)

_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*", re.UNICODE)
_PERCENT = re.compile(r"\s?%")
# Little words a title may drop or change ("Flood defences completed" for "... in
# Vienna"): articles, prepositions, conjunctions, auxiliaries; in English, the
# language headlines are written in.
_LITTLE = frozenset({
    "a", "an", "the", "in", "on", "at", "of", "for", "to", "and", "or", "but", "by", "with",
    "from", "as", "into", "over", "after", "before", "is", "are", "was", "were", "be", "its",
    "their", "this", "that", "amid", "near", "across",
})


@lru_cache(maxsize=1)
def _synonyms() -> tuple[dict[tuple[str, ...], str], int]:
    """(each word or phrase of a group, as its stems, -> the group's head; the longest
    phrase's length)."""
    path = resources.files("toolmaze_gym") / "data" / "wording" / "headline_words.json"
    out: dict[tuple[str, ...], str] = {}
    for group in json.loads(path.read_text(encoding="utf-8"))["synonyms"]:
        head = _base(group[0].replace("-", ""))
        for entry in group:
            out.setdefault(tuple(_base(w) for w in entry.replace("-", "").split()), head)
    return out, max(map(len, out))


def _base(word: str) -> str:
    return stem(word.replace("-", ""))


def _concepts(words: list[str]) -> list[str]:
    """Each word's concept, a phrase of the synonym list read as one ("come back")."""
    table, longest = _synonyms()
    bases = [_base(w) for w in words]
    out: list[str] = []
    i = 0
    while i < len(bases):
        for n in range(min(longest, len(bases) - i), 0, -1):
            key = tuple(bases[i:i + n])
            if n == 1 or key in table:
                out.append(table.get(key, key[0]))
                i += n
                break
    return out


@lru_cache(maxsize=4096)
def _said_concepts(stretch: str) -> frozenset[str]:
    """The concepts a stretch of text says: each word's, and each two words' written
    as one ("start ups" for "startups")."""
    words = _WORD.findall(_PERCENT.sub(" percent", stretch).casefold())
    joined = [stem(a + b) for a, b in pairwise(words)]
    return frozenset(_concepts(words)) | {_synonyms()[0].get((j,), j) for j in joined}


@lru_cache(maxsize=1024)
def _headline_concepts(headline: str) -> frozenset[str]:
    """The concepts of a headline's words that are no name and no little word."""
    names = {w.casefold() for kind, v in facts(headline) if isinstance(v, str)
             for w in _WORD.findall(v)}
    words = [w.casefold() for w in _WORD.findall(headline)]
    return frozenset(_concepts([w for w in words if w not in _LITTLE and w not in names]))


def headline_said(text: str, headline: str) -> bool:
    """Whether ``text`` says ``headline`` in its own words (see the module doc); a
    headline with no such word is said by its facts, as any returned text is."""
    want = _headline_concepts(headline)
    if not want:
        return carries(text, headline)
    figures = [v for kind, v in facts(headline) if isinstance(v, int | float)
               and kind != ORDINAL]  # a rank is a headline's word, said by its concept
    if not all(mentions(text, "", f) for f in figures):
        return False
    return any(want <= _said_concepts(s) and not other_story(s, headline)
               for s in stretches(text))
