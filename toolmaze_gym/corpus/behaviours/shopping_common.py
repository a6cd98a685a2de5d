"""Helpers shared by the Shopping behaviours: product look-ups, stock and state tables.

Every Shopping tool keeps what it changes under a ``shop.*`` namespace of the
episode state. Stock is the catalogue's opening stock less what this episode's
orders took plus what cancellations put back, so it can never go below zero: an
order for more than is available is refused with 409.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, not_found
from toolmaze_gym.values.catalog import make_id as make_id  # re-exported
from toolmaze_gym.world.commerce import Product


def table(ctx: CallContext, name: str) -> dict[str, Any]:
    return ctx.state.table(f"shop.{name}")


def counter(ctx: CallContext, name: str) -> int:
    return ctx.state.counter(f"shop.{name}")


def by_id(ctx: CallContext, product_id: str, field: str = "product_id") -> Product:
    p = ctx.world.commerce.by_id(product_id)
    if p is None:
        raise not_found("product", product_id, field)
    return p


def by_sku(ctx: CallContext, sku: str, field: str = "sku") -> Product:
    p = ctx.world.commerce.by_sku(sku)
    if p is None:
        raise not_found("SKU", sku, field)
    return p


def by_name(ctx: CallContext, name: str, field: str = "query") -> Product:
    p = ctx.world.commerce.by_name(name)
    if p is None:
        raise not_found("product", name, field)
    return p


def available(ctx: CallContext, p: Product) -> int:
    return p.initial_stock - table(ctx, "units_out").get(p.sku, 0)


def take_stock(ctx: CallContext, lines: list[tuple[Product, int]]) -> None:
    """All or nothing: every line must be in stock before any unit leaves."""
    for p, qty in lines:
        if qty > available(ctx, p):
            raise ToolError(409, "insufficient_stock",
                            f"only {available(ctx, p)} units of {p.name} in stock", "quantity")
    out = table(ctx, "units_out")
    for p, qty in lines:
        out[p.sku] = out.get(p.sku, 0) + qty


def put_back(ctx: CallContext, lines: list[tuple[Product, int]]) -> None:
    """Cancelled units return to stock, including those of orders placed before the episode."""
    out = table(ctx, "units_out")
    for p, qty in lines:
        out[p.sku] = out.get(p.sku, 0) - qty


def positive(qty: int, field: str = "quantity") -> int:
    if qty < 1:
        raise ToolError(422, "invalid_parameter", f"{field} must be at least 1", field)
    if qty > 100:
        raise ToolError(422, "invalid_parameter", f"{field} is limited to 100 per order", field)
    return int(qty)


def review_stats(ctx: CallContext, p: Product) -> tuple[float, int]:
    """Average rating and count, including reviews posted in this episode."""
    posted = table(ctx, "reviews").get(p.product_id, [])
    count = p.review_count + len(posted)
    avg = (p.rating * p.review_count + sum(posted)) / count
    return round(avg, 2), count
