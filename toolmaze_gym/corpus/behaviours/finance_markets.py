"""Market data: quotes, symbol search, order estimates, crypto, funds, profiles, earnings, FX.

Quote providers (snapshot, quote, Yahoo-style lookup, by-name quote) all read
``Markets.quote``, so they agree on price, currency and change; an order estimate
multiplies that same price, which is why it equals quote × position value.
"""

from __future__ import annotations

from datetime import date, timedelta

from toolmaze_gym.corpus.behaviours import CallContext, behaviour, not_found
from toolmaze_gym.corpus.behaviours.finance_common import (
    coin,
    company,
    company_by_name,
    fx,
    invalid,
    money,
    pname,
)
from toolmaze_gym.corpus.behaviours.finance_common import fund as lookup_fund
from toolmaze_gym.world.markets import Company, pct_change

# ---------------------------------------------------------------- stocks


def _quote(ctx: CallContext, c: Company) -> dict:
    q = ctx.world.markets.quote(c)
    return {"symbol": c.symbol, "name": c.name, "price": q.price,
            "previous_close": q.previous_close, "open": q.open, "change_pct": q.change_pct,
            "volume": q.volume, "currency": q.currency, "exchange": q.exchange,
            "as_of": ctx.world.now_iso}


@behaviour("finance.quote")
def quote(ctx: CallContext, symbol: str) -> dict:
    return _quote(ctx, company(ctx, symbol))


@behaviour("finance.quote_by_name")
def quote_by_name(ctx: CallContext, company: str) -> dict:
    return _quote(ctx, company_by_name(ctx, company))


@behaviour("finance.search_symbol")
def search_symbol(ctx: CallContext, company: str) -> dict:
    c = company_by_name(ctx, company)
    return {"symbol": c.symbol, "name": c.name, "exchange": c.exchange,
            "currency": c.currency, "country": c.country, "match_score": 1.0}


@behaviour("finance.order_estimate")
def order_estimate(ctx: CallContext, symbol: str, quantity: int) -> dict:
    c = company(ctx, symbol)
    if quantity < 1:
        raise invalid(ctx, "quantity", f"{pname(ctx, 'quantity')} must be at least 1 share")
    q = ctx.world.markets.quote(c)
    return {"symbol": c.symbol, "quantity": quantity, "estimated_cost": money(quantity * q.price),
            "currency": q.currency, "as_of": ctx.world.now_iso}


@behaviour("finance.company_profile")
def company_profile(ctx: CallContext, symbol: str) -> dict:
    m = ctx.world.markets
    c = company(ctx, symbol)
    return {"symbol": c.symbol, "name": c.name, "sector": c.sector, "industry": c.industry,
            "exchange": c.exchange, "country": c.country, "currency": c.currency,
            "market_cap": m.market_cap(c), "employees": c.employees, "website": c.website,
            "dividend_per_share": m.dividend_per_share(c),
            "dividend_yield_pct": m.dividend_yield_pct(c),
            "description": f"{c.name} is {_article(ctx, c.industry)} {c.industry.lower()} "
                           f"company in the {c.sector} sector, listed on {c.exchange}."}


def _article(ctx: CallContext, word: str) -> str:
    """"an" before a vowel ("an internet content company"); edition 2 and before
    wrote "a" before every industry (toolmaze-v5 c1-0091: "a internet")."""
    vowel = word[:1].lower() in "aeiou"
    return "an" if vowel and ctx.world.has("article_before_vowel") else "a"


@behaviour("finance.earnings")
def earnings(ctx: CallContext, symbol: str, quarter: str) -> dict:
    c = company(ctx, symbol)
    label = quarter.strip().upper()
    e = ctx.world.markets.earnings(c, label)
    if e is None:
        raise not_found(f"earnings report of {c.symbol} for", label, pname(ctx, "quarter"))
    return {"symbol": c.symbol, "fiscal_quarter": e.quarter, "report_date": e.report_date,
            "revenue_mn": e.revenue_mn, "eps_estimate": e.eps_estimate,
            "eps_actual": e.eps_actual, "surprise_pct": e.surprise_pct,
            "currency": e.currency, "beat": e.eps_actual >= e.eps_estimate}


# ---------------------------------------------------------------- crypto and funds


@behaviour("finance.crypto_price")
def crypto_price(ctx: CallContext, asset: str, currency: str) -> dict:
    k = coin(ctx, asset)
    now, before = ctx.world.markets.coin_usd(k)
    rate = fx(ctx, "USD", currency)
    return {"asset": k.symbol, "name": k.name, "price": money(now * rate),
            "currency": currency.upper(), "change_24h_pct": pct_change(before, now),
            "as_of": ctx.world.now_iso}


def _last_business_day(today: date) -> str:
    d = today - timedelta(days=1)
    while d.weekday() >= 5:
        d -= timedelta(days=1)
    return d.isoformat()


@behaviour("finance.fund_nav")
def fund_nav(ctx: CallContext, fund: str) -> dict:
    f = lookup_fund(ctx, fund)
    nav, prev, ytd = ctx.world.markets.fund_nav(f)
    return {"fund": f.symbol, "name": f.name, "nav": nav, "previous_nav": prev,
            "day_change_pct": pct_change(prev, nav), "currency": f.currency,
            "ytd_return_pct": ytd, "expense_ratio_pct": f.expense_ratio, "rating": f.rating,
            "nav_date": _last_business_day(ctx.world.now.date()), "as_of": ctx.world.now_iso}


# ---------------------------------------------------------------- FX


@behaviour("finance.fx_rate")
def fx_rate(ctx: CallContext, base: str, quote: str) -> dict:
    return {"base": base.upper(), "quote": quote.upper(), "rate": fx(ctx, base, quote),
            "date": ctx.world.today, "as_of": ctx.world.now_iso}
