"""A simulator at a world edition: the same corpus answering as that edition's world,
byte for byte as the tools answered then (edition 1: the world of commit c4e8fd6)."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.world.edition import LATEST

DAMAGED = ("Order SO-1 arrived damaged; last scanned in Lyon. Replaced by order SO-2, "
           "due 2026-05-01 (12.5 EUR with tax, shipping 4.0 EUR).")


@pytest.fixture(scope="module")
def sims() -> dict[int, Simulator]:
    sim = Simulator()
    return {1: sim.at_edition(1), 2: sim.at_edition(2)}


def _call(sim: Simulator, tool: str, **args) -> dict:
    return json.loads(sim.call(tool, args, EpisodeState()).to_json())


def test_a_sibling_is_built_once_over_the_corpus_as_its_edition_documents_it():
    sim = Simulator()
    old = sim.at_edition(1)
    assert sim.at_edition(LATEST) is sim and sim.at_edition(1) is old
    assert old.at_edition(LATEST) is sim and old.at_edition(1) is old
    assert old.world.seed == sim.world.seed
    assert old.world.edition == 1 and sim.world.edition == LATEST
    # the tools an edition did not change are the very same specs
    assert old.corpus["get_forecast_by_city"] is sim.corpus["get_forecast_by_city"]
    assert Simulator().at_edition(1).corpus is old.corpus
    for tool, gone in (("place_order", "ship_to_city"), ("submit_order", "shipping_city")):
        assert gone in {p.name for p in sim.corpus[tool].params}
        assert gone not in {p.name for p in old.corpus[tool].params}
    assert "budget_currency" not in {f.name for f in old.corpus["log_expense"].returns}


def test_edition_1_forecast_is_the_one_v4_players_read(sims):
    args = {"city": "Delhi", "date": "2026-08-20"}
    assert _call(sims[1], "get_forecast_by_city", **args)["high_c"] == 33.0
    assert _call(sims[2], "get_forecast_by_city", **args)["high_c"] == 32.5


def test_edition_1_orders_know_no_ship_to_city(sims):
    args = {"product_id": "PRD-100000", "quantity": 1, "email": "sofia.muller@tailspin.dev"}
    assert "ship_to" not in _call(sims[1], "place_order", **args)
    assert _call(sims[2], "place_order", **args)["ship_to"] == "Lyon"
    refused = _call(sims[1], "place_order", **args, ship_to_city="London")["error"]
    assert refused["type"] == "unknown_parameter" and refused["field"] == "ship_to_city"
    assert _call(sims[2], "place_order", **args, ship_to_city="London")["ship_to"] == "London"


def test_edition_1_keeps_a_shipped_order_confirmed(sims):
    """toolmaze-v4 c4-0031's order: 'confirmed' beside a parcel in transit, as played."""
    assert _call(sims[1], "get_order_status", order_id="SO-D6GZ7XTC")["status"] == "confirmed"
    assert _call(sims[2], "get_order_status", order_id="SO-D6GZ7XTC")["status"] == "in transit"


def test_edition_1_log_expense_does_not_tell_the_budget_currency(sims):
    args = {"category": "groceries", "amount": 12.5, "currency": "EUR", "description": "milk"}
    assert "budget_currency" not in _call(sims[1], "log_expense", **args)
    assert _call(sims[2], "log_expense", **args)["budget_currency"] == "USD"


def test_edition_1_tags_a_template_text_it_has_no_sentence_for(sims):
    """What v4 players pasted ('[de] Order ...'); the latest translates the template."""
    old = _call(sims[1], "translate_text", text=DAMAGED, target_language="de")
    new = _call(sims[2], "translate_text", text=DAMAGED, target_language="de")
    assert old["translated_text"] == f"[de] {DAMAGED}"
    assert new["translated_text"].startswith("Bestellung SO-1 kam beschädigt an")


def test_edition_3_writes_an_before_a_vowel_and_summarises_past_inc(sims):
    """toolmaze-v5 c1-0091: "Meta Platforms Inc. is a internet content company ..."
    summarised to "Meta Platforms Inc."; edition 3 writes "an internet" and keeps the
    sentence whole; edition 2 answers as v5 was played."""
    new = Simulator().at_edition(3)
    said = {e: _call(s, "company_overview", symbol="META")["Description"]
            for e, s in ((2, sims[2]), (3, new))}
    assert said[2].startswith("Meta Platforms Inc. is a internet content company")
    assert said[3].startswith("Meta Platforms Inc. is an internet content company")
    assert _call(sims[2], "tldr_summarize", text=said[2])["tldr"] == "Meta Platforms Inc."
    assert _call(new, "tldr_summarize", text=said[3])["tldr"] == said[3]
