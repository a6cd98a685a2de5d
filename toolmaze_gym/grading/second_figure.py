"""A figure asked beside another of the same value is told as its own (grading version 18).

toolmaze-v7's c4-0020 asked the run's screen for "the amount pledged by 120 runners at
40 EUR each" and "the sponsor's 100% match on it as a second figure": the match is
4,800 EUR, the pledge's own value, so the pledge's mention passed for the match, and a
screen without the match line (or with only "Total 9,600 EUR") passed (issue 27).

So where a text is asked a value twice, for two outputs that happen to be equal (the
match and the pledge it is worked from), it must write that figure twice.

Two asked facts of different kinds can be equal too (grading version 19): toolmaze-v8's
c4-0014 asked MSFT's "dividend per share" and its "2025-Q3 EPS", both 3.32 in that
world, and an e-mail that wrote "EPS 3.32 vs 2.62" and no dividend passed for both (the
v8 blind review). A figure written to the cent (an amount, an EPS) answers one ask: each
asked figure of the same value needs its own occurrence, unless an ask is told another
way (an EPS pair by its surprise in per cent), which writes no figure of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from toolmaze_gym.mentions import numbers_in
from toolmaze_gym.values.numbers import is_number

# A figure as written: digits with their group and decimal separators ("4,800.00").
_FIGURE = re.compile(r"\d+(?:[,.'’]\d+)*(?: \d{3}(?![\d,.]))*")
MONEY = "money_amount"
# The kinds of figure written as they are, to the cent: one occurrence answers one ask.
FIGURES = frozenset({MONEY, "eps"})


def told_times(text: str, value: float) -> int:
    """How many figures of ``text`` read as ``value`` (to the cent)."""
    return sum(1 for m in _FIGURE.finditer(text)
               if any(abs(n - value) < 0.005 for n in numbers_in(m.group(0))))


def repeats_told(text: str, need: Iterable[tuple[str, Any]]) -> bool:
    """Whether each figure value ``need`` asks more than once (two amounts, or an amount
    and an EPS: ``FIGURES``) is written as many times. A nil amount is no figure of its
    own: "pays no dividend, nothing to withhold" tells a dividend of 0 before and after
    withholding (v3 c1-0063)."""
    counts = Counter(round(v, 2) for t, v in need if t in FIGURES and is_number(v) and v)
    return all(told_times(text, v) >= k for v, k in counts.items() if k > 1)


def second_figures(slots: dict[str, Any], slot_id: str, value: float, ref_text: str,
                   outputs: Any) -> list[tuple[str, str]]:
    """(slot, key) of each money input of ``slot_id`` worked from an equal value (the
    pledge a 100 % match is worked from) where the reference text ``ref_text`` writes
    the figure twice: a second ask of the same figure. ``outputs(slot)``: what a slot
    offers in the reference run."""
    out: list[tuple[str, str]] = []
    if not value:  # a nil amount is no figure of its own (a dividend of 0, v3 c1-0063)
        return out
    for inp in slots[slot_id].inputs:
        src = inp.source
        if src.is_literal or src.slot not in slots or src.type != MONEY:
            continue
        key = f"{MONEY}@{src.field}" if src.field else MONEY
        got = outputs(src.slot).get(key)
        if isinstance(got, int | float) and abs(got - value) < 0.005 \
                and told_times(ref_text, value) >= 2:
            out.append((src.slot, key))
    return out


def untold(text: str, value: float, labels: list[str]) -> list[int]:
    """Which of the asks of one figure ``value`` (each by the output field it comes
    from: "dividend_per_share", "eps_actual") ``text`` leaves untold, for an explanation
    only: each occurrence of the figure tells the ask whose field's first word comes last
    before it, after the figure before ("EPS 3.32" tells the EPS, so the dividend of the
    same value is the one left out: v8 c4-0014). An occurrence with no such word tells
    none in particular, so more asks may be returned than are missing."""
    words = [label.split("_")[0].lower() for label in labels]
    claimed: set[int] = set()
    start = 0
    for m in _FIGURE.finditer(text):
        window, start = text[start:m.start()].lower(), m.end()
        if not any(abs(n - value) < 0.005 for n in numbers_in(m.group(0))):
            continue
        found = [(hit.start(), j) for j, w in enumerate(words) if w and j not in claimed
                 for hit in re.finditer(rf"\b{re.escape(w)}", window)]
        if found:
            claimed.add(max(found)[1])
    return [j for j in range(len(labels)) if j not in claimed]
