"""Calculators and unit conversion (General domain).

Results are rounded to cents (money) or tenths (temperatures) exactly once, so
alternative providers and chained calls agree to the displayed precision.
"""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import CallContext, behaviour


@behaviour("calc.percentage_of")
def percentage_of(ctx: CallContext, amount: float, percent: float) -> dict:
    factor = percent / 100
    return {"result": round(amount * factor, 2), "factor": factor, "amount": amount,
            "percent": percent}


@behaviour("calc.line_total")
def line_total(ctx: CallContext, amount: float, quantity: int) -> dict:
    return {"total": round(amount * quantity, 2), "amount": amount, "quantity": quantity}


@behaviour("units.c_to_f")
def c_to_f(ctx: CallContext, celsius: float) -> dict:
    return {"celsius": celsius, "fahrenheit": round(celsius * 9 / 5 + 32, 1),
            "kelvin": round(celsius + 273.15, 2)}


@behaviour("units.f_to_c")
def f_to_c(ctx: CallContext, fahrenheit: float) -> dict:
    return {"fahrenheit": fahrenheit, "celsius": round((fahrenheit - 32) * 5 / 9, 1)}
