"""Invoices: create a draft, add lines, send, mark paid, void.

An invoice lives in the episode state, so adding a line changes the total a later
send reports, and a voided invoice can no longer be sent or paid. Tax is the VAT
rate of the customer's country (from the people directory); totals always equal
subtotal + tax and the subtotal equals the sum of the lines.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, behaviour, not_found
from toolmaze_gym.corpus.behaviours.finance_common import (
    checkout_url,
    conflict,
    counter,
    invalid,
    money,
    pname,
    positive,
    table,
    text,
)
from toolmaze_gym.values.catalog import make_id

PAYMENT_TERMS_DAYS = 30


@lru_cache(maxsize=64)
def _due_date(now: datetime) -> str:
    return (now.date() + timedelta(days=PAYMENT_TERMS_DAYS)).isoformat()


def _tax_rate(ctx: CallContext, email: str) -> float:
    person = ctx.world.people.by_email(email)
    city = ctx.world.geo.city(person.city) if person else None
    return ctx.world.markets.vat_rate(city.country_code) if city else 0.0


def _totals(inv: dict[str, Any]) -> dict[str, Any]:
    subtotal = money(sum(line["total"] for line in inv["lines"]))
    tax = money(subtotal * inv["tax_rate"] / 100)
    return {"invoice_id": inv["id"], "status": inv["status"], "customer_email": inv["email"],
            "total": money(subtotal + tax), "subtotal": subtotal, "tax": tax,
            "tax_rate_pct": inv["tax_rate"], "currency": inv["currency"],
            "due_date": inv["due_date"], "line_count": len(inv["lines"])}


def _invoice(ctx: CallContext, invoice_id: str) -> dict[str, Any]:
    """An invoice of this episode, or an open one sent before it (copied on first use)."""
    iid, rows = invoice_id.strip().upper(), table(ctx, "invoices")
    if iid not in rows and (old := ctx.world.records.invoices.get(iid)) is not None:
        rows[iid] = {"id": iid, "email": old.customer_email, "currency": old.currency,
                     "status": "open", "purpose": old.description,
                     "tax_rate": _tax_rate(ctx, old.customer_email), "due_date": old.due_date,
                     "lines": [{"description": old.description, "quantity": 1,
                                "unit_price": old.amount, "total": old.amount}]}
    inv = rows.get(iid)
    if inv is None:
        raise not_found("invoice", invoice_id, pname(ctx, "invoice_id"))
    return inv


def _require(ctx: CallContext, inv: dict[str, Any], allowed: tuple[str, ...], verb: str) -> None:
    if inv["status"] not in allowed:
        raise conflict(ctx, "invoice_id", "invalid_invoice_state",
                       f"invoice {inv['id']} is {inv['status']} and cannot be {verb}")


@behaviour("finance.invoice.create")
def create_invoice(ctx: CallContext, email: str, description: str, amount: float,
                   currency: str, tax_country: str = "") -> dict:
    """The line is net; the VAT the tool adds is the one its doc states: ``tax_country``'s
    standard rate when given, else the customer's country's (v4-draft2 c2-0061: a
    "18849 SEK plus DK VAT" invoice taxed by the customer's country on top of DK VAT)."""
    positive(ctx, "amount", amount)
    to = email.strip().lower()
    purpose, amt, ccy = text(description), money(amount), currency.upper()
    taxed = tax_country.strip().upper()
    iid = make_id("INV", 10, to, purpose, amt, ccy, *([taxed] if taxed else []),
                  counter(ctx, "invoice"))
    rate = ctx.world.markets.vat_rate(taxed) if taxed else _tax_rate(ctx, to)
    inv = {"id": iid, "email": to, "currency": ccy, "status": "draft",
           "purpose": purpose, "tax_rate": rate,
           "due_date": _due_date(ctx.world.now),
           "lines": [{"description": purpose, "quantity": 1,
                      "unit_price": amt, "total": amt}]}
    table(ctx, "invoices")[iid] = inv
    ctx.state.record(ctx.tool, {"action": "invoice.create", "invoice_id": iid, "to": to})
    return _totals(inv)


@behaviour("finance.invoice.add_line")
def add_line(ctx: CallContext, invoice_id: str, description: str, quantity: int,
             unit_price: float) -> dict:
    inv = _invoice(ctx, invoice_id)
    _require(ctx, inv, ("draft",), "edited")
    if quantity < 1:
        raise invalid(ctx, "quantity", f"{pname(ctx, 'quantity')} must be at least 1")
    line = {"description": text(description), "quantity": quantity,
            "unit_price": money(unit_price), "total": money(quantity * unit_price)}
    inv["lines"].append(line)
    ctx.state.record(ctx.tool, {"action": "invoice.add_line", "invoice_id": inv["id"]})
    return {**_totals(inv), "line_total": line["total"]}


@behaviour("finance.invoice.send")
def send_invoice(ctx: CallContext, invoice_id: str) -> dict:
    inv = _invoice(ctx, invoice_id)
    _require(ctx, inv, ("draft", "open"), "sent")
    inv["status"] = "open"
    first = inv["lines"][0]
    url = checkout_url(inv["email"], first["total"], inv["currency"], inv["purpose"])
    ctx.state.record(ctx.tool, {"action": "invoice.send", "invoice_id": inv["id"],
                                "to": inv["email"]})
    return {**_totals(inv), "hosted_invoice_url": url, "sent_at": ctx.world.now_iso}


@behaviour("finance.invoice.void")
def void_invoice(ctx: CallContext, invoice_id: str) -> dict:
    inv = _invoice(ctx, invoice_id)
    _require(ctx, inv, ("draft", "open"), "voided")
    inv["status"] = "void"
    ctx.state.record(ctx.tool, {"action": "invoice.void", "invoice_id": inv["id"]})
    return {**_totals(inv), "voided_at": ctx.world.now_iso}


@behaviour("finance.invoice.mark_paid")
def mark_paid(ctx: CallContext, invoice_id: str) -> dict:
    inv = _invoice(ctx, invoice_id)
    _require(ctx, inv, ("draft", "open"), "marked paid")
    inv["status"] = "paid"
    ctx.state.record(ctx.tool, {"action": "invoice.paid", "invoice_id": inv["id"]})
    return {**_totals(inv), "paid_at": ctx.world.now_iso}
