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
"""

from __future__ import annotations

import re

from toolmaze_gym.mentions import mentions
from toolmaze_gym.text_facts import carries, facts

HEADLINE_WORDS = "headline_words"  # a pseudo type: (HEADLINE_WORDS, headline)

_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*", re.UNICODE)
# Little words a title may drop or change ("Flood defences completed" for "... in
# Vienna"): articles, prepositions, conjunctions, auxiliaries; in English, the
# language headlines are written in.
_LITTLE = frozenset({
    "a", "an", "the", "in", "on", "at", "of", "for", "to", "and", "or", "but", "by", "with",
    "from", "as", "into", "over", "after", "before", "is", "are", "was", "were", "be", "its",
    "their", "this", "that", "amid", "near", "across",
})


def headline_said(text: str, headline: str) -> bool:
    """Whether ``text`` says ``headline`` in its own words (see the module doc); a
    headline with no such word is said by its facts, as any returned text is."""
    names = {w.casefold() for kind, v in facts(headline) if isinstance(v, str)
             for w in _WORD.findall(v)}
    words = [w.casefold() for w in _WORD.findall(headline)
             if w.casefold() not in _LITTLE and w.casefold() not in names]
    if not words:
        return carries(text, headline)
    have = {w.casefold() for w in _WORD.findall(text)}
    figures = [v for _, v in facts(headline) if isinstance(v, int | float)]
    return all(w in have for w in words) and all(mentions(text, "", f) for f in figures)
