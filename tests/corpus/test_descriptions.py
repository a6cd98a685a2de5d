"""Parameter and field descriptions agree with the schemas and invariants behind them."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import EpisodeState, load_corpus
from toolmaze_gym.corpus.invariants import violations
from toolmaze_gym.corpus.lint import Stated, corpus_problems, problems, stated
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.corpus.spec import Limits, Param

CORPUS = load_corpus()


@pytest.mark.parametrize(("text", "want"), [
    ("Units, 1-100", Stated(minimum=1, maximum=100)),
    ("Percentage, 0–100", Stated(minimum=0, maximum=100)),
    ("Rating from 1 to 5", Stated(minimum=1, maximum=5)),
    ("Number of shares, at least 1", Stated(minimum=1)),
    ("Amount to send, > 0", Stated(exclusive_minimum=0)),
    ("reader, commenter or writer", Stated(enum=("reader", "commenter", "writer"))),
    ("Kind of device: light, thermostat or sensor",
     Stated(enum=("light", "thermostat", "sensor"))),
    # Examples, standards and relative dates state no schema limit.
    ("Flight offer key, e.g. 'AF0123-CDGJFK-20260412'", Stated()),
    ("ISO 639-1 language code", Stated()),
    ("Departure date (local), YYYY-MM-DD, from today up to 330 days ahead", Stated()),
    ("Term in months, e.g. 360", Stated()),
])
def test_stated_limits_are_read_from_descriptions(text, want):
    assert stated(text) == want


def test_a_disagreeing_description_is_reported():
    p = Param("quantity", "quantity", "Units, 1-100")
    assert any("maximum of 100" in msg for msg in problems(p))
    fixed = Param("quantity", "quantity", "Units, 1-100", limits=Limits(1, 100))
    assert problems(fixed) == []
    assert problems(Param("role", "share_role", "reader, commenter or writer"))
    assert problems(Param("role", "share_role", "reader, commenter or writer",
                          enum=("reader", "commenter", "writer"))) == []


def test_every_description_agrees_with_its_schema():
    assert corpus_problems(CORPUS) == []


def _bounded_params():
    for name in sorted(CORPUS.tools):
        for p in CORPUS[name].params:
            s = stated(p.description)
            if s.maximum is not None and p.json_schema().get("type") == "integer":
                yield name, p.name, s


@pytest.mark.parametrize(("tool", "pname", "limits"), list(_bounded_params()))
def test_the_api_accepts_the_stated_maximum_and_refuses_one_more(tool, pname, limits, sim):
    spec = CORPUS[tool]
    args = valid_arguments(sim, spec, EpisodeState(), "0")
    assert args is not None
    over = sim.call(tool, {**args, pname: int(limits.maximum) + 1}, EpisodeState())
    assert over.status == 422 and over.body["error"]["field"] == pname
    if limits.minimum is not None:
        under = sim.call(tool, {**args, pname: int(limits.minimum) - 1}, EpisodeState())
        assert under.status == 422 and under.body["error"]["field"] == pname


def test_documented_field_limits_are_invariants(sim, world):
    spec = CORPUS["get_quote_snapshot"]
    args = {"symbol": "AAPL"}
    body = sim.call(spec.name, args, EpisodeState()).body
    assert violations(spec, args, body, world) == []
    found = violations(spec, args, {**body, "last": 0}, world)
    assert [w.field for w in found] == ["last"]
    assert "> 0" in spec.doc()
