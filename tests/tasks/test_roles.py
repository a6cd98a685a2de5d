"""People in their roles (issue 28, round 3): colleagues share a domain, the user's own
name is the user's account's. The library check fails on the draft v4 review's
scenarios (fixtures under tests/data/coherence) and the generator builds the fixed ones
with colleagues at one company and the account owner's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym import hashing
from toolmaze_gym.tasks.derived import derive
from toolmaze_gym.tasks.roles import role_problems
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library, parse_file

DATA = Path(__file__).parents[1] / "data" / "coherence"
LIB = {s.id: s for s in load_library()}

# fixture file -> (draft v4 task, what the review found)
DRAFT = {
    "v4_draft_office.toml": ("tmz-v4-c4-0072", "a contoso.com hire, a fabrikam.eu manager"),
    "v4_draft_errands.toml": ("tmz-v4-c4-0023", "Priya Dubois ordering on priya.varga@..."),
    "v4_draft_share.toml": ("tmz-v4-c4-0028", "Nora Costa's share asked of aisha.varga@..."),
}


@pytest.mark.parametrize("name", sorted(DRAFT))
def test_role_check_fails_on_the_draft_v4_scenarios(name):
    scenarios, problems = parse_file(DATA / name)
    assert not problems and scenarios
    assert all(role_problems(sc) for sc in scenarios), DRAFT[name]


def test_the_library_keeps_the_roles():
    assert [p for sc in LIB.values() for p in role_problems(sc)] == []


def test_colleague_and_owner_derivations(world):
    people = world.people
    for email in people.emails[:20]:
        colleague = derive("email", "email", email, world)
        assert colleague != email and colleague.split("@")[1] == email.split("@")[1]
        assert derive("person_name", "email", email, world) == people.by_email(email).name


@pytest.mark.parametrize("sid,level,mine,theirs", [
    ("off-new-hire-first-day-setup", "C4", "hire", "manager"),
    ("tr-err-beach-week-flight-hotel-sunglasses", "C4", "me", "traveller"),
    ("tr-friends-weekend-share-request", "C4", "friend", "friend_name"),
])
def test_generator_draws_people_in_their_roles(sim, sid, level, mine, theirs):
    gen = ScenarioGenerator(sim)
    stream_params = gen.draw_params(LIB[sid], hashing.Stream("roles", sid))
    a, b = stream_params[mine], stream_params[theirs]
    if theirs == "manager":
        assert a.split("@")[1] == b.split("@")[1], (a, b)
    else:
        assert sim.world.people.by_email(a).name == b, (a, b)
