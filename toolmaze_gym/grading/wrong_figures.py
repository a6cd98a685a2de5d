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
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.grading.arguments import MONEY, cent_apart
from toolmaze_gym.grading.own_rounding import printed_places, roundings
from toolmaze_gym.mentions import mentions, numbers_in
from toolmaze_gym.tasks.model import Task

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
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or mentions(answer, MONEY, value):
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
