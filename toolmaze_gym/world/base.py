"""Shared plumbing for the world's fact families."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolmaze_gym.world import World


@cache
def load_data(name: str) -> Any:
    """A JSON file under ``toolmaze_gym/data/world``, read once per process."""
    path = resources.files("toolmaze_gym") / "data" / "world" / name
    return json.loads(path.read_text(encoding="utf-8"))


class Facts:
    """A family of facts; every value is a pure function of (world seed, key)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.seed = world.seed

    def key(self, *parts: object) -> tuple[object, ...]:
        """Prefix hashing keys with the seed so two worlds differ."""
        return (self.seed, type(self).__name__, *parts)
