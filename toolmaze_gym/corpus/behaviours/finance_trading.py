"""Brokerage: price alerts, market orders and portfolio valuation.

Orders fill at the current quote and change the portfolio's positions and cash,
so a later valuation reflects them; alerts are kept per episode, so a duplicate
is refused and a deleted alert cannot be deleted twice.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, behaviour, not_found
from toolmaze_gym.corpus.behaviours.finance_common import (
    company,
    conflict,
    counter,
    fx,
    invalid,
    money,
    pname,
    portfolio,
    positive,
    table,
)
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.markets import Portfolio

# ---------------------------------------------------------------- alerts


@behaviour("finance.alert.create")
def create_alert(ctx: CallContext, symbol: str, target_price: float) -> dict:
    c = company(ctx, symbol)
    target = money(positive(ctx, "target_price", target_price))
    alerts = table(ctx, "alerts")
    if any(a["symbol"] == c.symbol and a["target"] == target and a["active"]
           for a in alerts.values()):
        raise conflict(ctx, "target_price", "duplicate_alert",
                       f"an active alert for {c.symbol} at {target:.2f} already exists")
    price = ctx.world.markets.quote(c).price
    direction = "above" if target > price else "below"
    aid = make_id("ALR", 8, c.symbol, target, counter(ctx, "alert"))
    alerts[aid] = {"symbol": c.symbol, "target": target, "active": True}
    ctx.state.record(ctx.tool, {"action": "alert.create", "alert_id": aid, "symbol": c.symbol})
    return {"alert_id": aid, "status": "active", "symbol": c.symbol, "target_price": target,
            "direction": direction, "current_price": price, "currency": c.currency,
            "created_at": ctx.world.now_iso}


@behaviour("finance.alert.delete")
def delete_alert(ctx: CallContext, alert_id: str) -> dict:
    aid, alerts = alert_id.strip().upper(), table(ctx, "alerts")
    if aid not in alerts and (old := ctx.world.records.alerts.get(aid)) is not None:
        # an alert set before the episode: copied on first use, like one made in it
        alerts[aid] = {"symbol": old.symbol, "target": old.target_price, "active": True}
    alert = alerts.get(aid)
    if alert is None or not alert["active"]:
        raise not_found("active price alert", alert_id, pname(ctx, "alert_id"))
    alert["active"] = False
    ctx.state.record(ctx.tool, {"action": "alert.delete", "alert_id": aid})
    return {"alert_id": aid, "status": "deleted", "deleted": True, "symbol": alert["symbol"]}


# ---------------------------------------------------------------- orders and portfolios


def _positions(ctx: CallContext, pf: Portfolio) -> dict[str, int]:
    held = dict(pf.holdings)
    for sym, delta in table(ctx, "positions").get(pf.id, {}).items():
        held[sym] = held.get(sym, 0) + delta
    return {s: q for s, q in held.items() if q}


def _cash(ctx: CallContext, pf: Portfolio) -> float:
    return money(pf.cash + table(ctx, "cash").get(pf.id, 0.0))


@behaviour("finance.order.place")
def place_order(ctx: CallContext, portfolio_id: str, symbol: str, quantity: int,
                side: str = "buy") -> dict:
    pf = portfolio(ctx, portfolio_id)
    c = company(ctx, symbol)
    if quantity < 1:
        raise invalid(ctx, "quantity", f"{pname(ctx, 'quantity')} must be at least 1 share")
    price = ctx.world.markets.quote(c).price
    notional = money(quantity * price)
    settle = money(notional * fx(ctx, c.currency, pf.currency))
    if side == "buy" and settle > _cash(ctx, pf):
        raise conflict(ctx, "quantity", "insufficient_buying_power",
                       f"{settle:.2f} {pf.currency} needed, {_cash(ctx, pf):.2f} available")
    if side == "sell" and _positions(ctx, pf).get(c.symbol, 0) < quantity:
        raise conflict(ctx, "quantity", "insufficient_position",
                       f"portfolio {pf.id} holds {_positions(ctx, pf).get(c.symbol, 0)} "
                       f"shares of {c.symbol}")
    sign = 1 if side == "buy" else -1
    pos = table(ctx, "positions").setdefault(pf.id, {})
    pos[c.symbol] = pos.get(c.symbol, 0) + sign * quantity
    cash = table(ctx, "cash")
    cash[pf.id] = money(cash.get(pf.id, 0.0) - sign * settle)
    oid = make_id("ORD", 10, pf.id, c.symbol, quantity, side, counter(ctx, "order"))
    ctx.state.record(ctx.tool, {"action": f"order.{side}", "order_id": oid, "symbol": c.symbol,
                                "quantity": quantity})
    return {"order_id": oid, "status": "filled", "side": side, "symbol": c.symbol,
            "quantity": quantity, "total": notional, "fill_price": price,
            "currency": c.currency, "settlement_amount": settle,
            "settlement_currency": pf.currency, "filled_at": ctx.world.now_iso}


def _valuation(ctx: CallContext, pf: Portfolio) -> dict[str, Any]:
    m = ctx.world.markets
    holdings = 0.0
    positions = _positions(ctx, pf)
    for sym, qty in positions.items():
        c = m.company(sym)
        if c is not None:
            holdings += money(qty * m.quote(c).price * fx(ctx, c.currency, pf.currency))
    holdings, cash = money(holdings), _cash(ctx, pf)
    return {"holdings_value": holdings, "cash_balance": cash, "total_value": money(holdings + cash),
            "_positions": len(positions)}


@behaviour("finance.portfolio_value")
def portfolio_value(ctx: CallContext, portfolio_id: str) -> dict:
    pf = portfolio(ctx, portfolio_id)
    val = _valuation(ctx, pf)
    n = val.pop("_positions")
    return {"portfolio_id": pf.id, "name": pf.name, **val,
            "currency": pf.currency, "positions": n,
            "as_of": ctx.world.now_iso}
