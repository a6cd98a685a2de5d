"""Scenario data that play-testers found at odds with the request, checked on what the
generator draws and builds (issue 16: premises checked against the drawn data)."""

from __future__ import annotations

import pytest

from toolmaze_gym import hashing
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library

LIB = {s.id: s for s in load_library()}


@pytest.fixture(scope="module")
def gen():
    return ScenarioGenerator()


@pytest.mark.parametrize("level", ["C1", "C2", "C3"])
def test_a_quote_taxes_the_order_the_request_describes(gen, level):
    """Play-test tmz-v3-c1-0033: the reference taxed one unit and then multiplied, 9
    cents away from the sales tax on the order that the request describes."""
    sc = LIB["sh-client-quote-with-tax"]
    task = gen.generate(sc, level, f"quote-{level}", "t")
    corpus = gen.corpus
    for path in task.solutions:
        by = {corpus[c.tool].behaviour: c for c in path.calls}
        line, tax = by["calc.line_total"], by["shop.tax"]
        subtotal = next(v for k, v in line.response.items() if k.endswith("total"))
        taxed = next(tax.args[p.name] for p in corpus[tax.tool].params if p.canonical == "amount")
        assert taxed == subtotal


def _stream(name):
    return hashing.Stream("scenario-data", name)
