"""World edition 7: the toolmaze-v9 blind review's finance oddities (issue 28), each as
the v9 reviewer met it on edition 6 and gone on edition 7: Intel paying a dividend of
0.50 a share in 2026, though it has paid none since Q4 2024 (c3-0037)."""

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
