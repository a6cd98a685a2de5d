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
passes too. The code must be written beside the sum, in the same clause ("218.11 left.
Logged 30.61 USD" names no currency for the remainder), and it must be the episode's
own: "218.11 GBP" is no "218.11 USD".
"""

from __future__ import annotations

import re
from typing import Any

from toolmaze_gym.corpus.spec import OutputField, ToolSpec
from toolmaze_gym.mentions import mentions

MONEY_TYPES = frozenset({"money_amount", "money_delta"})
CURRENCY = "currency_code"
# A pseudo type: (SUM_IN, (money type, amount, code)), the sum told with its code.
SUM_IN = "sum_in_currency"
# Where a clause ends: a stop, semicolon or comma before a space, or a new line (a
# thousands comma, "1,250.00", ends nothing; a colon leads to what it labels).
_CLAUSE_END = re.compile(r"[.;,!?](?=\s)|\n")


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


def sum_in_said(text: str, value: Any) -> bool:
    """Whether ``text`` writes the sum of ``value`` (money type, amount, code) with its
    currency code or sign in the same clause ("USD 218.11", "218.11 USD", "$218.11")."""
    if not isinstance(value, tuple) or len(value) != 3:
        return False
    money_type, amount, code = value
    return any(mentions(part, money_type, amount) and mentions(part, CURRENCY, code)
               for part in _CLAUSE_END.split(text))


def shown(value: Any) -> Any:
    """The sum as a reason names it: "218.11 USD"."""
    if isinstance(value, tuple) and len(value) == 3:
        return f"{value[1]} {value[2]}"
    return value
