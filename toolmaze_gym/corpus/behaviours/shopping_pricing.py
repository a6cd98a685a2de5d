"""Pricing calculators: percentage discounts, coupons, sales tax / VAT and shipping rates.

Every discount is price × (1 − pct/100), rounded to cents once, so the three
discount providers and the coupon path agree to the cent.
"""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.shopping_common import by_id, positive


@behaviour("shop.discount")
def discount(ctx: CallContext, price: float, percent: float) -> dict:
    if not 0 <= percent <= 100:
        raise ToolError(422, "invalid_parameter", "percent must be between 0 and 100", "percent")
    off = round(price * percent / 100, 2)
    return {"discounted_price": round(price - off, 2), "discount_amount": off, "price": price,
            "percent": percent, "price_factor": round(1 - percent / 100, 4)}


@behaviour("shop.coupon")
def coupon(ctx: CallContext, price: float, coupon_code: str) -> dict:
    pct = ctx.world.commerce.coupon_pct(coupon_code)
    if pct is None:
        raise not_found("coupon", coupon_code, "coupon_code")
    return {**discount(ctx, price, pct), "coupon_code": coupon_code.strip().upper()}


def _city(ctx: CallContext, city: str):
    c = ctx.world.geo.city(city)
    if c is None:
        raise not_found("city", city, "city")
    return c


@behaviour("shop.tax")
def tax(ctx: CallContext, amount: float, city: str) -> dict:
    c = _city(ctx, city)
    rate = ctx.world.commerce.tax_rate(c)
    due = round(amount * rate / 100, 2)
    return {"total": round(amount + due, 2), "tax_amount": due, "amount": amount,
            "tax_rate": rate, "city": c.name, "tax_label": ctx.world.commerce.tax_label(c)}


@behaviour("shop.shipping_rate")
def shipping_rate(ctx: CallContext, product_id: str, quantity: int, city: str) -> dict:
    p, qty, dest = by_id(ctx, product_id), positive(quantity), _city(ctx, city)
    cost, days, kg = ctx.world.commerce.shipping_quote(p, qty, dest)
    days = ctx.world.commerce.delivery_days(days)  # no Sunday delivery (edition 7)
    return {"cost": cost, "currency": ctx.world.commerce.currency, "transit_days": days,
            "estimated_delivery": ctx.world.commerce.eta_date(days), "billable_weight_kg": kg,
            "unit_weight_kg": p.weight_kg, "quantity": qty, "city": dest.name,
            "origin": p.warehouse, "product_id": p.product_id, "service": "UPS Ground"
            if dest.country_code == ctx.world.geo.city(p.warehouse).country_code
            else "UPS Worldwide Expedited"}
