"""Financial types: listings, accounts, ids of money movements, finance-only numbers.

Prices, balances and totals use the core ``money_amount`` + ``currency_code`` so a
quote can flow into a converter and then into a message; only values that mean
something else (earnings per share, market capitalisation, an IBAN) get a type
of their own. Account, portfolio and IBAN literals sample from the world, so a
user can name them and every behaviour resolves them.
"""

from __future__ import annotations

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import (
    _entity_swap,
    enum_type,
    id_type,
    number_type,
    pattern_type,
)

# ---------------------------------------------------------------- listings a user can name

enum_type("stock_symbol", lambda w: w.markets.symbols,
          "exchange ticker of a listed company, e.g. 'AAPL' or '7203'",
          pattern="^[A-Za-z0-9]{1,6}$")
enum_type("listed_company_name", lambda w: w.markets.company_names,
          "registered name of a listed company, e.g. 'Apple Inc.'")
enum_type("crypto_asset", lambda w: w.markets.coin_symbols,
          "crypto-asset ticker, e.g. 'BTC'", pattern="^[A-Za-z0-9]{2,6}$")
enum_type("fund_symbol", lambda w: w.markets.fund_symbols,
          "mutual-fund ticker (five letters ending in X), e.g. 'BTSXX'",
          pattern="^[A-Za-z]{5}$")
enum_type("budget_category", lambda w: w.markets.budget_categories,
          "spending category of a personal budget, e.g. 'groceries'")


def _quarter_sample(world, key: str) -> str:
    """A quarter a user asks about: from edition 7 the latest every company has reported
    (a request for earnings asks the news, not "2024-Q2" in August 2026: v9 c4-0010)."""
    quarters = world.markets.reported_quarters()
    if world.has("latest_quarter_asked"):
        return quarters[0]
    return hashing.choice(quarters, "fiscal_quarter", key)


pattern_type("fiscal_quarter", r"^[0-9]{4}-Q[1-4]$",
             "a fiscal quarter, YYYY-Qn, e.g. '2025-Q4'", _quarter_sample, literal=True,
             normalise=lambda v: str(v).strip().upper())


def _account_sample(world, key: str) -> str:
    return hashing.choice(world.markets.account_ids, "bank_account_id", key)


def _iban_sample(world, key: str) -> str:
    return hashing.choice(world.markets.payee_ibans, "iban", key)


def _portfolio_sample(world, key: str) -> str:
    return hashing.choice(world.markets.portfolio_ids, "portfolio_id", key)


pattern_type("bank_account_id", r"^ACC-[0-9]{8}$",
             "one of the user's bank accounts, e.g. 'ACC-58419272'", _account_sample,
             literal=True, normalise=lambda v: str(v).strip().upper(),
             corruptions=(_entity_swap(lambda w: w.markets.account_ids),))
pattern_type("iban", r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$",
             "an IBAN in electronic form (no spaces) with valid check digits",
             _iban_sample, literal=True,
             normalise=lambda v: str(v).replace(" ", "").upper(),
             corruptions=(_entity_swap(lambda w: w.markets.payee_ibans),))
pattern_type("portfolio_id", r"^PF-[0-9]{6}$",
             "a brokerage portfolio, e.g. 'PF-108324'", _portfolio_sample, literal=True,
             normalise=lambda v: str(v).strip().upper(),
             corruptions=(_entity_swap(lambda w: w.markets.portfolio_ids),))

# ---------------------------------------------------------------- inputs of calculators

number_type("interest_rate_pct", 0, 100, "an annual interest rate in percent, 0–100",
            sample_lo=0.5, sample_hi=15, literal=True)
number_type("term_months", 1, 600, "a loan term in months, 1–600", integer=True,
            sample_lo=12, sample_hi=360, literal=True)
number_type("period_years", 1, 100, "an investment horizon in whole years, 1–100",
            integer=True, sample_lo=1, sample_hi=30, literal=True)

# ---------------------------------------------------------------- outputs only

number_type("money_delta", -1e9, 1e9, "a signed amount of money (a change or a remainder)",
            sample_lo=-500, sample_hi=500)
number_type("eps", -1e6, 1e6, "earnings per share in the listing currency; may be negative",
            sample_lo=-2, sample_hi=10)
number_type("market_cap", 0, 1e16, "market capitalisation in the listing currency, never "
            "negative", sample_lo=1e8, sample_hi=1e12)
number_type("trade_volume", 0, 1e11, "shares traded in the session, never negative",
            integer=True, sample_lo=1e4, sample_hi=1e8)
number_type("revenue_millions", 0, 1e8, "quarterly revenue in millions of the listing "
            "currency, never negative", sample_lo=1, sample_hi=1e5)
number_type("rate_fraction", 0, 1, "a rate as a fraction between 0 and 1 (0.0125 = 1.25 %)")
number_type("amount_minor_units", 0, 1e11, "an amount in minor units (cents), never negative",
            integer=True, sample_lo=100, sample_hi=500000, literal=True)

id_type("payment_id", "PAY", 10, "payment id, e.g. PAY-7Q2X9ZLM4K",
        existing=lambda world, key: world.records.sample_payment_id(key))
id_type("payment_refund_id", "RFD", 10, "refund id, e.g. RFD-7Q2X9ZLM4K")
id_type("transfer_id", "TRF", 10, "bank transfer id, e.g. TRF-7Q2X9ZLM4K")
id_type("standing_order_id", "SO", 8, "recurring transfer id, e.g. SO-7Q2X9ZLM")
id_type("payment_request_id", "PRQ", 10, "money request id, e.g. PRQ-7Q2X9ZLM4K")
id_type("payment_link_id", "PLK", 10, "payment link id, e.g. PLK-7Q2X9ZLM4K")
id_type("invoice_id", "INV", 10, "invoice id, e.g. INV-7Q2X9ZLM4K",
        existing=lambda world, key: world.records.sample_invoice_id(key))
id_type("price_alert_id", "ALR", 8, "price alert id, e.g. ALR-7Q2X9ZLM",
        existing=lambda world, key: world.records.sample_alert_id(key))
id_type("budget_id", "BGT", 8, "budget id, e.g. BGT-7Q2X9ZLM")
id_type("expense_entry_id", "EXP", 10, "expense entry id, e.g. EXP-7Q2X9ZLM4K")
id_type("trade_order_id", "ORD", 10, "brokerage order id, e.g. ORD-7Q2X9ZLM4K")
