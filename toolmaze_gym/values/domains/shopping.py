"""Shopping types: product names and identifiers, coupons, carts, orders and parcels.

A shopper names a product, a coupon code, a saved cart or an order number (carts
and orders from before the episode are world facts); the storefront product id
and the warehouse SKU come from look-ups and resolve for every catalogue entry.
Returns and reviews exist only once an Action created them.
"""

from __future__ import annotations

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import _entity_swap, enum_type, id_type, number_type, pattern_type

enum_type("product_name", lambda w: w.commerce.product_names,
          "a product name as listed in the store catalogue, e.g. 'Nordlys Studio Blender'")
enum_type("coupon_code", lambda w: w.commerce.coupon_codes,
          "a store coupon code, e.g. 'SAVE10'", pattern="^[A-Za-z0-9]{3,20}$")

pattern_type("product_id", r"^PRD-[0-9]{6}$", "storefront product id, e.g. 'PRD-107919'",
             lambda world, key: hashing.choice(world.commerce.products, "pid", key).product_id,
             normalise=str.upper, literal=True)  # shoppers paste ids from product pages
pattern_type("sku", r"^[A-Z]{3}-[A-Z]{3}-[0-9]{4}$",
             "warehouse stock-keeping unit: brand, product type, number, e.g. 'NRD-BLN-1042'",
             lambda world, key: hashing.choice(world.commerce.products, "sku", key).sku,
             normalise=str.upper, literal=True)
pattern_type("tracking_number", r"^(1Z[0-9A-Z]{16}|[0-9]{12}|[0-9]{10})$",
             "carrier tracking number: UPS 1Z…, FedEx 12 digits or DHL 10 digits",
             lambda world, key: world.commerce.sample_tracking_number(key), normalise=str.upper)

pattern_type("cart_id", r"^CART-[A-Z0-9]{10}$", "shopping cart id, e.g. 'CART-7Q2X9ZLM4K'",
             lambda world, key: world.commerce.sample_cart_id(key), literal=True,
             normalise=lambda v: str(v).strip().upper())
pattern_type("shop_order_id", r"^SO-[A-Z0-9]{8}$", "store order number, e.g. 'SO-7Q2X9ZLM'",
             lambda world, key: world.commerce.sample_order_id(key), literal=True,
             normalise=lambda v: str(v).strip().upper(),
             corruptions=(_entity_swap(lambda w: list(w.commerce.orders)),))
id_type("return_id", "RMA", 8, "return merchandise authorisation id, e.g. RMA-7Q2X9ZLM")
id_type("review_id", "REV", 8, "product review id, e.g. REV-7Q2X9ZLM")

enum_type("order_status", lambda w: ("open", "confirmed", "cancelled", "return_requested",
                                     "paid", "pending_refund", "refunded", "published",
                                     "in transit", "out for delivery", "delivered"),
          "state of a cart, order, return or review (a shipped order's is its parcel's)",
          literal=False)
enum_type("shipment_status", lambda w: ("label created", "in transit", "out for delivery",
                                        "delivered", "cancelled", "returned"),
          "carrier state of a parcel", literal=False)

number_type("weight_kg", 0, 10000, "a weight in kilograms, never negative",
            sample_lo=0.1, sample_hi=30)
number_type("price_factor", 0, 1,
            "share of the price still payable after a discount, a fraction 0–1",
            sample_lo=0.6, sample_hi=0.95)
