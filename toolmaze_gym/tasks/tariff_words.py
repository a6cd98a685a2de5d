"""A tariff a request gives names its currency.

toolmaze-v9's c4-0091 asked what a Manchester home's energy "cost at 0.28 per kWh": a
price of no currency, so the cost's currency was the reader's guess (the v9 blind review,
r2). Every phrasing that gives a price per kWh says its currency right before "per kWh"
("{tariff} {tariff_currency} per kWh", "0.28 GBP a kWh", "£0.28/kWh", "28p per kWh"):
a currency-code param's placeholder, an ISO code, or a sign or pence on the number.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from toolmaze_gym.world.base import load_data

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

# the word before a rate: "X per kWh", "X a kWh", "X/kWh", "X-per-kWh"
_RATE = re.compile(r"([^\s(]+?)(?:\s+per\s+|\s+an?\s+|\s*/\s*|-per-)kwh\b", re.IGNORECASE)
_PENCE = re.compile(r"^\d+(?:\.\d+)?(?:p|c|ct|cents?|pence)$", re.IGNORECASE)


@cache
def _codes() -> frozenset[str]:
    return frozenset(k for k in load_data("currencies.json") if not k.startswith("_"))


@cache
def _signs() -> tuple[str, ...]:
    return tuple(s for k, v in load_data("currency_signs.json").items()
                 if not k.startswith("_") for s in v)


def names_currency(word: str, currency_params: frozenset[str]) -> bool:
    """Whether the word before "per kWh" says a currency."""
    word = word.strip(",;:")
    hole = re.fullmatch(r"\{(\w+)\}", word)
    if hole:
        return hole.group(1) in currency_params
    return (word.upper() in _codes() or bool(_PENCE.match(word))
            or any(s in word for s in _signs()))


def bare_tariffs(phrasing: str, currency_params: frozenset[str]) -> list[str]:
    """The rates of a phrasing that name no currency ("0.28 per kWh")."""
    return [m.group(0) for m in _RATE.finditer(phrasing)
            if not names_currency(m.group(1), currency_params)]


def tariff_problems(sc: Scenario) -> list[str]:
    """Every phrasing that gives a price per kWh without its currency."""
    where = f"{sc.file}: {sc.id}"
    codes = frozenset(p.name for p in sc.params if p.type == "currency_code")
    return [f"{where}.phrasings[{k}]: the tariff {bare!r} names no currency; say it "
            "before \"per kWh\" (a currency-code param, e.g. \"{tariff} {tariff_currency} "
            "per kWh\", or \"28p\")"
            for k, p in enumerate(sc.phrasings) for bare in bare_tariffs(p, codes)]
