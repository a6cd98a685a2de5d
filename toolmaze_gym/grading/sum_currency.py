"""A sum told in the currency its own response gave it in says the asked sum (grading
version 19).

toolmaze-v8's c2-0048 asked to log an expense "in CHF" and to push "what's left of that
budget". ``log_expense`` converts the CHF expense into the budget's own currency and
answers ``budget_remaining: 218.11, budget_currency: "USD"``, yet the push was asked to
mention CHF beside the remainder (the task's text took the request's currency for the
budget's). "Shopping budget remaining: USD 218.11" tells the remainder exactly as the
episode's own conversion gave it, named by its code, and failed for "does not mention
CHF" (v8 play-test, issue 27). So where a text must name a currency beside a sum a
response gave, the sum named with the currency code that same response gave for it
passes too. The code must be written (a bare 218.11 names no currency), and it must be
the episode's own: "218.11 GBP" is no "218.11 USD".
"""

from __future__ import annotations

from toolmaze_gym.corpus.spec import OutputField, ToolSpec

MONEY_TYPES = frozenset({"money_amount", "money_delta"})
CURRENCY = "currency_code"


def currency_beside(spec: ToolSpec, money_key: str) -> OutputField | None:
    """The field that names the currency of ``spec``'s sum ``money_key`` (``type@key``):
    the response's one currency code that is not an echo of an argument (an echo
    restates the request's currency, not the sum's); None where the response names
    none, or several (then which is the sum's is not for the grader to guess)."""
    type_, _, key = money_key.partition("@")
    if type_ not in MONEY_TYPES or not any(
            f.type == type_ and (f.canonical == key if key else not f.echo)
            for f in spec.returns):
        return None
    codes = [f for f in spec.returns if f.type == CURRENCY and not f.echo]
    return codes[0] if len(codes) == 1 else None
