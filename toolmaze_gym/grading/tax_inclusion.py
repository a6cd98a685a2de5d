"""A price told as including tax is the price with tax (grading version 23).

A tax step (``shop.tax``, ``finance.vat``: compute_vat, calculate_sales_tax,
calculate_vat) turns a net price into a gross one. A text that tells both figures
passes on the figures alone, whichever it calls which: toolmaze-v9's play-test p1
c1-0005 P0 (``wrong-unit-claim-keeps-72.59``) filed "unit price including GST is 65.99
USD" (the net) beside "3 x 72.59 = 217.77", where the unit price with GST was 72.59.

So each money figure of a text is read by its label, as ``change_order`` reads old and
new: a tax word right after it ("65.99 net", "72.59 USD incl. GST", "65.99 plus GST"),
else one before it in the same clause with no other figure between ("including GST is
65.99", "net 65.99"). A figure labelled as with tax that is an episode's net price (and
no gross one), or labelled as before tax that is a gross price (and no net one), tells
the price the other way. A figure with no label says nothing either way, so "72.59 USD
(65.99 net)" and "3 x 72.59 = 217.77 incl. GST" pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from toolmaze_gym.values.numbers import is_number

TAX_BEHAVIOURS = frozenset({"shop.tax", "finance.vat"})
_TAX = r"(?:sales\s+)?(?:tax(?:es)?|gst|vat)"
_GROSS = re.compile(rf"\b(?:incl(?:uding|usive\s+of|\.)?|inc\.|with|after)\s+(?:\w+\s+)?{_TAX}\b"
                    rf"|\bgross\b|\b{_TAX}[- ]inclusive\b", re.I)
_NET = re.compile(rf"\b(?:excl(?:uding|usive\s+of|\.)?|ex\.?|before|without|pre-?|plus)\s*"
                  rf"(?:\w+\s+)?{_TAX}\b|\bnet\b", re.I)
_FIGURE = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d%])"
                     r"|(?<![\w.,])\d+(?:\.\d+)?(?![\d%,]\d)(?!\s*%)")
_AFTER = re.compile(r"\s*(?:[A-Z]{3}|[$€£¥])?\s*\(?\s*")
_BETWEEN = re.compile(r"[^\d,;()\n]{0,40}")  # no other figure, no clause break


def prices(steps: Iterable[tuple[str, Mapping[str, Any] | None]]
           ) -> tuple[frozenset[float], frozenset[float]]:
    """(net prices, gross prices) of the tax steps among ``steps`` (behaviour, flat
    response): the gross a step returns, the net that gross less its tax."""
    net: set[float] = set()
    gross: set[float] = set()
    for behaviour, body in steps:
        if behaviour not in TAX_BEHAVIOURS or not body:
            continue
        g = next((body[k] for k in ("gross_amount", "total") if is_number(body.get(k))), None)
        t = next((v for k, v in body.items() if is_number(v) and k.split(".")[-1]
                  in ("vat_amount", "tax_amount")), None)
        if g is not None and t is not None and abs(t) >= 0.005:
            gross.add(round(float(g), 2))
            net.add(round(float(g) - float(t), 2))
    return frozenset(net), frozenset(gross)


def told_the_other_way(text: str, net: frozenset[float], gross: frozenset[float]
                       ) -> list[tuple[str, float]]:
    """(the label as written, the figure) for each figure ``text`` tells under a label
    of the other side of tax: a net price as with tax, a gross one as before tax."""
    if not net or not isinstance(text, str):
        return []
    out = []
    for m in _FIGURE.finditer(text):
        value = round(float(m.group(0).replace(",", "")), 2)
        label = _label(text, m.start(), m.end())
        if label is None:
            continue
        words, with_tax = label
        if (with_tax and _in(value, net) and not _in(value, gross)) \
                or (not with_tax and _in(value, gross) and not _in(value, net)):
            out.append((words, value))
    return out


def _in(value: float, values: frozenset[float]) -> bool:
    return any(abs(value - v) < 0.005 for v in values)


def _label(text: str, start: int, end: int) -> tuple[str, bool] | None:
    """The tax label of the figure at ``text[start:end]`` and whether it says with tax:
    a tax word right after it, else one before it in its clause."""
    after = _AFTER.match(text, end)
    rest = text[after.end() if after else end:]
    for pattern, with_tax in ((_GROSS, True), (_NET, False)):
        m = pattern.match(rest)
        if m and not _heads_figure(rest, m.end()):
            return m.group(0), with_tax
    head = text[:start]
    found = [(m, with_tax) for pattern, with_tax in ((_GROSS, True), (_NET, False))
             for m in pattern.finditer(head)
             if _BETWEEN.fullmatch(head[m.end():]) is not None]
    if not found:
        return None
    m, with_tax = max(found, key=lambda f: f[0].end())
    return m.group(0), with_tax


_LEAD = re.compile(r"\s*:?\s*(?:[A-Z]{3}|[$€£¥])?\s*")


def _heads_figure(text: str, end: int) -> bool:
    """Whether the label ending at ``end`` heads a figure of its own: "72.59 (net 65.99)"
    labels 65.99, not 72.59 (grading version 32; toolmaze-v14 review c1-0005)."""
    lead = _LEAD.match(text, end)
    return _FIGURE.match(text, lead.end() if lead else end) is not None


def wrong_way_told(steps: Iterable[tuple[str, Mapping[str, Any] | None]],
                   texts: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each figure a text (tool, text; tool "" for the final answer) tells as the price
    on the other side of tax, as the grade lists a wrong claim."""
    net, gross = prices(steps)
    return [{"type": "tax_label", "value": words, "told": value, "sent": tool}
            for tool, text in texts for words, value in told_the_other_way(text, net, gross)]
