"""A figure the final answer states wrong, though a text carries it right (grading 19).

A request may ask a sum to be sent (an SMS, a mail) and not of the final answer; the
answer need not tell it then. But an answer that does tell it, wrongly, makes a wrong
claim to the user, whatever the text says: toolmaze-v8's play-test c3-0040 P2 `FVoff`
answered "that yen value would grow to ¥69,188,915 in 10 years" for 69,188,015.37 and
passed, because the SMS carried the right figure.

A figure is the answer's claim about a fact when it is that fact's sum told near, as
``says`` reads a sum (within ``arguments.ROUNDING_SHARE``): no other figure of a
request sits that close to it. It is a wrong claim unless it is a rounding of the sum
at the precision it was written (1,205 or "about 69,188,000" for 69,188,015.37), the
sum told more finely than it was printed (220,014.39 for a whole 220,014), or the
agent's own rounding (``own_rounding``, judged by the caller). An answer that states
the sum itself as well states it right.

Since grading version 21 every text the agent sent (an e-mail, an SMS, a push, a post)
is read the same way (``grade._sent_wrong``): a wrong figure sent to someone is as bad
as one told to the user (toolmaze-v9 review c4-0091 `wrongcost`).

Also since version 21, a sum mistyped is told near it (``typo_figures``): an amount
written beside a currency (a code or a sign) whose digits are the sum's, at the
precision written, with two neighbours swapped or one digit changed (271.77 USD for
217.77, 115,188 JPY for 151,188: toolmaze-v9's play-test p1, c1-0005 P0 and c4-0028
P0). A slip of one key leaves no doubt which fact it claims where the figure has at
least four digits that are not trailing zeros (a round 2,000 is no typo of 2,500), and
no figure the episode showed or the task works out is it (``figures_shown``: a request's
budget, a response's other price, the year of a date). A rounding of the sum at its own
precision stays one (217.8 for 217.77), and the caller still passes the agent's own
rounding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from toolmaze_gym.grading.arguments import MONEY, cent_apart
from toolmaze_gym.grading.own_rounding import printed_places, roundings
from toolmaze_gym.mentions import mentions, numbers_in
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.world.base import load_data

_AMOUNT = r"\d+(?:[.,' \u00a0\u202f]\d+)*"
_SIGNIFICANT = 4  # digits a figure needs, trailing zeros aside, to be read as a typo

Fact = tuple[str, Any, str, str]  # (type, reference value, slot, output key)


def sums_in_texts(task: Task) -> tuple[Fact, ...]:
    """Every sum a text of ``task`` must carry that a slot works out, once each."""
    out: list[Fact] = []
    for slot in task.slots:
        for inp in slot.inputs:
            for m in inp.mentions:
                if len(m) >= 4 and m[0] == MONEY and all(m[2:4] != f[2:4] for f in out):
                    out.append((m[0], m[1], m[2], m[3]))
    return tuple(out)


def near_figures(answer: str, value: Any) -> list[float]:
    """The figures ``answer`` states for the sum ``value`` that are not it: told near
    it, no rounding of it at their own precision, nor told more finely than it (empty
    where the answer states the sum itself, or nothing near it). A sum a response
    printed in whole yen, 220,014, told as 220,014.39 JPY is no contradiction: the
    replay of toolmaze-v3 c4-0051 P2 on a world that prints JPY without a minor unit."""
    if not is_number(value) or mentions(answer, MONEY, value):
        return []
    return [n for n in numbers_in(answer) if cent_apart(n, value)
            and n not in roundings(value, _places(n))
            and value not in roundings(n, _places(value))]


def _places(n: float) -> int:
    """The decimals ``n`` was written with, negative for a whole figure's trailing
    zeros (69,188,000 is written to the thousand: -3)."""
    if float(n).is_integer():
        digits = str(int(abs(n)))
        zeros = len(digits) - len(digits.rstrip("0"))
        return -min(zeros, len(digits) - 1) if digits != "0" else 0
    return printed_places(n)


def typo_figures(text: str, value: Any) -> list[float]:
    """The amounts ``text`` writes beside a currency that are ``value`` mistyped: its
    digits at their precision with two neighbours swapped or one changed (the module
    docstring; empty where the text states the sum itself). The caller drops the
    figures the episode showed (``figures_shown``) and the agent's own rounding."""
    if not is_number(value) or mentions(text, MONEY, value):
        return []
    out = []
    for m in _marked().finditer(text):
        for n in numbers_in(m.group("a") or m.group("b")):
            if n in roundings(value, _places(n)) or value in roundings(n, _places(value)):
                continue
            places = max(printed_places(n), 0)
            told = _digits(n, places)
            if len(told.strip("0")) >= _SIGNIFICANT and any(
                    _slip(told, _digits(r, places)) for r in roundings(value, places)):
                out.append(n)
    return out


def figures_shown(query: str, observations: Iterable[str],
                  outputs: Mapping[str, Mapping[str, Any]]) -> frozenset[float]:
    """Every figure the request and the responses write, and every number the task's
    steps work out in this episode (to the cent): figures no typo can be."""
    found = set(numbers_in(query))
    for text in observations:
        found |= numbers_in(text)
    found |= {v for got in outputs.values() for v in got.values() if is_number(v)}
    return frozenset(round(abs(v), 2) for v in found)


@lru_cache(maxsize=1)
def _marked() -> re.Pattern[str]:
    """An amount with a currency right before or after it: a code in capitals or one
    of the signs people write (``currency_signs.json``)."""
    signs = {s for k, v in load_data("currency_signs.json").items()
             if not k.startswith("_") for s in v}
    mark = "(?:[A-Z]{3}|" + "|".join(re.escape(s) for s in sorted(signs, key=len,
                                                                  reverse=True)) + ")"
    return re.compile(rf"(?<![\w$£¥]){mark}\s?(?P<a>{_AMOUNT})(?![\d.,]\d)"
                      rf"|(?<![\w.,])(?P<b>{_AMOUNT})\s?{mark}(?!\w)")


def _digits(n: float, places: int) -> str:
    """The digits of ``n`` written to ``places`` decimals, marks left out."""
    return f"{abs(n):.{places}f}".replace(".", "")


def _slip(told: str, meant: str) -> bool:
    """Whether ``told`` is ``meant`` with one digit changed or two neighbours swapped."""
    if len(told) != len(meant):
        return False
    diff = [i for i, (a, b) in enumerate(zip(told, meant, strict=True)) if a != b]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                              and told[diff[0]] == meant[diff[1]]
                              and told[diff[1]] == meant[diff[0]])
