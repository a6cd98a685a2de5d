"""An invoice that re-bills an order's total says that VAT is added on top.

The invoice tools (create_invoice, draft_invoice: ``finance.invoice.create``) add the
customer's standard VAT to the amount billed. toolmaze-v6's c4-0038 asked to "re-bill
them: an invoice for the order total in SEK", and the invoice came to the total plus
16 %: more than the user said to bill, with nothing in the request saying so (the
play-tester p1 reported it as a task fault). So a scenario whose invoice is fed an
order's total (an order step's output, directly or converted) says in every phrasing
that VAT comes on top (``VAT_WORDS``), so the invoice total is the one the user asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.asks import cue_in
from toolmaze_gym.tasks.capabilities import capabilities
from toolmaze_gym.tasks.share_requests import TAXED_BILLS, fed_by

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

ORDER_TOTALS = frozenset({"shop.checkout", "shop.place_order", "shop.order_by_sku"})
VAT_WORDS = ("vat", "plus tax", "tax on top", "with tax", "tax added", "sales tax")


def rebill_problems(sc: Scenario, corpus: Corpus) -> list[str]:
    """Each phrasing that re-bills an order total on a taxed invoice without saying VAT."""
    caps = capabilities(corpus)
    where = f"{sc.file}: {sc.id}"
    out = []
    for step in sc.steps:
        cap = caps.get(step.use)
        behaviours = {corpus[t].behaviour for t in cap.tools} if cap else {step.use}
        if not behaviours & TAXED_BILLS or not fed_by(sc, step.id, ORDER_TOTALS):
            continue
        out += [f"{where}.phrasings[{k}]: re-bills an order's total on an invoice "
                f"({step.id}) that adds VAT, and never says so (say \"plus VAT\")"
                for k, p in enumerate(sc.phrasings) if not any(cue_in(p, w) for w in VAT_WORDS)]
    return out
