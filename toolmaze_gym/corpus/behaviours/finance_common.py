"""Helpers shared by the Financial behaviours: lookups, money rounding, state tables.

Every Financial tool keeps what it changes under a ``fin.*`` namespace of the
episode state, so a balance, a portfolio or a budget read later sees the change,
and providers of one capability that share a core see the same records.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.corpus.behaviours import CallContext, ToolError, not_found
from toolmaze_gym.world.markets import Account, Coin, Company, Fund, Portfolio

_URL_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def table(ctx: CallContext, name: str) -> dict[str, Any]:
    return ctx.state.table(f"fin.{name}")


def counter(ctx: CallContext, name: str) -> int:
    return ctx.state.counter(f"fin.{name}")


def pname(ctx: CallContext, canonical: str) -> str:
    """The calling tool's own name for a canonical argument, for error bodies."""
    from toolmaze_gym.corpus.catalog import load_corpus

    spec = load_corpus().tools.get(ctx.tool)
    if spec is not None:
        for p in spec.params:
            if p.canonical == canonical:
                return p.name
    return canonical


def invalid(ctx: CallContext, canonical: str, message: str) -> ToolError:
    return ToolError(422, "invalid_parameter", message, pname(ctx, canonical))


def conflict(ctx: CallContext, canonical: str, code: str, message: str) -> ToolError:
    return ToolError(409, code, message, pname(ctx, canonical))


def money(x: float) -> float:
    return round(float(x), 2)


def text(value: str) -> str:
    return " ".join(str(value).split())


def positive(ctx: CallContext, canonical: str, amount: float) -> float:
    if amount <= 0:
        raise invalid(ctx, canonical, f"{pname(ctx, canonical)} must be greater than zero")
    return float(amount)


def fx(ctx: CallContext, base: str, quote: str) -> float:
    return ctx.world.geo.fx_rate(base.upper(), quote.upper())


def company(ctx: CallContext, symbol: str, canonical: str = "symbol") -> Company:
    c = ctx.world.markets.company(symbol)
    if c is None:
        raise not_found("symbol", symbol, pname(ctx, canonical))
    return c


def company_by_name(ctx: CallContext, name: str, canonical: str = "company") -> Company:
    c = ctx.world.markets.company_by_name(name)
    if c is None:
        raise not_found("company", name, pname(ctx, canonical))
    return c


def coin(ctx: CallContext, symbol: str, canonical: str = "asset") -> Coin:
    c = ctx.world.markets.coin(symbol)
    if c is None:
        raise not_found("asset", symbol, pname(ctx, canonical))
    return c


def fund(ctx: CallContext, symbol: str, canonical: str = "fund") -> Fund:
    f = ctx.world.markets.fund(symbol)
    if f is None:
        raise not_found("fund", symbol, pname(ctx, canonical))
    return f


def account(ctx: CallContext, account_id: str, canonical: str = "account_id") -> Account:
    a = ctx.world.markets.account(account_id)
    if a is None:
        raise not_found("account", account_id, pname(ctx, canonical))
    return a


def portfolio(ctx: CallContext, portfolio_id: str,
              canonical: str = "portfolio_id") -> Portfolio:
    p = ctx.world.markets.portfolio(portfolio_id)
    if p is None:
        raise not_found("portfolio", portfolio_id, pname(ctx, canonical))
    return p


def balance(ctx: CallContext, acct: Account) -> float:
    """Opening balance plus every debit and credit made in this episode."""
    return money(acct.opening_balance + table(ctx, "ledger").get(acct.id, 0.0))


def post(ctx: CallContext, acct: Account, delta: float) -> float:
    ledger = table(ctx, "ledger")
    ledger[acct.id] = money(ledger.get(acct.id, 0.0) + delta)
    return balance(ctx, acct)


def debit(ctx: CallContext, acct: Account, amount: float, currency: str) -> tuple[float, float]:
    """(amount in the account's currency, fx rate used); 409 when funds are short."""
    rate = fx(ctx, currency, acct.currency)
    cost = money(amount * rate)
    ledger = table(ctx, "ledger")
    moved = ledger.get(acct.id, 0.0)
    available = money(acct.opening_balance + moved)
    if cost > available:
        raise conflict(ctx, "amount", "insufficient_funds",
                       f"account {acct.id} has {available:.2f} {acct.currency} "
                       f"available, {cost:.2f} {acct.currency} needed")
    ledger[acct.id] = money(moved - cost)
    return cost, rate


@lru_cache(maxsize=8192)
def checkout_url(email: str, amount: float, currency: str, purpose: str) -> str:
    """The hosted payment page for one payer, amount and purpose.

    Invoices, money requests and payment links for the same payer, amount and
    purpose open the same page, so every way of billing a customer yields it.
    """
    tok = hashing.token(_URL_ALPHABET, 14, "checkout", email.strip().lower(), money(amount),
                        currency.upper(), text(purpose).lower())
    return f"https://pay.ledgerly.example/c/{tok}"
