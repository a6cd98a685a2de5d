"""What is left of a budget beside a purchase: which moment, and goods that fit it.

toolmaze-v5's c3-0095 asked "what do they come to with my member discount, and how
much is left of my gifts budget?": a careful reader may give the budget left after
buying them, and the grade takes the balance as it stands (nothing logs the purchase).
Its scenario, gifts "within a budget", also priced gifts 100 USD over what was left.

So a scenario that tells both a price of goods and a budget's remaining amount says
in every phrasing that the remaining is the budget as it stands ("right now", "before
buying them"); and one that only plans the purchase (no order, no question whether
it is affordable) draws goods that fit: a premise that the price is at most the
remaining amount, in the budget's own currency.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolmaze_gym.tasks.readings import states

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

BUDGET_USE = "finance.budget.status"
PRICE_USES = frozenset({"calc.line_total", "shop.discount", "shop.tax"})
ORDER_USES = frozenset({"shop.place_order", "shop.checkout", "shop.order_by_sku"})
SPENT_USES = frozenset({"finance.expense.log"})  # the purchase changes the balance told
NOW_WORDS = ("right now", "as it stands", "currently", "at the moment", "before buying",
             "before I buy", "before the purchase", "before ordering", "before the order",
             "still", "so far", "today")
ASKS_FIT = ("afford", "compare", "next to")  # the request asks whether it fits


def _told(sc: Scenario) -> set[str]:
    return set(sc.answer) | {h for s in sc.steps for a in s.args for h in a.holes}


def budget_fit_problems(sc: Scenario) -> list[str]:
    """Phrasings that leave the budget's moment open; a planned purchase over budget."""
    uses = {s.use for s in sc.steps}
    budgets = [s.id for s in sc.steps if s.use == BUDGET_USE]
    told = _told(sc)
    remaining = [f"{b}.remaining" for b in budgets if f"{b}.remaining" in told]
    if not remaining or not uses & PRICE_USES or uses & SPENT_USES:
        return []
    where = f"{sc.file}: {sc.id}"
    out = [f"{where}.phrasings[{k}]: tells a price and what is left of a budget but not "
           f"whether before or after the purchase; say one of {list(NOW_WORDS)}"
           for k, p in enumerate(sc.phrasings) if not states(p, NOW_WORDS)]
    planned = not uses & ORDER_USES and not any(states(p, ASKS_FIT) for p in sc.phrasings)
    compared = {o.ref for p in sc.premises for o in p.operands if o.kind == "field"}
    if planned and not set(remaining) & compared:
        out.append(f"{where}.premises: plans a purchase beside {remaining[0]!r} but draws "
                   "goods that may not fit; add a premise that the price is at most it")
    return out
