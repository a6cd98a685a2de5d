"""Personal budgets: monthly limits per category, expenses, and what is left.

Every category starts with a world default (limit and month-to-date spending in
the home currency); setting a budget replaces the limit and currency, and each
logged expense, converted into the budget currency, reduces what remains.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, behaviour
from toolmaze_gym.corpus.behaviours.finance_common import (
    counter,
    fx,
    money,
    positive,
    table,
    text,
)
from toolmaze_gym.values.catalog import make_id


def _budget(ctx: CallContext, category: str) -> dict[str, Any]:
    """Limit, currency and spending of a category as this episode has left it."""
    m = ctx.world.markets
    cat = category.strip().lower()
    limit, spent = m.default_budget(cat)
    currency = m.home_currency
    custom = table(ctx, "budgets").get(cat)
    if custom is not None:
        spent = money(spent * fx(ctx, currency, custom["currency"]))
        limit, currency = custom["limit"], custom["currency"]
    spent = money(spent + sum(table(ctx, "expenses").get(cat, [])) * fx(ctx, m.home_currency,
                                                                        currency))
    return {"category": cat, "monthly_limit": limit, "spent": spent,
            "remaining": money(limit - spent), "currency": currency,
            "over_budget": spent > limit, "period": ctx.world.today[:7]}


@behaviour("finance.budget.set")
def set_budget(ctx: CallContext, category: str, limit: float, currency: str) -> dict:
    cat = category.strip().lower()
    positive(ctx, "limit", limit)
    budgets = table(ctx, "budgets")
    status = "updated" if cat in budgets else "active"
    bid = make_id("BGT", 8, cat, money(limit), currency.upper(), counter(ctx, "budget"))
    budgets[cat] = {"id": bid, "limit": money(limit), "currency": currency.upper()}
    ctx.state.record(ctx.tool, {"action": "budget.set", "budget_id": bid, "category": cat})
    return {"budget_id": bid, "status": status, **_budget(ctx, cat)}


@behaviour("finance.budget.status")
def budget_status(ctx: CallContext, category: str) -> dict:
    return {**_budget(ctx, category), "as_of": ctx.world.now_iso}


@behaviour("finance.expense.log")
def log_expense(ctx: CallContext, category: str, amount: float, currency: str,
                description: str) -> dict:
    cat = category.strip().lower()
    positive(ctx, "amount", amount)
    home = ctx.world.markets.home_currency
    table(ctx, "expenses").setdefault(cat, []).append(money(amount * fx(ctx, currency, home)))
    eid = make_id("EXP", 10, cat, money(amount), currency.upper(), text(description),
                  counter(ctx, "expense"))
    ctx.state.record(ctx.tool, {"action": "expense.log", "expense_id": eid, "category": cat})
    after = _budget(ctx, cat)
    return {"expense_id": eid, "status": "recorded", "category": cat, "amount": money(amount),
            "currency": currency.upper(), "budget_remaining": after["remaining"],
            "budget_currency": after["currency"], "recorded_at": ctx.world.now_iso}
