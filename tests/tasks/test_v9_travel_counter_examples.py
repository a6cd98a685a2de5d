"""The toolmaze-v9 blind review's travel request fault, reported by a static check on
the scenarios as they were (tests/data/conventions/v9_travel_counter_examples.toml) and
gone from the library now: one hotel room split between more people than it sleeps
(c3-0074: "We're 4 colleagues ... book the cheapest place", one room at 95 USD a night,
split four ways)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.tasks._counter_examples import fixture_scenario, library_scenario
from toolmaze_gym.tasks.room_party import room_party_problems, room_sleeps

V9 = Path(__file__).parents[1] / "data" / "conventions" / "v9_travel_counter_examples.toml"
SPLIT_ROOMS = ("et-shared-hotel-my-share-spanish", "tr-train-then-flight-shared-hotel")


@pytest.mark.parametrize("sid", SPLIT_ROOMS)
def test_each_v9_split_room_is_reported_and_fixed_now(sid):
    found = room_party_problems(fixture_scenario(V9, sid))
    assert found and all(f"a room sleeps {room_sleeps()}" in p for p in found)
    assert room_party_problems(library_scenario(sid)) == []


def test_a_party_a_room_sleeps_passes():
    sc = fixture_scenario(V9, "et-shared-hotel-my-share-spanish")
    params = tuple(replace(p, choices=(), value=2) if p.name == "travellers" else p
                   for p in sc.params)
    assert room_party_problems(replace(sc, params=params)) == []


def test_a_split_of_something_else_is_not_read():
    """A car or a bill may be split among any number of people."""
    sc = fixture_scenario(V9, "et-shared-hotel-my-share-spanish")
    steps = tuple(replace(s, use="travel.car_reserve") if s.id == "hotel" else s
                  for s in sc.steps)
    assert room_party_problems(replace(sc, steps=steps)) == []
