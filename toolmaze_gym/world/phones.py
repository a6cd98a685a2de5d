"""Phone numbers: which E.164 numbers are mobiles of their country's numbering plan.

A text message goes to a mobile; v3 sent SMS to numbers such as +44 3…, a UK
non-geographic landline, or to +1 numbers one digit short. The plans (mobile
prefixes of the national number and its lengths) are data:
``data/world/numbering.json``; each country's calling code is
``data/world/calling_codes.json`` (world edition 7 gives a person a mobile of the
country they live in: toolmaze-v9 c2-0010 texted a Tokyo attendee on a +33 number).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from toolmaze_gym import hashing
from toolmaze_gym.world.base import load_data


@cache
def _plans() -> dict[str, dict[str, list]]:
    return {k: v for k, v in load_data("numbering.json").items() if not k.startswith("_")}


def is_mobile(number: str) -> bool:
    """An E.164 number that is a well-formed mobile of its country's plan."""
    digits = str(number).strip().removeprefix("+")
    for cc in sorted(_plans(), key=len, reverse=True):
        if digits.startswith(cc):
            national, plan = digits[len(cc):], _plans()[cc]
            return (national.isdigit() and len(national) in plan["digits"]
                    and national.startswith(tuple(plan["prefixes"])))
    return False


@cache
def calling_codes() -> dict[str, str]:
    """ISO country code -> its calling code ("FR" -> "33")."""
    return {k: v for k, v in load_data("calling_codes.json").items() if not k.startswith("_")}


def countries_of(number: str) -> set[str]:
    """The countries (ISO codes) whose numbers start as ``number`` does."""
    digits = str(number).strip().removeprefix("+")
    codes = sorted(set(calling_codes().values()), key=len, reverse=True)
    code = next((c for c in codes if digits.startswith(c)), None)
    return {iso for iso, c in calling_codes().items() if c == code} if code else set()


def local_mobile(country: str, *key: object) -> str:
    """A well-formed mobile number of ``country``'s plan, drawn from ``key``: the number
    someone living there carries (a mobile prefix, then digits to the plan's length)."""
    code = calling_codes()[country]
    plan = _plans()[code]
    prefix: str = hashing.choice(plan["prefixes"], *key, "prefix")
    length: int = _pick(plan["digits"], *key)
    rest = length - len(prefix)
    return f"+{code}{prefix}{hashing.randint(10 ** (rest - 1), 10 ** rest - 1, *key, 'rest')}"


def _pick(lengths: Sequence[int], *key: object) -> int:
    """A national number length of the plan (the first where it allows one only)."""
    return lengths[0] if len(lengths) == 1 else hashing.choice(list(lengths), *key, "len")
