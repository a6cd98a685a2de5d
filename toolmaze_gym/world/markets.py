"""Markets and money: listed companies, quotes, crypto, funds, accounts, tax tables.

The listing universe (companies, coins, funds) is the same for every seed so a
symbol means the same company everywhere; prices, balances and portfolios drift
with the seed. Per-symbol facts are computed lazily and cached, so building the
family costs a few milliseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts, load_data
from toolmaze_gym.world.geo import round_money

UNIVERSE_SIZE = 331
EARLIEST_QUARTER = (2018, 1)


@dataclass(frozen=True)
class Company:
    symbol: str
    name: str
    sector: str
    industry: str
    exchange: str
    country: str
    currency: str
    base_price: float
    shares_mn: float
    employees: int
    dividend_share: float  # annual dividend as a share of the price (0 = none)
    website: str


@dataclass(frozen=True)
class Quote:
    symbol: str
    name: str
    price: float
    previous_close: float
    open: float
    change_pct: float
    volume: int
    currency: str
    exchange: str


@dataclass(frozen=True)
class Coin:
    symbol: str
    name: str
    base_usd: float


@dataclass(frozen=True)
class Fund:
    symbol: str
    name: str
    family: str
    currency: str
    expense_ratio: float
    base_nav: float
    rating: int


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    currency: str
    opening_balance: float


@dataclass(frozen=True)
class Payee:
    name: str
    iban: str


@dataclass(frozen=True)
class Portfolio:
    id: str
    name: str
    currency: str
    cash: float
    holdings: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Earnings:
    symbol: str
    quarter: str
    report_date: str
    revenue_mn: float
    eps_estimate: float
    eps_actual: float
    surprise_pct: float
    currency: str


# ---------------------------------------------------------------- static universe


def _static_usd(currency: str) -> float:
    return float(load_data("currencies.json")[currency][1])


def _coined(data: dict[str, Any], i: int) -> str:
    if hashing.unit("mk-style", i) < 0.55:
        syl = data["syllables"]
        first = hashing.choice(syl, "mk-s1", i)
        word = first + hashing.choice([s for s in syl if s != first], "mk-s2", i)
        return (word + hashing.choice(data["endings"], "mk-end", i)).capitalize()
    first = hashing.choice(data["first_words"], "mk-w1", i)
    if hashing.unit("mk-two", i) < 0.5:
        return first
    return first + " " + hashing.choice(data["second_words"], "mk-w2", i)


def _ticker(base: str, word: str, country: str, i: int, used: set[str]) -> str:
    if country in ("JP", "HK", "KR"):
        width = {"JP": 4, "HK": 4, "KR": 6}[country]
        lo = {"JP": 1300, "HK": 1, "KR": 1000}[country]
        for n in range(50):
            sym = str(hashing.randint(lo, 10 ** width - 1, "mk-num", i, n)).zfill(width)
            if sym not in used:
                return sym
    letters = "".join(ch for ch in base.upper() if ch.isalpha())
    w = "".join(ch for ch in word.upper() if ch.isalpha())
    size = 4 if country == "US" else 3
    for cand in (letters[:size], letters[:size - 1] + w[:1], letters[:2] + w[:2],
                 letters[:1] + w[:size - 1], letters[:3] + w[:1], letters[:4] + w[:1]):
        if len(cand) >= 2 and cand not in used:
            return cand
    for n in range(100):
        cand = letters[:2] + hashing.token("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 2, "mk-tk", i, n)
        if cand not in used:
            return cand
    raise RuntimeError("ticker space exhausted")


def _slug(name: str) -> str:
    first = name.split()[0]
    return "".join(ch for ch in first.lower() if "a" <= ch <= "z") or "company"


def _procedural(data: dict[str, Any], i: int, used: set[str], names: set[str]) -> Company | None:
    weights = data["exchange_weights"]
    pool = [ex for ex, wt in weights.items() for _ in range(wt)]
    ex = hashing.choice(pool, "mk-ex", i)
    _, country, currency = data["exchanges"][ex]
    sector = hashing.choice(sorted(data["sectors"]), "mk-sector", i)
    info = data["sectors"][sector]
    base = _coined(data, i)
    word = hashing.choice(info["words"], "mk-word", i)
    name = f"{base} {word} {hashing.choice(data['suffixes'][country], 'mk-suf', i)}"
    if name.lower() in names:
        return None
    symbol = _ticker(base, word, country, i, used)
    big_unit = currency in ("USD", "EUR", "GBP", "CHF", "CAD", "AUD")
    usd_price = hashing.uniform(8, 450, "mk-price", i) if big_unit else hashing.uniform(
        3, 90, "mk-price", i)
    industry = hashing.choice(info["industries"], "mk-ind", i)
    # Some industries always pay (``payers`` of markets.json: a REIT); others 60 % of
    # the time, a yield of 0.5-5 %.
    lo, hi = data.get("payers", {}).get(industry, (0.005, 0.05))
    paid = industry in data.get("payers", {}) or hashing.unit("mk-div", i) < 0.6
    return Company(
        symbol=symbol, name=name, sector=sector,
        industry=industry, exchange=ex,
        country=country, currency=currency,
        base_price=round(usd_price / _static_usd(currency), 2),
        shares_mn=round(hashing.uniform(20, 3000, "mk-shares", i), 1),
        employees=hashing.randint(200, 150000, "mk-emp", i),
        dividend_share=round(hashing.uniform(lo, hi, "mk-dy", i), 4) if paid else 0.0,
        website=f"https://www.{_slug(base)}{_slug(word)}.com")


@cache
def _companies(payers: bool = True, non_payers: bool = False) -> tuple[Company, ...]:
    """The listed companies; without ``payers`` (edition 1) no industry always pays;
    with ``non_payers`` (edition 7) a real company that pays no dividend in 2026
    (markets.json ``non_payers``: Intel since Q4 2024) pays none."""
    data = load_data("markets.json")
    if not payers:
        data = {**data, "payers": {}}
    unpaid = set(data.get("non_payers", ())) if non_payers else set()
    out: list[Company] = []
    for sym, name, sector, industry, ex, price, shares, emp, div in data["known_companies"]:
        _, country, currency = data["exchanges"][ex]
        div = 0 if sym in unpaid else div
        out.append(Company(sym, name, sector, industry, ex, country, currency, float(price),
                           float(shares), int(emp), round(div / price, 4),
                           f"https://www.{_slug(name)}.com"))
    used = {c.symbol for c in out}
    names = {c.name.lower() for c in out}
    i = 0
    while len(out) < UNIVERSE_SIZE:
        i += 1
        c = _procedural(data, i, used, names)
        if c is None:
            continue
        out.append(c)
        used.add(c.symbol)
        names.add(c.name.lower())
    return tuple(out)


@cache
def _funds() -> tuple[Fund, ...]:
    data = load_data("markets.json")
    out: list[Fund] = []
    used: set[str] = set()
    for fam in data["fund_families"]:
        for n, (strategy, er, nav) in enumerate(hashing.sample(
                data["fund_strategies"], 4, "fund-strat", fam)):
            cls = hashing.choice(data["fund_classes"], "fund-cls", fam, strategy)
            initials = "".join(w[0] for w in (fam + " " + strategy).split() if w[0].isalpha())
            sym = (initials[:3] + strategy.replace(" ", "")[-1:]).upper()[:4].ljust(4, "F") + "X"
            k = 0
            while sym in used:
                k += 1
                sym = (initials[:2] + hashing.token("ABCDEFGHIJKLMNOPRSTUVWYZ", 2, "fund", fam,
                                                   n, k)).upper() + "X"
            used.add(sym)
            bump = {"Admiral": 0.0, "Institutional": -0.01, "Investor": 0.1, "Class A": 0.25}
            out.append(Fund(
                symbol=sym, name=f"{fam} {strategy} Fund {cls}", family=fam,
                currency=hashing.choice(["USD"] * 6 + ["EUR", "GBP"], "fund-ccy", sym),
                expense_ratio=round(max(0.02, er + bump[cls]), 2),
                base_nav=round(nav * hashing.uniform(0.6, 1.8, "fund-nav", sym), 2),
                rating=hashing.randint(1, 5, "fund-rating", sym)))
    return tuple(out)


@cache
def _coins() -> tuple[Coin, ...]:
    return tuple(Coin(s, n, float(p)) for s, n, p in load_data("markets.json")["crypto"])


def iban_check_digits(country: str, bban: str) -> str:
    """ISO 13616 check digits: 98 − (BBAN + country + '00' as digits) mod 97."""
    digits = "".join(str(int(ch, 36)) for ch in (bban + country + "00").upper())
    return f"{98 - int(digits) % 97:02d}"


@lru_cache(maxsize=8192)
def iban_valid(iban: str) -> bool:
    s = iban.replace(" ", "").upper()
    if len(s) < 15 or len(s) > 34 or not s.isalnum():
        return False
    fmt = load_data("markets.json")["iban_formats"].get(s[:2])
    if fmt and len(s) != fmt[0]:
        return False
    digits = "".join(str(int(ch, 36)) for ch in s[4:] + s[:4])
    return int(digits) % 97 == 1


# ---------------------------------------------------------------- quarters


def quarter_end(quarter: str) -> date:
    year, q = int(quarter[:4]), int(quarter[-1])
    month = 3 * q
    return date(year, month, 30 if month in (6, 9) else 31)


def quarter_label(year: int, q: int) -> str:
    return f"{year}-Q{q}"


def previous_quarter(year: int, q: int) -> tuple[int, int]:
    return (year - 1, 4) if q == 1 else (year, q - 1)


# ---------------------------------------------------------------- the family


class Markets(Facts):
    """Everything a finance API would read: listings, prices, accounts and tax rules."""

    N_ACCOUNTS = 24
    N_PAYEES = 40
    N_PORTFOLIOS = 12

    def __init__(self, world) -> None:
        super().__init__(world)
        self.data = load_data("markets.json")
        self.companies = _companies(world.has("dividend_payers"),
                                    world.has("known_non_payers"))
        self._by_symbol = {c.symbol.lower(): c for c in self.companies}
        self._by_name = {c.name.lower(): c for c in self.companies}
        self.symbols = [c.symbol for c in self.companies]
        self.company_names = [c.name for c in self.companies]
        self.coins = _coins()
        self._coin = {c.symbol.lower(): c for c in self.coins}
        self.coin_symbols = [c.symbol for c in self.coins]
        self.funds = _funds()
        self._fund = {f.symbol.lower(): f for f in self.funds}
        self.fund_symbols = [f.symbol for f in self.funds]
        self.budget_categories = sorted(self.data["budget_categories"])
        self._quotes: dict[str, Quote] = {}
        self._budget_memo: dict[str, tuple[float, float]] = {}
        self._country_ccy = {c.country_code: c.currency for c in world.geo.cities}
        self.accounts = self._make_accounts()
        self._account = {a.id: a for a in self.accounts}
        self.account_ids = [a.id for a in self.accounts]
        self.payees = self._make_payees()
        self.payee_ibans = [p.iban for p in self.payees]
        self.portfolios = self._make_portfolios()
        self._portfolio = {p.id: p for p in self.portfolios}
        self.portfolio_ids = [p.id for p in self.portfolios]
        self.home_currency = hashing.choice(["USD", "USD", "EUR", "GBP"], *self.key("home"))

    # -- lookups -----------------------------------------------------------

    def company(self, symbol: str) -> Company | None:
        return self._by_symbol.get(symbol.strip().lower())

    def company_by_name(self, name: str) -> Company | None:
        return self._by_name.get(" ".join(name.split()).lower())

    def coin(self, symbol: str) -> Coin | None:
        return self._coin.get(symbol.strip().lower())

    def fund(self, symbol: str) -> Fund | None:
        return self._fund.get(symbol.strip().lower())

    def account(self, account_id: str) -> Account | None:
        return self._account.get(account_id.strip().upper())

    def portfolio(self, portfolio_id: str) -> Portfolio | None:
        return self._portfolio.get(portfolio_id.strip().upper())

    def country_currency(self, country: str) -> str:
        return self._country_ccy.get(country.upper(), "USD")

    # -- prices ------------------------------------------------------------

    def quote(self, c: Company) -> Quote:
        q = self._quotes.get(c.symbol)
        if q is None:
            k = self.key("px", c.symbol)
            # to the currency's smallest unit: Tokyo and Seoul quote whole yen and won
            price = round_money(c.base_price * (1 + hashing.uniform(-0.25, 0.35, *k, "lvl")),
                                c.currency)
            prev = round_money(price / (1 + hashing.uniform(-0.045, 0.045, *k, "day")),
                               c.currency)
            opened = round_money(prev * (1 + hashing.uniform(-0.01, 0.01, *k, "open")),
                                 c.currency)
            volume = int(c.shares_mn * 1e6 * hashing.uniform(0.002, 0.012, *k, "vol"))
            q = self._quotes[c.symbol] = Quote(
                c.symbol, c.name, price, prev, opened, pct_change(prev, price), volume,
                c.currency, c.exchange)
        return q

    def market_cap(self, c: Company) -> float:
        return float(round(self.quote(c).price * c.shares_mn * 1e6))

    def dividend_per_share(self, c: Company) -> float:
        return round_money(c.base_price * c.dividend_share, c.currency)

    def dividend_yield_pct(self, c: Company) -> float:
        dps = self.dividend_per_share(c)
        return round(100 * dps / self.quote(c).price, 2) if dps else 0.0

    def coin_usd(self, coin: Coin) -> tuple[float, float]:
        """(price now, price 24 h ago) in USD, unrounded."""
        k = self.key("coin", coin.symbol)
        if coin.symbol == "USDC":
            now = 1 + hashing.uniform(-0.002, 0.002, *k)
            return now, 1.0
        now = coin.base_usd * (1 + hashing.uniform(-0.3, 0.4, *k, "lvl"))
        return now, now / (1 + hashing.uniform(-0.08, 0.08, *k, "24h"))

    def fund_nav(self, f: Fund) -> tuple[float, float, float]:
        """(NAV, previous NAV, year-to-date return %)."""
        k = self.key("nav", f.symbol)
        nav = round(f.base_nav * (1 + hashing.uniform(-0.15, 0.25, *k, "lvl")), 2)
        prev = round(nav / (1 + hashing.uniform(-0.015, 0.015, *k, "day")), 2)
        return nav, prev, round(hashing.uniform(-12, 25, *k, "ytd"), 2)

    # -- earnings ------------------------------------------------------------

    def report_date(self, c: Company, quarter: str) -> date:
        return quarter_end(quarter) + timedelta(days=hashing.randint(
            22, 50, "earn-lag", c.symbol, quarter))

    def reported_quarters(self) -> list[str]:
        """The eight latest quarters every listed company has reported (newest first)."""
        today = self.world.now.date()
        y, q = today.year, (today.month - 1) // 3 + 1
        out: list[str] = []
        while len(out) < 8:
            y, q = previous_quarter(y, q)
            label = quarter_label(y, q)
            if quarter_end(label) + timedelta(days=50) <= today:
                out.append(label)
        return out

    def earnings(self, c: Company, quarter: str) -> Earnings | None:
        """None for quarters before 2018 or not reported yet."""
        year, q = int(quarter[:4]), int(quarter[-1])
        if (year, q) < EARLIEST_QUARTER or self.report_date(c, quarter) > self.world.now.date():
            return None
        k = ("earn", c.symbol, quarter)
        price = self.quote(c).price
        age = (self.world.now.date() - quarter_end(quarter)).days / 365.25
        growth = (1 + hashing.uniform(-0.02, 0.12, "earn-growth", c.symbol)) ** -age
        sales_ratio = hashing.uniform(0.06, 0.5, "earn-sales", c.symbol)
        revenue = c.shares_mn * price * sales_ratio / 4 * growth * (
            1 + hashing.uniform(-0.08, 0.08, *k, "rev"))
        if not c.dividend_share and hashing.unit("earn-loss", c.symbol) < 0.15:
            # only a company that pays no dividend makes a loss: a careful reader does not
            # believe a loss-making Exxon paying 3.8 a share (v4-draft2 review, c4-0056)
            annual = -price * hashing.uniform(0.01, 0.08, "earn-eps", c.symbol)
        else:
            annual = price / hashing.uniform(8, 45, "earn-pe", c.symbol)
        est = round(annual / 4 * growth * (1 + hashing.uniform(-0.1, 0.1, *k, "est")), 2)
        if est == 0:
            est = 0.01
        actual = round(est + abs(est) * hashing.uniform(-0.2, 0.3, *k, "act"), 2)
        return Earnings(c.symbol, quarter, self.report_date(c, quarter).isoformat(),
                        round(max(revenue, 0.5), 1), est, actual,
                        round((actual - est) / abs(est) * 100, 2), c.currency)

    # -- accounts, payees, portfolios --------------------------------------------

    def _unique_number(self, prefix: str, digits: int, tag: str, i: int, used: set[str]) -> str:
        n = 0
        while True:
            num = hashing.randint(10 ** (digits - 1), 10 ** digits - 1, *self.key(tag, i, n))
            val = f"{prefix}-{num}"
            if val not in used:
                used.add(val)
                return val
            n += 1

    def _make_accounts(self) -> list[Account]:
        used: set[str] = set()
        out = []
        for i in range(self.N_ACCOUNTS):
            ccy = hashing.choice(self.data["account_currencies"], *self.key("acc-ccy", i))
            usd = hashing.uniform(15000, 120000, *self.key("acc-bal", i))
            out.append(Account(
                id=self._unique_number("ACC", 8, "acc", i, used),
                name=hashing.choice(self.data["account_kinds"], *self.key("acc-kind", i)),
                currency=ccy,
                opening_balance=round_money(usd / self.world.geo.usd_value(ccy), ccy)))
        return out

    def _make_payees(self) -> list[Payee]:
        formats = self.data["iban_formats"]
        names = hashing.sample(self.world.people.names, self.N_PAYEES, *self.key("payees"))
        out = []
        for i, name in enumerate(names):
            cc = hashing.choice(sorted(formats), *self.key("payee-cc", i))
            length, bank = formats[cc]
            body_len = length - 4 - len(bank)
            body = "".join(str(hashing.randint(0, 9, *self.key("payee-d", i, j)))
                           for j in range(body_len))
            bban = bank + body
            out.append(Payee(name, cc + iban_check_digits(cc, bban) + bban))
        return out

    def _make_portfolios(self) -> list[Portfolio]:
        used: set[str] = set()
        out = []
        for i in range(self.N_PORTFOLIOS):
            ccy = hashing.choice(["USD"] * 5 + ["EUR", "GBP"], *self.key("pf-ccy", i))
            picks = hashing.sample(self.symbols, hashing.randint(4, 10, *self.key("pf-n", i)),
                                   *self.key("pf-pick", i))
            out.append(Portfolio(
                id=self._unique_number("PF", 6, "pf", i, used),
                name=self.data["portfolio_kinds"][i % len(self.data["portfolio_kinds"])],
                currency=ccy,
                cash=round_money(hashing.uniform(25000, 150000, *self.key("pf-cash", i))
                                 / self.world.geo.usd_value(ccy), ccy),
                holdings=tuple((s, hashing.randint(5, 400, *self.key("pf-q", i, s)))
                               for s in picks)))
        return out

    # -- budgets and tax -------------------------------------------------------------

    def default_budget(self, category: str) -> tuple[float, float]:
        """(monthly limit, spent so far this month) in the home currency."""
        v = self._budget_memo.get(category)
        if v is None:
            v = self._budget_memo[category] = self._default_budget(category)
        return v

    def _default_budget(self, category: str) -> tuple[float, float]:
        usd = self.data["budget_categories"][category]
        limit = round(usd / self.world.geo.usd_value(self.home_currency) / 10) * 10.0
        spent = round(limit * hashing.uniform(0.1, 0.8, *self.key("spent", category)), 2)
        return limit, spent

    def vat_rate(self, country: str) -> float:
        return float(self.data["vat_rates"].get(country.upper(), 0))

    def income_tax(self, country: str, income: float) -> tuple[float, str]:
        """(tax due, currency) under the country's simplified progressive schedule; from
        edition 7 (``employee_contributions``) the tax also holds the employee's social
        contributions, so take-home pay is what a payslip shows (v9 c1-0066: France)."""
        cc = country.upper()
        currency = self.country_currency(cc)
        scale = 1 / _static_usd(currency) if cc not in self.data["income_tax"] else 1.0
        if not self.world.has("employee_contributions"):
            return round_money(_banded(self._tax_table(cc, 6), income, scale), currency), currency
        paid = self.data["employee_contributions"].get(cc)
        social = _banded(paid, income, scale) if paid else 0.0
        taxed = income - social if paid and paid.get("deductible") else income
        tax = _banded(self._tax_table(cc, 7), taxed, scale)
        return round_money(tax + social, currency), currency

    def _tax_table(self, cc: str, edition: int) -> dict[str, Any]:
        """The income-tax schedule of a country as of ``edition`` (6 or 7)."""
        newer = self.data["income_tax_edition_7"] if edition >= 7 else {}
        tables = self.data["income_tax"]
        return newer.get(cc) or tables.get(cc) or tables["_default_usd"]


def _banded(table: dict[str, Any], income: float, scale: float) -> float:
    """What a schedule of an allowance then bands ([width, rate %]; a null width has no
    upper limit) charges on ``income``; ``scale`` converts its amounts to local currency."""
    left = max(0.0, income - table["allowance"] * scale)
    tax = 0.0
    for width, rate in table["bands"]:
        part = left if width is None else min(left, width * scale)
        tax += part * rate / 100
        left -= part
        if left <= 0:
            break
    return tax


def pct_change(old: float, new: float) -> float:
    """Percentage change from ``old`` to ``new``, rounded to two places."""
    return round((new - old) / old * 100, 2) if old else 0.0


def half_up_cents(x: float) -> float:
    """``x`` rounded half-up to the cent, as its shortest decimal reads: 0.125 is
    0.13, where ``round`` gives 0.12 (the float below it)."""
    return float(Decimal(repr(float(x))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def ceil_cents(x: float) -> float:
    """Round up to the cent, as lenders do for instalments."""
    return math.ceil(round(x * 100, 6)) / 100
