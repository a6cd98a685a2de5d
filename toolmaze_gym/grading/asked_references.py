"""Whether the request asks for a record's reference itself, not just the record.

A text asked to mention a booking may name it by any identifier the episode showed
(``data/world/record_names.json``: a flight by its number, a hotel by its name). Where
the request asks for the references ("send both booking references", "the confirmation
codes"), the flight number and the hotel's name are no answer: whoever gets the text
cannot look the booking up or check in with them (grading version 16, toolmaze-v6
play-test c3-0074).
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolmaze_gym.world.base import load_data

# "booking references", "the reference", "confirmation code(s)", "booking code",
# "reservation number(s)"
_ASKS = re.compile(r"\breferences?\b|\b(?:booking|reservation|confirmation)\s+"
                   r"(?:refs?|codes?|numbers?|ids?)\b", re.I)


def references_asked(query: str) -> bool:
    """Whether ``query`` asks for references (booking codes) by that word."""
    return _ASKS.search(query) is not None


@lru_cache(maxsize=1)
def _references() -> frozenset[str]:
    return frozenset(load_data("record_names.json")["references"])


def is_reference(key: str) -> bool:
    """Whether the output ``key`` (type@canonical) is a record's reference code."""
    return key in _references()
