"""Phone numbers: which E.164 numbers are mobiles of their country's numbering plan.

A text message goes to a mobile; v3 sent SMS to numbers such as +44 3…, a UK
non-geographic landline, or to +1 numbers one digit short. The plans (mobile
prefixes of the national number and its lengths) are data:
``data/world/numbering.json``.
"""

from __future__ import annotations

from functools import cache

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
