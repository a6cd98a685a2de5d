"""A tax the agent works out itself at the destination's standard rate, after the price
lookups of the same chain (grading version 32; toolmaze-v14 review c1-0005: 10 %
Australian GST on the quoted price, no ``compute_vat`` call, refused as a value the
episode never showed, though docs/grading.md takes a country's standard rate as known)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v14" / "actions"
OWN = (ACTIONS / "c1-0005.ownnorate.txt").read_text(encoding="utf-8")


def _graded(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "episode.txt"
    path.write_text(text, encoding="utf-8")
    return _replay(path, "tmz-v14-c1-0005-P0")[0]


def test_the_own_gst_after_the_price_lookups_passes(tmp_path):
    assert "compute_vat" not in OWN and "get_price_quote" in OWN
    assert _graded(tmp_path, OWN)["success"]


@pytest.mark.parametrize(("old", "new", "why"), [
    ("USD 72.59 (net 65.99)", "USD 75.89 (net 65.99)", "15 %: not Australia's rate"),
    ("USD 217.77", "USD 197.97", "the line total without the tax"),
])
def test_an_own_tax_at_another_figure_fails(tmp_path, old, new, why):
    assert old in OWN
    assert not _graded(tmp_path, OWN.replace(old, new))["success"], why
