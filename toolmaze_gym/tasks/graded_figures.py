"""A figure the request names as part of what it wants is one the grader asks for.

toolmaze-v8's c3-0001 asked for a quote of "the order's subtotal plus the tax due in
Berlin on it, with the total converted to EUR", and the draft was graded on the EUR
total only: a draft that said "Total: 1983.97 EUR." passed (the v8 blind review,
settled by replay), so the subtotal the request named was an ask graded nowhere. A
phrasing that names an order's subtotal as something it wants (not as the base a tax
is worked out "on", nor a sum: "the subtotal plus tax") must have the
subtotal among a text's asks or the answer; else the phrasing asks only what is
graded ("the total with the tax ..., converted to EUR").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from toolmaze_gym.tasks.asks import texts

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

# steps whose ``total`` is an order's subtotal (the line total before tax)
SUBTOTAL_MAKERS = frozenset({"calc.line_total"})
# "subtotal" named as a figure wanted; "the tax due on the subtotal" names its base, and
# "the subtotal plus tax" a sum, one figure (toolmaze-v11 c1-0077's "taxed total" left
# the order's shipping in or out); "the subtotal plus the tax due" lists two (v8 c3-0001)
_SUBTOTAL = re.compile(r"(?<!on the )(?<!on its )(?<!on that )\bsubtotal\b"
                       r"(?!\s+plus\s+tax\b)", re.I)


def _graded(sc: Scenario) -> set[str]:
    """Every step output a text or the answer asks for."""
    return {ref for _, a in texts(sc) for ref in a.mention} | set(sc.answer)


def ungraded_figure_problems(sc: Scenario) -> list[str]:
    """Each phrasing that names a subtotal it wants while no ask grades one."""
    graded = _graded(sc)
    subtotals = {f"{st.id}.total" for st in sc.steps if st.use in SUBTOTAL_MAKERS}
    if any(ref in subtotals or ref.endswith(".subtotal") for ref in graded):
        return []
    where = f"{sc.file}: {sc.id}"
    return [f"{where}.phrasings[{k}]: names the subtotal as something it wants, but no "
            "text or answer asks for it: ask only what is graded (\"the total with the "
            "tax\"), or add the subtotal to the asks"
            for k, phrasing in enumerate(sc.phrasings) if _SUBTOTAL.search(phrasing)]
