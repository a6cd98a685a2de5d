"""The fault-kind census: what share of planted faults is of each kind."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus.corruption import recipe_kind
from toolmaze_gym.faults.census import KINDS, blatant_share, format_shares, kind_shares
from toolmaze_gym.faults.profiles import FaultProfile, Victim


def _profile(mode: str, *recipes: str) -> FaultProfile:
    tools = tuple(f"t{k}" for k in range(len(recipes)))
    return FaultProfile("t", mode, (Victim("s1", tools, recipes=dict(zip(tools, recipes,
                                                                          strict=True))),))


@pytest.mark.parametrize(("recipe", "kind"), [
    ("entity:city", "entity"), ("check:0", "consistency"), ("trunc:summary", "consistency"),
    ("stale:as_of", "stale"), ("unit:price", "unit"), ("type:price:out_of_range", "range"),
    ("type:summary:placeholder", "placeholder"),
])
def test_every_recipe_has_a_kind(recipe, kind):
    assert recipe_kind(recipe) == kind


def test_shares_per_implicit_mode():
    profiles = [_profile("P3", "entity:city", "check:0", "stale:as_of", "unit:price"),
                _profile("P4", "entity:city", "type:summary:placeholder"),
                _profile("P1")]  # explicit modes carry no recipes and are not counted
    shares = kind_shares(profiles)
    assert set(shares) == {"P3", "P4"} and set(shares["P3"]) == set(KINDS)
    assert shares["P3"]["entity"] == shares["P3"]["unit"] == 0.25
    assert shares["P4"] == {**dict.fromkeys(KINDS, 0.0), "entity": 0.5, "placeholder": 0.5}
    assert blatant_share(shares["P4"]) == 0.5 and blatant_share(shares["P3"]) == 0
    table = format_shares(shares)
    assert "placeholder" in table and "50.0%" in table


def test_no_profiles_give_zero_shares():
    assert kind_shares([])["P3"] == dict.fromkeys(KINDS, 0.0)
