"""Readings of a request that the wording leaves open, and how to tell.

A percent change has a base: "the shares cost 96.73 % less than the ETH" and "the
ETH costs 2,961.77 % more than the shares" are the same comparison, measured from
either side. Where the request says which value the change is measured from ("since
I bought", "from the 287530", "than the refund", "the drop"), one reading is right;
where it only asks to "compare A with B", both are, and the grader accepts either.

A text a tool returned (a headline, a story's description) that the request asks to
be passed on is asked for its content ("a summary of the latest science news"), so
the agent's own words carrying its facts pass; word for word only where the request
asks for the text as such ("quote the headline", "forward the message verbatim").
"""

from __future__ import annotations

import re

# "Compare A with B ... the percentage difference" names no base; these do.
_BASE_NAMED = re.compile(r"\b(since|from the|than the|drop|started|differ from|"
                         r"compare (?:it )?with)\b", re.IGNORECASE)


def names_base(query: str) -> bool:
    """Whether the request says which value a percent change is measured from."""
    return bool(_BASE_NAMED.search(query))


def other_direction(pct: float) -> float:
    """The same change measured from the other side: a/b − 1 for b/a − 1, in percent."""
    return 100.0 * (1.0 / (1.0 + pct / 100.0) - 1.0)


def other_direction_slack(pct: float, step: float = 0.005) -> float:
    """How far ``other_direction`` of a value rounded to ``step`` may be off: the
    reverse of a steep drop magnifies its rounding (−96.73 % → +2,958 … +2,963 %)."""
    base = 1.0 + pct / 100.0
    return abs(step / 100.0 / (base * base)) * 100.0 + 0.01


_VERBATIM = re.compile(r"\b(quot(?:e|ed|ing)|verbatim|word for word|exact (?:words|wording|text)|"
                       r"as (?:is|written)|forward(?:ed|ing)? (?:the|that|this|it)|"
                       r"(?:headline|title|story) as (?:the|its|a)|as the (?:title|subject))\b",
                       re.IGNORECASE)


def asks_verbatim(query: str) -> bool:
    """Whether the request asks for a returned text as such, not for its content."""
    return bool(_VERBATIM.search(query))


def quotes(query: str, text: str) -> bool:
    """Whether the request sets ``text`` in quotation marks ("a title \"Q3 review\""):
    a phrase it quotes is asked word for word; one it only uses is asked for its facts."""
    flat = " ".join(str(text).split()).strip(" .").casefold()
    q = " ".join(query.split()).casefold()
    return any(f"{a}{flat}{b}" in q or f"{a}{flat}.{b}" in q
               for a, b in (('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("\u2018", "\u2019"),
                            ("\u00ab", "\u00bb"), ("\u00ab ", " \u00bb")))
