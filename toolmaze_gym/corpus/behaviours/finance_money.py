"""Money movement: balances, payments, refunds, bank transfers, standing orders, requests.

Payments and transfers debit the user's account in its own currency (converted at
the world's FX rate) and a later balance read sees it; a refund credits it back.
PayPal-, Stripe- and Wise-style providers of one capability share a core here,
so the same request yields the same id and the same ledger entry.
"""

from __future__ import annotations

from datetime import date, timedelta

from toolmaze_gym.corpus.behaviours import CallContext, behaviour, not_found
from toolmaze_gym.corpus.behaviours.finance_common import (
    account,
    balance,
    checkout_url,
    conflict,
    counter,
    debit,
    invalid,
    money,
    pname,
    positive,
    post,
    table,
    text,
)
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.markets import iban_valid

MAX_SCHEDULE_DAYS = 366


@behaviour("finance.balance")
def account_balance(ctx: CallContext, account_id: str) -> dict:
    a = account(ctx, account_id)
    return {"account_id": a.id, "name": a.name, "available_balance": balance(ctx, a),
            "currency": a.currency, "as_of": ctx.world.now_iso}


# ---------------------------------------------------------------- payments


@behaviour("finance.pay")
def send_payment(ctx: CallContext, account_id: str, email: str, amount: float,
                 currency: str, note: str = "") -> dict:
    a = account(ctx, account_id)
    positive(ctx, "amount", amount)
    to = email.strip().lower()
    cost, _ = debit(ctx, a, amount, currency)
    amt, ccy = money(amount), currency.upper()
    pid = make_id("PAY", 10, a.id, to, amt, ccy, text(note), counter(ctx, "payment"))
    table(ctx, "payments")[pid] = {"account_id": a.id, "email": to, "amount": amt,
                                   "currency": ccy, "debited": cost, "status": "completed"}
    ctx.state.record(ctx.tool, {"action": "payment.send", "payment_id": pid, "to": to,
                                "amount": amt, "currency": ccy})
    return {"payment_id": pid, "status": "completed", "recipient": to, "amount": amt,
            "currency": ccy, "debited_amount": cost,
            "account_currency": a.currency, "created_at": ctx.world.now_iso}


def _payment(ctx: CallContext, pid: str) -> dict | None:
    """A payment of this episode, or one made before it (copied on first use)."""
    rows = table(ctx, "payments")
    if pid not in rows and (old := ctx.world.records.payments.get(pid)) is not None:
        rows[pid] = {"account_id": old.account_id, "email": old.recipient, "amount": old.amount,
                     "currency": old.currency, "debited": old.amount, "status": "completed"}
    return rows.get(pid)


@behaviour("finance.refund")
def refund_payment(ctx: CallContext, payment_id: str) -> dict:
    pid = payment_id.strip().upper()
    p = _payment(ctx, pid)
    if p is None:
        raise not_found("payment", payment_id, pname(ctx, "payment_id"))
    if p["status"] == "refunded":
        raise conflict(ctx, "payment_id", "already_refunded", f"payment {pid} was already "
                       "refunded")
    p["status"] = "refunded"
    post(ctx, account(ctx, p["account_id"]), p["debited"])
    rid = make_id("RFD", 10, pid, counter(ctx, "refund"))
    ctx.state.record(ctx.tool, {"action": "payment.refund", "payment_id": pid, "refund_id": rid})
    return {"refund_id": rid, "payment_id": pid, "status": "refunded", "amount": p["amount"],
            "currency": p["currency"], "refunded_at": ctx.world.now_iso}


# ---------------------------------------------------------------- bank transfers


def _iban(ctx: CallContext, iban: str) -> str:
    s = iban.replace(" ", "").upper()
    if not iban_valid(s):
        raise invalid(ctx, "iban", f"{pname(ctx, 'iban')} {iban!r} fails the IBAN checksum")
    return s


