"""Catalogue behaviours: product search, SKU look-up, prices, stock levels and reviews.

The storefront (product ids) and the warehouse (SKUs) are two views of one
catalogue, so a price or stock level read through either agrees; stock and
review figures include what this episode's orders and reviews changed.
"""

from __future__ import annotations

from datetime import timedelta

from toolmaze_gym import hashing
from toolmaze_gym.corpus.behaviours import CallContext, behaviour
from toolmaze_gym.corpus.behaviours.shopping_common import (
    available,
    by_id,
    by_name,
    by_sku,
    review_stats,
)
from toolmaze_gym.world.commerce import Product


def _card(ctx: CallContext, p: Product) -> dict:
    avg, count = review_stats(ctx, p)
    return {"product_id": p.product_id, "sku": p.sku, "name": p.name, "brand": p.brand,
            "category": p.category, "price": p.price, "currency": ctx.world.commerce.currency,
            "rating": avg, "review_count": count}


@behaviour("shop.search")
def search(ctx: CallContext, query: str) -> dict:
    p = by_name(ctx, query)
    noun = p.name.split(" ", 2)[2]
    return {**_card(ctx, p), "results": ctx.world.commerce.count_named_like(noun)}


@behaviour("shop.lookup_sku")
def lookup_sku(ctx: CallContext, name: str) -> dict:
    p = by_name(ctx, name, "name")
    return {**_card(ctx, p), "warehouse": p.warehouse}


def _price(ctx: CallContext, p: Product) -> dict:
    markup = hashing.uniform(1.1, 1.4, *ctx.world.commerce.key("compare_at", p.sku))
    return {"product_id": p.product_id, "sku": p.sku, "price": p.price,
            "compare_at_price": round(round(p.price * markup) - 0.01, 2),
            "currency": ctx.world.commerce.currency, "as_of": ctx.world.now_iso,
            "valid_until": (ctx.world.now + timedelta(hours=24)).strftime("%Y-%m-%dT%H:%M:%SZ")}


@behaviour("shop.price")
def price(ctx: CallContext, product_id: str) -> dict:
    return _price(ctx, by_id(ctx, product_id))


@behaviour("shop.price_by_sku")
def price_by_sku(ctx: CallContext, sku: str) -> dict:
    return _price(ctx, by_sku(ctx, sku))


def _stock(ctx: CallContext, p: Product) -> dict:
    n = available(ctx, p)
    return {"product_id": p.product_id, "sku": p.sku, "available": n, "in_stock": n > 0,
            "warehouse": p.warehouse, "updated_at": ctx.world.now_iso}


@behaviour("shop.stock")
def stock(ctx: CallContext, sku: str) -> dict:
    return _stock(ctx, by_sku(ctx, sku))


@behaviour("shop.stock_by_product")
def stock_by_product(ctx: CallContext, product_id: str) -> dict:
    return _stock(ctx, by_id(ctx, product_id))


def _reviews(ctx: CallContext, p: Product) -> dict:
    return {**_card(ctx, p), "top_review": p.top_review}


@behaviour("shop.reviews")
def reviews(ctx: CallContext, product_id: str) -> dict:
    return _reviews(ctx, by_id(ctx, product_id))


@behaviour("shop.reviews_by_sku")
def reviews_by_sku(ctx: CallContext, sku: str) -> dict:
    return _reviews(ctx, by_sku(ctx, sku))
