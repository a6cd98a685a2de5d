"""World edition 6: the toolmaze-v8 blind review's shopping oddities (issue 28), each
as edition 5 answers it (toolmaze-v8 replays on it) and gone on edition 6: an order that
charges another shipping figure than the shipping-rate tools quote for it (c4-0072's
buy_now charged 4.99 against a 6.25 quote, c4-0001's submit_order 0.0 against 21.09),
and Seattle's sales tax at 10.25 % (10.35 % since April 2025; c4-0072, c3-0057)."""

from __future__ import annotations

import pytest

from tests.corpus.helpers import call
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world

V8, V9 = 5, 6
SEEDS = (0, 3, 11, 42)
# (order tool, its product, quantity, buyer, city and discount arguments, the shipping field)
ORDER_TOOLS = (
    ("buy_now", "product_id", "qty", "buyer_email", "ship_to_city", "discount_pct", "shipping"),
    ("submit_order", "item_id", "count", "customer_email", "shipping_city", "discount_percent",
     "shipping_total"),
    ("place_order", "product_id", "quantity", "email", "ship_to_city", "discount_pct",
     "shipping_fee"),
)


def _orders(edition: int, seed: int) -> list[tuple[float, float, float]]:
    """(charged, calculate_shipping_cost's quote, estimate_shipping_rate's quote) of a
    spread of one-line orders: cheap and dear products, one to four units, to the
    buyer's own city and to one abroad, with and without a discount."""
    world = get_world(seed, edition)
    sim = Simulator(world=world)
    out = []
    for i in range(0, len(world.commerce.products), 37):
        p = world.commerce.products[i]
        tool, pid, qty, buyer, city_arg, disc, field = ORDER_TOOLS[i % len(ORDER_TOOLS)]
        n = 1 + i % 4
        city = world.geo.city_names[(i * 7) % len(world.geo.city_names)]
        st = EpisodeState()
        order = call(sim, st, tool, **{pid: p.product_id, qty: n,
                                        buyer: world.people.emails[i % 9], city_arg: city,
                                        disc: 15 if i % 2 else 0})
        quote = call(sim, st, "calculate_shipping_cost", product_id=p.product_id,
                     quantity=n, city=city)
        shippo = call(sim, st, "estimate_shipping_rate", product_id=p.product_id, qty=n,
                      destination_city=city)
        out.append((order[field], quote["cost"], shippo["rate"]))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_an_order_charges_the_shipping_quoted_for_it(seed):
    rows = _orders(V9, seed)
    assert len(rows) >= 10
    assert all(charged == quoted == shippo for charged, quoted, shippo in rows), rows


def test_edition_5_charged_a_flat_fee_beside_the_quote():
    """As toolmaze-v8 was played: 4.99 under 50, 0 over it, whatever the quote."""
    rows = _orders(V8, 0)
    assert {charged for charged, _, _ in rows} <= {0.0, 4.99}
    assert sum(charged != quoted for charged, quoted, _ in rows) > len(rows) // 2


def test_a_cart_of_two_products_charges_both_lines_quotes():
    world = get_world(7, V9)
    sim, st = Simulator(world=world), EpisodeState()
    a, b = world.commerce.products[3], world.commerce.products[4]
    buyer = world.people.people[1]
    cart = call(sim, st, "create_cart", product_id=a.product_id, quantity=2)
    call(sim, st, "add_to_cart", cart_id=cart["cart_id"], product_id=b.product_id, quantity=3)
    order = call(sim, st, "checkout_cart", cart_id=cart["cart_id"], email=buyer.email)
    quotes = [call(sim, st, "calculate_shipping_cost", product_id=p.product_id, quantity=n,
                   city=buyer.city)["cost"] for p, n in ((a, 2), (b, 3))]
    assert order["shipping_fee"] == round(sum(quotes), 2)
    assert order["total"] == round(order["subtotal"] + order["shipping_fee"], 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_order_placed_before_the_episode_charged_its_quote(seed):
    world = get_world(seed, V9)
    sim, st = Simulator(world=world), EpisodeState()
    past = [*world.commerce.orders.values()][:6] + [*world.commerce.delivered_orders.values()][:6]
    for o in past:
        (pid, n), = o.lines
        status = call(sim, st, "get_order_status", order_id=o.order_id)
        quote = call(sim, st, "calculate_shipping_cost", product_id=pid, quantity=n,
                     city=o.destination)
        goods = round(world.commerce.by_id(pid).price * n, 2)
        assert status["total"] == round(goods + quote["cost"], 2), o


def _seattle_tax(edition: int) -> dict:
    sim = Simulator(world=get_world(0, edition))
    return call(sim, EpisodeState(), "calculate_sales_tax", amount=22.08, city="Seattle")


def test_seattle_sales_tax_is_the_rate_since_april_2025():
    """c4-0072's 22.08 USD of smart plugs: 24.34 with 10.25 % on edition 5, 24.37 now."""
    old, new = _seattle_tax(V8), _seattle_tax(V9)
    assert (old["tax_rate"], old["total"]) == (10.25, 24.34)
    assert (new["tax_rate"], new["total"]) == (10.35, 24.37)
    chicago = call(Simulator(world=get_world(0, V9)), EpisodeState(), "calculate_sales_tax",
                   amount=100.0, city="Chicago")
    assert chicago["tax_rate"] == 10.25  # no other city's rate moved
