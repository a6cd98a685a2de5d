"""Financial calculators: conversion, rounding, changes, positions, interest, loans, tax.

Each is a pure function of its arguments (conversion reads the world's FX rate),
rounded once at the end the way the documented relation says, so a careful
reader can recompute it: converted = amount × rate, total paid = payment × months.
"""

from __future__ import annotations

import math

from toolmaze_gym.corpus.behaviours import CallContext, behaviour
from toolmaze_gym.corpus.behaviours.finance_common import fx, invalid, money, pname
from toolmaze_gym.world.markets import ceil_cents, half_up_cents, pct_change

MAX_AMOUNT = 1e9


def _bounded(ctx: CallContext, value: float, what: str, scale: str) -> float:
    """``value`` when at most ``MAX_AMOUNT``, else a 422 naming ``scale``: the canonical
    argument the result grows with, so the error names one of the calling tool's own
    parameters (a result field such as "amount" is none of them)."""
    if value > MAX_AMOUNT:
        raise invalid(ctx, scale, f"{what} {value:.2f} exceeds the supported maximum of 1e9")
    return value


# ---------------------------------------------------------------- conversion


@behaviour("finance.convert")
def convert(ctx: CallContext, amount: float, base: str, quote: str) -> dict:
    rate = fx(ctx, base, quote)
    converted = _bounded(ctx, money(amount * rate), "converted amount", "amount")
    return {"converted_amount": converted, "currency": quote.upper(), "rate": rate,
            "amount": amount, "base": base.upper(), "as_of": ctx.world.now_iso}


@behaviour("finance.apply_rate")
def apply_rate(ctx: CallContext, amount: float, rate: float) -> dict:
    converted = _bounded(ctx, money(amount * rate), "converted amount", "amount")
    return {"converted_amount": converted, "rate": rate, "amount": amount}


# ---------------------------------------------------------------- arithmetic


@behaviour("finance.round")
def round_amount(ctx: CallContext, amount: float, decimals: int) -> dict:
    return {"rounded_amount": round(float(amount), int(decimals)), "decimal_places": decimals}


@behaviour("finance.pct_change")
def percent_change(ctx: CallContext, old: float, new: float) -> dict:
    if old <= 0:
        raise invalid(ctx, "old", f"{pname(ctx, 'old')} must be greater than zero")
    pct = pct_change(old, new)
    if pct > 1000:
        raise invalid(ctx, "new", f"a change of {pct:.0f} % exceeds the supported 1000 %")
    return {"percent_change": pct, "change": money(new - old),
            "direction": "up" if new > old else "down" if new < old else "flat"}


@behaviour("finance.position_value")
def position_value(ctx: CallContext, quantity: int, price: float) -> dict:
    value = _bounded(ctx, money(quantity * price), "market value",
                     "quantity")
    return {"market_value": value, "quantity": quantity, "price": price}


# ---------------------------------------------------------------- interest and loans


@behaviour("finance.compound")
def compound(ctx: CallContext, principal: float, rate: float, years: int) -> dict:
    """Monthly compounding, the convention of savings accounts and most calculators."""
    fv = money(principal * (1 + rate / 1200) ** (12 * years))
    _bounded(ctx, fv, "future value", "principal")
    return {"future_value": fv, "interest_earned": money(fv - principal),
            "principal": principal, "effective_annual_rate_pct":
            round(((1 + rate / 1200) ** 12 - 1) * 100, 4), "years": years}


@behaviour("finance.loan")
def loan(ctx: CallContext, principal: float, rate: float, months: int) -> dict:
    """Level instalments by the annuity formula the tools' docs give, rounded half-up
    to the cent (world edition 6, ``loan_payment_half_up``); before, rounded up, so
    462.4000289 was told as 462.41 (toolmaze-v8 c2-0078)."""
    if principal <= 0:
        raise invalid(ctx, "principal", f"{pname(ctx, 'principal')} must be greater than zero")
    exact = _instalment(principal, rate / 1200, months)
    half_up = ctx is None or ctx.world.has("loan_payment_half_up")
    payment = half_up_cents(exact) if half_up else ceil_cents(exact)
    total = _bounded(ctx, money(payment * months), "total repaid", "principal")
    return {"monthly_payment": payment, "total_paid": total,
            "total_interest": money(total - principal), "term_months": months,
            "principal": principal}


def _instalment(principal: float, r: float, months: int) -> float:
    """The exact level instalment at monthly rate ``r``.

    ``1 - (1 + r) ** -n`` cancels to 0 for a tiny rate (1e-300 % gives a division by
    zero, 1e-16 % a payment below principal / n), so the factor is computed as
    ``-expm1(-n * log1p(r))``, exact at every rate. A rate whose interest over the
    whole term is below a float's resolution is a zero-rate loan: principal / n.
    """
    if months * r < _NEGLIGIBLE_INTEREST:
        return principal / months
    return principal * r / -math.expm1(-months * math.log1p(r))


_NEGLIGIBLE_INTEREST = 1e-15  # n * r: interest below one part in 1e15 of the principal


# ---------------------------------------------------------------- tax


@behaviour("finance.vat")
def vat(ctx: CallContext, amount: float, country: str) -> dict:
    rate = ctx.world.markets.vat_rate(country)
    tax = money(amount * rate / 100)
    return {"gross_amount": money(amount + tax), "vat_amount": tax, "vat_rate_pct": rate,
            "country": country.upper(), "net_amount": amount}


@behaviour("finance.income_tax")
def income_tax(ctx: CallContext, income: float, country: str) -> dict:
    tax, currency = ctx.world.markets.income_tax(country, float(income))
    return {"tax": tax, "net_income": money(income - tax),
            "effective_rate_pct": round(100 * tax / income, 2) if income else 0.0,
            "currency": currency, "country": country.upper(), "income": income}
