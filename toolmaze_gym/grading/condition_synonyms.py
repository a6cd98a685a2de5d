"""A weather condition told in other words people use for it.

The forecast's "clear" is what people call "sunny and dry"; its "light rain" is told as
"rainy (15.1 mm)" by someone who gives the amount instead of the adjective. A text
asked to mention the condition says it by those words (``data/world/
condition_synonyms.json``; grading version 16, toolmaze-v6 play-test c1-0061, c3-0071);
a word negated ("no rain", "not sunny") says nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolmaze_gym.world.base import load_data

_NEGATED = r"(?<!\bno )(?<!\bnot )(?<!\bwithout )"
# A precipitation amount above zero: "15.1 mm", "15,1mm".
_AMOUNT = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s?mm\b", re.I)


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
    return bool(words) and _said(text, words) and any(
        float(m[1].replace(",", ".")) > 0 for m in _AMOUNT.finditer(text))
