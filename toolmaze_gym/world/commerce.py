"""Commerce facts: a procedurally built catalogue, coupons, tax rates and carrier tracking.

One online store (prices in its store currency) sells a few hundred products built
from brand, model and product-type word lists. Each product has two identifiers, as
real stacks do: the storefront product id and the warehouse SKU; both resolve to
the same product, so catalogue and ERP-style tools agree. The carriers know the
parcels of the store's orders and a few parcels on their way to people of the
directory (UPS, FedEx and DHL numbers); any other number is not found, as on a
carrier's tracking page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts, load_data
from toolmaze_gym.world.geo import City

CATALOGUE_SIZE = 420
PAST_ORDERS = 150
DELIVERED_ORDERS = 30  # orders whose parcel arrived before the episode (``delivered_orders``)
INBOUND_PARCELS = 40  # parcels other senders ship, known to the carriers' tracking
SAVED_CARTS = 60
ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
TRACKING_RE = re.compile(r"^(1Z[0-9A-Z]{16}|[0-9]{12}|[0-9]{10})$")
SUNDAY = 6  # date.weekday() of a Sunday, when carriers do not deliver
SHIPMENT_STATES = ("label created", "in transit", "in transit", "out for delivery", "delivered")
MEMO_LIMIT = 100_000  # entries per look-up memo; cleared when full (agents can send any id)


@dataclass(frozen=True)
class Product:
    product_id: str
    sku: str
    name: str
    brand: str
    category: str
    price: float  # store currency
    weight_kg: float
    warehouse: str  # city the product ships from
    initial_stock: int
    rating: float
    review_count: int
    top_review: str


@dataclass(frozen=True)
class Shipment:
    tracking_number: str
    carrier: str
    status: str
    origin: str
    destination: str
    last_location: str
    eta_days: int  # days from today until the estimated delivery


@dataclass(frozen=True)
class SavedCart:
    """A cart a shopper filled in an earlier session and has not checked out."""

    cart_id: str
    email: str
    lines: tuple[tuple[str, int], ...]  # (product id, quantity)


@dataclass(frozen=True)
class PastOrder:
    """An order someone in the directory placed shortly before the episode."""

    order_id: str
    email: str
    lines: tuple[tuple[str, int], ...]  # (product id, quantity)
    placed_at: str
    destination: str
    days_ago: int
    transit_days: int
    tracking_number: str
    delivered: bool = False  # its parcel arrived before the episode (Commerce.delivered_orders)

    @property
    def eta_days(self) -> int:
        """Days from today to the delivery date: negative once it was delivered."""
        if self.delivered:
            return self.transit_days - self.days_ago
        return max(1, self.transit_days - self.days_ago)


def doubles_word(name: str) -> bool:
    """Whether a name says one word twice ("Granite Smart Smart Plug": the adjective
    drawn is the product type's own first word), which no shop would print."""
    words = [w.lower() for w in name.split()]
    return len(set(words)) < len(words)


def carrier_of(tracking_number: str) -> str:
    if tracking_number.startswith("1Z"):
        return "UPS"
    return "FedEx" if len(tracking_number) == 12 else "DHL Express"


class Commerce(Facts):
    def __init__(self, world) -> None:
        super().__init__(world)
        self.data = load_data("commerce.json")
        self.currency = self.data["store_currency"]
        self.products = self._build_catalogue()
        self._by_id = {p.product_id: p for p in self.products}
        self._by_sku = {p.sku: p for p in self.products}
        self._by_name = {p.name.lower(): p for p in self.products}
        self.product_names = [p.name for p in self.products]
        self.coupons = {code: float(pct) for code, pct in self.data["coupons"]}
        self.coupon_codes = list(self.coupons)
        self._shipments: dict[str, Shipment | None] = {}
        self._eta_dates: dict[int, str] = {}
        self._suffix_counts: dict[str, int] = {}
        # Scratch memo for pure facts the behaviours derive; values are read-only.
        self.memo: dict[tuple, object] = {}

    def remember(self, key: tuple, value: object) -> object:
        """Store a pure derived fact in ``memo`` (bounded: cleared when full)."""
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = value
        return value

    def _build_catalogue(self) -> list[Product]:
        d = self.data
        seen: set[str] = set()
        out: list[Product] = []
        attempt = 0
        while len(out) < CATALOGUE_SIZE:
            k = self.key("product", attempt)
            attempt += 1
            brand, bcode, tier = hashing.choice(d["brands"], *k, "brand")
            adj = hashing.choice(d["adjectives"], *k, "adj")
            noun, ncode, category, lo, hi, kg = hashing.choice(d["nouns"], *k, "noun")
            name = f"{brand} {adj} {noun}"
            if name in seen or (doubles_word(name) and self.world.has("no_doubled_words")):
                continue
            seen.add(name)
            i = len(out)
            price = max(lo, round(hashing.uniform(lo, hi, *k, "price") * tier)) - 0.01
            out.append(Product(
                product_id=f"PRD-{100000 + (i * 7919) % 900000}",
                sku=f"{bcode}-{ncode}-{1000 + i}", name=name, brand=brand, category=category,
                price=round(price, 2),
                weight_kg=round(kg * hashing.uniform(0.8, 1.25, *k, "kg"), 2),
                warehouse=hashing.choice(d["warehouses"], *k, "wh"),
                initial_stock=hashing.randint(20, 400, *k, "stock"),
                rating=round(hashing.uniform(3.1, 4.9, *k, "rating"), 1),
                review_count=hashing.randint(3, 2500, *k, "reviews"),
                top_review=hashing.choice(d["review_snippets"], *k, "snippet")))
        return out

    # -- lookups ------------------------------------------------------------

    def by_id(self, product_id: str) -> Product | None:
        return self._by_id.get(product_id.strip().upper())

    def by_sku(self, sku: str) -> Product | None:
        return self._by_sku.get(sku.strip().upper())

    def by_name(self, name: str) -> Product | None:
        return self._by_name.get(" ".join(name.split()).lower())

    def count_named_like(self, suffix: str) -> int:
        """How many catalogue products have a name ending in ``suffix``."""
        n = self._suffix_counts.get(suffix)
        if n is None:
            n = sum(1 for q in self.products if q.name.endswith(suffix))
            if len(self._suffix_counts) >= MEMO_LIMIT:
                self._suffix_counts.clear()
            self._suffix_counts[suffix] = n
        return n

    def coupon_pct(self, code: str) -> float | None:
        return self.coupons.get(code.strip().upper())

    # -- tax and shipping -----------------------------------------------------

    def tax_rate(self, city: City) -> float:
        """Percent of tax due on a sale shipped to ``city``: a city's own rate as the
        world's edition has it (a rate that changed is a world change,
        ``tax_city_changes``), else its country's."""
        country = self.data["tax_country"][city.country_code]
        for change, rates in self.data["tax_city_changes"].items():
            if city.name in rates and self.world.has(change):
                return float(rates[city.name])
        return float(self.data["tax_city"].get(city.name, country))

    def tax_label(self, city: City) -> str:
        return self.data["tax_label"].get(city.country_code, "VAT")

    def shipping_quote(self, product: Product, quantity: int,
                       dest: City) -> tuple[float, int, float]:
        """(cost, transit days, billable kg) for ``quantity`` units to ``dest``."""
        geo = self.world.geo
        origin = geo.city(product.warehouse)
        km = geo.distance_km(origin, dest)
        kg = round(product.weight_kg * quantity, 2)
        s = self.data["shipping"]
        if dest.country_code == origin.country_code:
            cost, days = s["domestic_base"] + s["domestic_per_kg"] * kg, 2 + min(4, int(km // 1500))
        else:
            cost, days = s["intl_base"] + s["intl_per_kg"] * kg, 5 + min(6, int(km // 4000))
        return round(cost, 2), days, kg

    def order_shipping(self, lines: Sequence[tuple[Product, int]], dest: City,
                       subtotal: float) -> float:
        """The shipping an order of ``lines`` to ``dest`` charges. Since
        ``shipping_as_quoted`` it is what the shipping-rate tools quote, line by line
        (one figure for one order: toolmaze-v8 c4-0072 charged 4.99 against a 6.25
        quote); before, a flat fee under ``free_over`` of ``subtotal`` and 0 over it."""
        if self.world.has("shipping_as_quoted"):
            return round(sum(self.shipping_quote(p, q, dest)[0] for p, q in lines), 2)
        s = self.data["shipping"]
        return 0.0 if subtotal >= s["free_over"] else s["flat_fee"]

    # -- orders placed before the episode -----------------------------------

    @cached_property
    def orders(self) -> dict[str, PastOrder]:
        """Orders placed in the last few days, their parcels still on the way."""
        return self._past_orders("past-order", PAST_ORDERS, delivered=False)

    @cached_property
    def delivered_orders(self) -> dict[str, PastOrder]:
        """Orders whose parcel arrived one to five days before the episode: the ones a
        review of a delivered product or a return of a broken one is about."""
        return self._past_orders("delivered-order", DELIVERED_ORDERS, delivered=True)

    def order(self, order_id: str) -> PastOrder | None:
        oid = str(order_id).strip().upper()
        return self.orders.get(oid) or self.delivered_orders.get(oid)

    def _past_orders(self, kind: str, n: int, delivered: bool) -> dict[str, PastOrder]:
        out: dict[str, PastOrder] = {}
        geo = self.world.geo
        for i in range(n):
            k = self.key(kind, i)
            who = hashing.choice(self.world.people.people, *k, "who")
            p = hashing.choice(self.products, *k, "product")
            qty = hashing.randint(1, 3, *k, "qty")
            oid = "SO-" + hashing.token(ID_ALPHABET, 8, *k, "id")
            _, transit, _ = self.shipping_quote(p, qty, geo.city(who.city))
            days_ago = (transit + hashing.randint(1, 5, *k, "ago") if delivered
                        else hashing.randint(0, 3, *k, "ago"))
            placed = self.world.now - timedelta(days=days_ago, hours=hashing.randint(1, 8, *k))
            out[oid] = PastOrder(oid, who.email, ((p.product_id, qty),),
                                 placed.strftime("%Y-%m-%dT%H:%M:%SZ"), who.city, days_ago,
                                 transit, self.new_tracking_number("order", oid), delivered)
        return out

    @cached_property
    def carts(self) -> dict[str, SavedCart]:
        out: dict[str, SavedCart] = {}
        for i in range(SAVED_CARTS):
            k = self.key("saved-cart", i)
            who = hashing.choice(self.world.people.people, *k, "who")
            picks = hashing.sample(self.products, hashing.randint(1, 2, *k, "n"), *k, "items")
            cid = "CART-" + hashing.token(ID_ALPHABET, 10, *k, "id")
            out[cid] = SavedCart(cid, who.email, tuple(
                (p.product_id, hashing.randint(1, 2, *k, "qty", j)) for j, p in enumerate(picks)))
        return out

    def sample_cart_id(self, key: str) -> str:
        return hashing.choice(list(self.carts), "cart", key)

    @cached_property
    def _orders_by_tracking(self) -> dict[str, PastOrder]:
        return {o.tracking_number: o for o in self.orders.values()}

    @cached_property
    def _all_by_tracking(self) -> dict[str, PastOrder]:
        return {o.tracking_number: o
                for o in (*self.orders.values(), *self.delivered_orders.values())}

    def sample_order_id(self, key: str) -> str:
        return hashing.choice(list(self.orders), "order", key)

    # -- carrier tracking -----------------------------------------------------

    @cached_property
    def _inbound(self) -> frozenset[str]:
        return frozenset(self._draw_tracking_number(f"inbound-{i}")
                         for i in range(INBOUND_PARCELS))

    def shipment(self, tracking_number: str) -> Shipment | None:
        """Tracking facts for a parcel the store did not ship in this episode, or None
        for a number no carrier issued."""
        try:
            return self._shipments[tracking_number]
        except KeyError:
            s = self._shipment(tracking_number)
            if len(self._shipments) >= MEMO_LIMIT:
                self._shipments.clear()
            self._shipments[tracking_number] = s
            return s

    def _shipment(self, tracking_number: str) -> Shipment | None:
        tn = tracking_number.strip().upper()
        if not TRACKING_RE.fullmatch(tn):
            return None
        mine = self._all_by_tracking.get(tn)
        if mine is None and tn not in self._inbound:
            return None
        if mine is not None:
            origin = self.by_id(mine.lines[0][0]).warehouse
            if mine.delivered:
                return Shipment(tn, "UPS", "delivered", origin, mine.destination,
                                mine.destination, mine.eta_days)
            status = "in transit" if mine.days_ago else "label created"
            hub = hashing.choice(self.world.geo.city_names, *self.key("hub", tn))
            return Shipment(tn, "UPS", status, origin, mine.destination,
                            hub if mine.days_ago else origin, mine.eta_days)
        k = self.key("parcel", tn)
        cities = self.world.geo.city_names
        status = hashing.choice(SHIPMENT_STATES, *k, "status")
        origin, dest = hashing.sample(cities, 2, *k, "route")
        last = {"label created": origin, "delivered": dest, "out for delivery": dest}.get(
            status, hashing.choice(cities, *k, "hub"))
        eta = 0 if status in ("delivered", "out for delivery") else hashing.randint(1, 6, *k, "eta")
        return Shipment(tn, carrier_of(tn), status, origin, dest, last, eta)

    def new_tracking_number(self, *parts: object) -> str:
        """A UPS-style number for a parcel the store ships."""
        return "1Z" + hashing.token("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ", 16, *self.key(*parts))

    def sample_tracking_number(self, key: str) -> str:
        """A number the carriers know: a store order's parcel or an inbound one."""
        known = sorted(self._inbound | set(self._orders_by_tracking))
        return hashing.choice(known, "tracking", key)

    def _draw_tracking_number(self, key: str) -> str:
        kind = hashing.randint(0, 2, "tn-kind", key)
        if kind == 0:
            return self.new_tracking_number("sample", key)
        digits = 12 if kind == 1 else 10
        return str(hashing.randint(10 ** (digits - 1), 10 ** digits - 1, "tn", key))

    def delivery_days(self, days: int) -> int:
        """Days from today to a delivery ``days`` ahead on a day carriers deliver: from
        world edition 7 (``no_sunday_delivery``) a parcel due on a Sunday comes on the
        Monday (toolmaze-v9 c2-0088 told a delivery on Sunday 23 August)."""
        if days > 0 and self.world.has("no_sunday_delivery") and \
                (self.world.now.date() + timedelta(days=days)).weekday() == SUNDAY:
            return days + 1
        return days

    def eta_date(self, days: int) -> str:
        out = self._eta_dates.get(days)
        if out is None:
            out = (self.world.now.date() + timedelta(days=self.delivery_days(days))).isoformat()
            if type(days) is int and len(self._eta_dates) < MEMO_LIMIT:
                self._eta_dates[days] = out
        return out
