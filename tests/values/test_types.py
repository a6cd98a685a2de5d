"""Semantic types: samples satisfy invariants; every corruption breaks one, with a witness."""

from __future__ import annotations

import pytest

from toolmaze_gym import values
from toolmaze_gym.values import CORRUPTION_KINDS, CheckContext

TYPES = sorted(values.all_types())


@pytest.mark.parametrize("name", TYPES)
def test_samples_satisfy_the_invariant(name, world):
    t = values.get(name)
    for key in ("a", "b", "c"):
        v = t.sample(world, key)
        assert t.violation(v, CheckContext(world)) is None, (name, v)
        assert t.same(v, v)


@pytest.mark.parametrize("name", [n for n in TYPES if values.get(n).corruptions])
def test_every_corruption_is_well_formed_but_detectably_wrong(name, world):
    t = values.get(name)
    for c in t.corruptions:
        assert c.kind in CORRUPTION_KINDS
        hits = 0
        for key in ("a", "b", "c"):
            v = t.sample(world, key)
            ctx = CheckContext(world, {"value": v}, {"value": v}, "value")
            out = c.fn(v, ctx, key)
            if out is None:
                continue
            bad, witness = out
            hits += 1
            assert witness, (name, c.name)
            assert type(bad) in (type(v), float, int, str), (name, c.name, bad)
            if c.kind == "entity":
                assert not t.same(bad, v), (name, c.name, bad)  # caught by the echo check
            else:
                assert t.violation(bad, ctx) is not None, (name, c.name, v, bad)
        assert hits, f"{name}.{c.name} never applies"


def test_normalisers_forgive_case_spacing_and_formats():
    assert values.get("city_name").same("  new   york", "New York")
    assert values.get("email").same("Ana.Souza@Acme-Corp.com", "ana.souza@acme-corp.com")
    assert values.get("money_amount").same(10.004, 10.0)
    assert not values.get("money_amount").same(10.5, 10.0)
    assert values.get("iso_datetime").same("2026-08-20T09:00:00Z", "2026-08-20T11:00+02:00")


def test_malformed_values_are_reported_not_raised(world):
    for name in TYPES:
        t = values.get(name)
        for junk in (None, [], {"x": 1}, "", float("nan")):
            msg = t.violation(junk, CheckContext(world))
            assert msg is None or isinstance(msg, str)
