"""World edition 7: the toolmaze-v9 blind review's finance oddities (issue 28), each as
the v9 reviewer met it on edition 6 and gone on edition 7: Intel paying a dividend of
0.50 a share in 2026, though it has paid none since Q4 2024 (c3-0037), and a French
take-home pay of 91.7 % of gross from the income-tax tools (c1-0066): from edition 7 their
tax holds the employee's social contributions, checked country by country."""

from __future__ import annotations

from toolmaze_gym.world import get_world
from toolmaze_gym.world.base import load_data

V9, V10 = 6, 7


def _dividend(edition: int, symbol: str) -> float:
    markets = get_world(0, edition).markets
    company = markets.company(symbol)
    assert company is not None
    return markets.dividend_per_share(company)


def test_c3_0037_intel_pays_no_dividend_from_edition_7():
    assert _dividend(V9, "INTC") > 0  # the 0.50 a share c3-0037 was graded on
    assert _dividend(V10, "INTC") == 0


def test_every_known_non_payer_pays_nothing_on_edition_7():
    non_payers = load_data("markets.json")["non_payers"]
    assert "INTC" in non_payers
    assert all(_dividend(V10, s) == 0 for s in non_payers)


def test_the_payers_pay_as_before():
    known = [row[0] for row in load_data("markets.json")["known_companies"]]
    unpaid = set(load_data("markets.json")["non_payers"])
    for symbol in known:
        if symbol not in unpaid:
            assert _dividend(V10, symbol) == _dividend(V9, symbol) > 0, symbol
    first = get_world(0, V9).markets.companies
    assert [c for c in get_world(0, V10).markets.companies if c.symbol not in unpaid] == [
        c for c in first if c.symbol not in unpaid]


# What a single earner keeps of a typical gross pay after national income tax and
# employee social contributions (local and state taxes apart), rough 2024 figures after
# OECD Taxing Wages 2024 and the countries' own calculators: (pay, least, most kept).
TAKE_HOME = {
    "US": (75000, 0.75, 0.85),  # federal tax and FICA
    "GB": (40000, 0.78, 0.84),  # income tax and Class 1 NI
    "DE": (55000, 0.60, 0.70),  # Lohnsteuer and about 20 % social insurance
    "FR": (30886, 0.70, 0.79),  # c1-0066: net before tax about 78 %, then impôt
    "ES": (28000, 0.74, 0.82),
    "IT": (33000, 0.70, 0.80),
    "NL": (60000, 0.68, 0.78),
    "JP": (5000000, 0.74, 0.82),
    "CA": (65000, 0.76, 0.85),  # federal tax, CPP and EI
    "AU": (95000, 0.74, 0.80),  # with the Medicare levy
    "IN": (800000, 0.85, 0.95),
    "CH": (100000, 0.80, 0.90),  # federal tax, AHV/IV/EO and ALV
    "SE": (480000, 0.66, 0.78),
}


def _kept(edition: int, country: str, pay: float) -> float:
    tax, _ = get_world(0, edition).markets.income_tax(country, pay)
    return (pay - tax) / pay


def test_c1_0066_french_take_home_pay_is_believable_from_edition_7():
    """Edition 6 kept 91.7 % of 30,886 (28,333.40); a French payslip keeps about 78 %
    before income tax."""
    markets = get_world(0, V9).markets
    assert markets.income_tax("FR", 30886) == (2552.6, "EUR")
    tax, _ = get_world(0, V10).markets.income_tax("FR", 30886)
    assert 0.70 < (30886 - tax) / 30886 < 0.78


def test_every_country_the_tax_tools_know_keeps_a_believable_share_on_edition_7():
    known = {c for c in load_data("markets.json")["income_tax"] if not c.startswith("_")}
    assert known == set(TAKE_HOME)  # a country added to the schedules needs its figure
    off = {c: round(_kept(V10, c, pay), 3) for c, (pay, lo, hi) in TAKE_HOME.items()
           if not lo <= _kept(V10, c, pay) <= hi}
    assert off == {}


def test_the_tax_of_edition_6_is_unchanged():
    """The schedules edition 6 answered: income tax alone (GB 60,000 -> 11,432)."""
    assert get_world(0, V9).markets.income_tax("GB", 60000) == (11432.0, "GBP")
    assert get_world(0, V9).markets.income_tax("NL", 60000) == (21072.9, "EUR")
