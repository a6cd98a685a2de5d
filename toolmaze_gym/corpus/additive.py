"""Actions that add to a record, and how several such calls make one.

Appending rows to a sheet, paragraphs to a document, lines to an invoice or items to
a cart adds to what is there: three ``append_row`` calls on one sheet, one holding a
row, leave the sheet the user asked for as surely as one call with three holdings. So
the grader reads the calls of an additive Action on the same record as one call:
their free texts together, their quantities summed, every other argument the same in
each (the record, the product, the unit price).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolmaze_gym.mentions import FREE_TEXT
from toolmaze_gym.values.numbers import is_number

ADDITIVE_BEHAVIOURS = frozenset({"office.sheet.append", "office.doc.append", "shop.cart_add",
                                 "finance.invoice.add_line"})
SUMMED = frozenset({"quantity"})  # argument types that add up across the calls


def additive(spec) -> bool:
    """Whether calls of tool ``spec`` add to a record rather than set it."""
    return spec.category == "Action" and spec.behaviour in ADDITIVE_BEHAVIOURS


def record_key(spec, args: Mapping[str, Any]) -> tuple | None:
    """What calls must share to add to one record: every argument that is neither
    free text nor summed (None: arguments that cannot be compared)."""
    try:
        return tuple(sorted((p.name, repr(args.get(p.name))) for p in spec.params
                            if p.type != FREE_TEXT and p.type not in SUMMED))
    except TypeError:
        return None


def combined(spec, calls: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The one call that ``calls`` (on one record, in order) amount to."""
    out = dict(calls[0])
    for p in spec.params:
        got = [c[p.name] for c in calls if p.name in c]
        if not got:
            continue
        if p.type == FREE_TEXT and all(isinstance(g, str) for g in got):
            out[p.name] = "\n".join(got)
        elif p.type in SUMMED and all(is_number(g) for g in got):
            out[p.name] = sum(got)
    return out
