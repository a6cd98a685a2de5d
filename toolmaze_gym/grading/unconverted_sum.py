"""A sum told in the currency it was converted into, at its amount before (grading 21).

toolmaze-v9's c4-0054 asks to cancel a flight "and tell me the refund in CHF", then to
push a colleague "the change". The play-test's slip `push-wrong-chf` told the user
"80.50 EUR = 79.28 CHF" in the final answer and pushed "refund 80.50 CHF": the EUR
amount under the franc's code, 1.22 CHF more than the refund. It passed: the push was
asked only the news, and a wrong figure was looked for in the final answer alone, and
only near the right one (``wrong_figures``).

An amount written with a currency's code or sign right beside it ("80.50 CHF", "CHF
80.50", "Fr. 80.50") claims that amount in that currency. Where a step of the task
converts an amount from one currency into another, the amount it converted is no sum
in the target currency: told with the target's code it is a wrong figure, in the final
answer or in any text the agent sent, unless the two are the same to the cent (a
rate near 1). "80.50 EUR (about 79.28 CHF)" writes each sum beside its own code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from toolmaze_gym.grading.arguments import MONEY
from toolmaze_gym.grading.sum_currency import CURRENCY
from toolmaze_gym.mentions import mentions
from toolmaze_gym.tasks.model import Input, Task
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.world.base import load_data

# A written amount: digits with groups or a decimal mark ("80.50", "1 234,5", "80").
_AMOUNT = r"\d+(?:[.,' \u00a0\u202f]\d+)*"


@dataclass(frozen=True)
class Conversion:
    """A slot that converts ``amount`` into ``quote``: its inputs and its money key."""

    slot: str
    amount: Input
    base: Input
    quote: Input


def conversions(task: Task) -> tuple[Conversion, ...]:
    """Each slot of ``task`` with an amount, a base and a quote currency among its
    inputs (the capability's roles: ``convert_currency``, ``get_fx_rate`` then
    ``apply_fx_rate``)."""
    out = []
    for slot in task.slots:
        by_role = {i.role: i for i in slot.inputs}
        amount, base, quote = by_role.get("amount"), by_role.get("base"), by_role.get("quote")
        if amount is not None and base is not None and quote is not None \
                and amount.type == MONEY and base.type == quote.type == CURRENCY:
            out.append(Conversion(slot.id, amount, base, quote))
    return tuple(out)


def resolved(inp: Input, outputs: Mapping[str, Mapping[str, Any]]) -> Any:
    """An input's value in this episode: its literal, or the output it is bound to."""
    src = inp.source
    if src.is_literal:
        return src.value
    got = outputs.get(src.slot, {})
    return got.get(f"{src.type}@{src.field}", got.get(src.type)) if src.field \
        else got.get(src.type)


def mislabelled(text: str, amount: Any, code: Any, converted: Any) -> str:
    """The figure of ``text`` that writes ``amount`` with ``code``'s code or sign right
    beside it, where ``converted`` (the amount in ``code``) is another sum ("" where
    none does)."""
    if not isinstance(code, str) or any(not is_number(v) for v in (amount, converted)) \
            or round(amount, 2) == round(converted, 2):
        return ""
    for m in _beside(code.upper()).finditer(text):
        figure = m.group("a") or m.group("b")
        if mentions(figure, MONEY, amount, loosely=False) \
                and not mentions(figure, MONEY, converted):
            return m.group(0).strip()
    return ""


@lru_cache(maxsize=64)
def _beside(code: str) -> re.Pattern[str]:
    """An amount with ``code`` or one of its signs right before or after it."""
    marks = [re.escape(code), *(re.escape(s) for s in load_data("currency_signs.json")
                                .get(code, ()))]
    mark = "(?:" + "|".join(marks) + ")"
    return re.compile(rf"(?<![\w$£¥]){mark}\s?(?P<a>{_AMOUNT})(?![\d.,]\d)"
                      rf"|(?<![\w.,])(?P<b>{_AMOUNT})\s?{mark}(?!\w)")


def unconverted_told(task: Task, outputs: Mapping[str, Mapping[str, Any]], text: str
                     ) -> list[tuple[str, Any, str]]:
    """(slot, converted sum, figure) for each amount a slot of ``task`` converted that
    ``text`` tells under the target currency's code (see the module docstring)."""
    out = []
    for conv in conversions(task):
        amount, code = resolved(conv.amount, outputs), resolved(conv.quote, outputs)
        converted = next((v for k, v in outputs.get(conv.slot, {}).items()
                          if k.split("@")[0] == MONEY), None)
        figure = mislabelled(text, amount, code, converted)
        if figure:
            out.append((conv.slot, converted, figure))
    return out
