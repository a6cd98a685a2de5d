"""The check that a request is in people's words: no machine phrasing.

A blind reviewer of toolmaze-v3 found requests no person writes: ISO datetimes
("set a reminder for 2026-08-31T15:00:00Z"), decimal counts in figures ("rounded
to 0 decimal places"), parameter echoes ("(lights on: off)"). Each kind is a rule
of ``data/wording/requests.toml`` [[machine]] (a pattern and the reason an author
reads); this module applies them to a scenario's phrasings (placeholders masked:
the words the author wrote) and to every request the generator writes (values
filled in: how the generator says them, ``people_words``). Tool names are matched
separately, whole-word, against the corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from toolmaze_gym.tasks.people_words import wording

_HOLE = re.compile(r"\{[^{}]*\}")
_MASK = "X"  # what a placeholder reads as in a phrasing: a word no rule flags


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    why: str


@cache
def rules() -> tuple[Rule, ...]:
    return tuple(Rule(r["name"], re.compile(r["pattern"]), r["why"])
                 for r in wording()["machine"])


def machine_words(text: str, tools: Iterable[str] = ()) -> list[str]:
    """Each machine phrase of ``text``: ``"<rule> 'match': why"``; tool names too."""
    out = [f"{r.name} {m.group(0)!r}: {r.why}" for r in rules()
           for m in r.pattern.finditer(text)]
    out += [f"tool name {t!r}: a request names what the user wants, not a tool"
            for t in tools if re.search(rf"(?<![\w.]){re.escape(t)}(?![\w])", text)]
    return out


def phrasing_words(phrasing: str, tools: Iterable[str] = ()) -> list[str]:
    """``machine_words`` of the words an author wrote (placeholders masked)."""
    return machine_words(_HOLE.sub(_MASK, phrasing), tools)