@behaviour("finance.transfer")
def transfer(ctx: CallContext, account_id: str, iban: str, amount: float, currency: str,
             reference: str = "") -> dict:
    a = account(ctx, account_id)
    to = _iban(ctx, iban)
    positive(ctx, "amount", amount)
    cost, rate = debit(ctx, a, amount, currency)
    amt, ccy = money(amount), currency.upper()
    tid = make_id("TRF", 10, a.id, to, amt, ccy, text(reference), counter(ctx, "transfer"))
    table(ctx, "transfers")[tid] = {"account_id": a.id, "iban": to, "amount": amt,
                                    "currency": ccy, "debited": cost}
    ctx.state.record(ctx.tool, {"action": "transfer.create", "transfer_id": tid, "to": to,
                                "amount": amt, "currency": ccy})
    return {"transfer_id": tid, "status": "completed", "from_account": a.id, "to_iban": to,
            "amount": amt, "currency": ccy, "debited_amount": cost,
            "fx_rate": rate, "created_at": ctx.world.now_iso}


@behaviour("finance.schedule_transfer")
def schedule_transfer(ctx: CallContext, account_id: str, iban: str, amount: float,
                      currency: str, start_date: str, frequency: str = "monthly") -> dict:
    a = account(ctx, account_id)
    to = _iban(ctx, iban)
    positive(ctx, "amount", amount)
    try:
        start = date.fromisoformat(start_date.strip()[:10])
    except ValueError:
        raise invalid(ctx, "start_date", f"{start_date!r} is not YYYY-MM-DD") from None
    today = ctx.world.now.date()
    if not today < start <= today + timedelta(days=MAX_SCHEDULE_DAYS):
        raise invalid(ctx, "start_date", "the first execution must be between tomorrow and "
                      "a year ahead")
    amt, ccy, first = money(amount), currency.upper(), start.isoformat()
    sid = make_id("SO", 8, a.id, to, amt, ccy, first, frequency,
                    counter(ctx, "standing_order"))
    table(ctx, "standing_orders")[sid] = {"account_id": a.id, "iban": to,
                                          "amount": amt, "frequency": frequency}
    ctx.state.record(ctx.tool, {"action": "transfer.schedule", "standing_order_id": sid})
    return {"standing_order_id": sid, "status": "scheduled", "from_account": a.id,
            "to_iban": to, "amount": amt, "currency": ccy,
            "next_execution_date": first, "frequency": frequency}


# ---------------------------------------------------------------- requests and links


@behaviour("finance.request_payment")
def request_payment(ctx: CallContext, email: str, amount: float, currency: str,
                    memo: str) -> dict:
    positive(ctx, "amount", amount)
    to = email.strip().lower()
    amt, ccy = money(amount), currency.upper()
    rid = make_id("PRQ", 10, to, amt, ccy, text(memo), counter(ctx, "request"))
    url = checkout_url(to, amount, currency, memo)
    table(ctx, "requests")[rid] = {"email": to, "amount": amt, "url": url}
    ctx.state.record(ctx.tool, {"action": "payment.request", "request_id": rid, "to": to})
    return {"request_id": rid, "status": "pending", "recipient": to, "amount": amt,
            "currency": ccy, "payment_url": url, "created_at": ctx.world.now_iso}


@behaviour("finance.payment_link")
def payment_link(ctx: CallContext, email: str, amount: float, currency: str,
                 description: str) -> dict:
    positive(ctx, "amount", amount)
    to = email.strip().lower()
    amt, ccy = money(amount), currency.upper()
    lid = make_id("PLK", 10, to, amt, ccy, text(description), counter(ctx, "link"))
    url = checkout_url(to, amount, currency, description)
    table(ctx, "links")[lid] = {"email": to, "amount": amt, "url": url}
    ctx.state.record(ctx.tool, {"action": "payment.link", "link_id": lid, "to": to})
    return {"link_id": lid, "url": url, "active": True, "customer_email": to,
            "amount": amt, "currency": ccy}
