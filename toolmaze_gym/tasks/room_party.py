"""A hotel booking split between people books a room that sleeps them all.

The hotel tools book one room (data/world/travel.json ``room_sleeps``: a double) and
take no party size, so a request that splits one booking between more people than a
room sleeps asks them to share a bed: toolmaze-v9's c3-0074 booked "the cheapest place"
for four colleagues, one room at 95 USD a night, and split it four ways (the review
called it an oddity). So a scenario whose ``travel.split_cost`` shares out a hotel
booking's total (directly or converted) draws a party no bigger than a room sleeps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolmaze_gym.tasks.share_requests import fed_by
from toolmaze_gym.world.base import load_data

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import ParamSpec, Scenario

HOTEL_BOOKINGS = frozenset({"travel.hotel_book", "travel.hotel_instant_book"})
SPLIT = "travel.split_cost"


def room_sleeps() -> int:
    """Guests one booked room sleeps (world data)."""
    return int(load_data("travel.json")["room_sleeps"])


def _sizes(param: ParamSpec) -> tuple[Any, ...]:
    """Every party size the param may draw."""
    if param.choices:
        return param.choices
    if param.range is not None:
        return param.range
    return (param.value,) if param.value is not None else ()


def room_party_problems(sc: Scenario) -> list[str]:
    """Each split of a hotel booking among more people than its room sleeps."""
    where = f"{sc.file}: {sc.id}"
    params = {p.name: p for p in sc.params}
    most = room_sleeps()
    out = []
    for step in sc.steps:
        if step.use != SPLIT or not fed_by(sc, step.id, HOTEL_BOOKINGS):
            continue
        for a in step.args:
            party = params.get(a.ref) if a.role == "travellers" and a.kind == "param" else None
            big = [n for n in _sizes(party) if isinstance(n, int | float) and n > most] \
                if party else []
            if big:
                out.append(f"{where}.params.{party.name}: splits one hotel room ({step.id}) "
                           f"between {max(big)} people; a room sleeps {most} (draw at "
                           f"most {most}, or book a room per pair)")
    return out
