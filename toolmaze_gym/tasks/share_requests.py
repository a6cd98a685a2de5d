"""A friend's share of a cost is asked for in a message, never billed with VAT.

toolmaze-v5's c3-0075 and c4-0060 asked a friend for their share of a rental car or a
hotel with ``finance.request_payment``, whose other side is an invoice that adds the
standard VAT of the friend's country (create_invoice, draft_invoice): a world nobody
lives in, where friends invoice each other with tax. A scenario whose payment request
or invoice carries an amount split between people (``travel.split_cost``, directly or
converted) asks for it by mail or message instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.capabilities import capabilities

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

SHARE_USES = frozenset({"travel.split_cost"})
TAXED_BILLS = frozenset({"finance.invoice.create"})  # adds the customer's standard VAT
PASS_THROUGH = frozenset({"finance.convert"})


def fed_by(sc: Scenario, step_id: str, sources: frozenset[str],
           seen: frozenset[str] = frozenset()) -> bool:
    """Whether a step's amounts come from a step of ``sources``, directly or converted
    (a share between people here, an order's total in ``rebill_vat``)."""
    step = sc.step_by_id.get(step_id)
    if step is None or step_id in seen:
        return False
    for a in step.args:
        up = sc.step_by_id.get(a.step) if a.kind == "field" else None
        if up is None:
            continue
        if up.use in sources or (up.use in PASS_THROUGH
                                 and fed_by(sc, up.id, sources, seen | {step_id})):
            return True
    return False


def share_request_problems(sc: Scenario, corpus: Corpus) -> list[str]:
    """Every step that may bill a share between people as a taxed invoice."""
    caps = capabilities(corpus)
    where = f"{sc.file}: {sc.id}"
    out = []
    for step in sc.steps:
        cap = caps.get(step.use)
        if cap is None or not {corpus[t].behaviour for t in cap.tools} & TAXED_BILLS:
            continue
        if fed_by(sc, step.id, SHARE_USES):
            out.append(f"{where}.steps.{step.id}: bills a share of a cost between people "
                       f"with {step.use}, whose invoice adds VAT to it; ask for the share "
                       "by mail or message (office.mail.send)")
    return out
