"""The world: a deterministic, seeded model of every fact a tool reads or writes.

Facts are pure functions of (seed, key) through ``toolmaze_gym.hashing``; the
world knows nothing about tools. Families live in one module each and are built
lazily, so constructing a world costs little until a family is used.
"""

from __future__ import annotations

import importlib
from datetime import datetime, timedelta
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.world import edition as editions
from toolmaze_gym.world.edition import LATEST

# attribute -> (module, class); each family is one concept in one module.
FAMILIES: dict[str, tuple[str, str]] = {
    "geo": ("geo", "Geo"),
    "people": ("people", "People"),
    "markets": ("markets", "Markets"),
    "office": ("office", "Office"),
    "travel": ("travel", "Travel"),
    "commerce": ("commerce", "Commerce"),
    "devices": ("devices", "Devices"),
    "news": ("news", "News"),
    "records": ("records", "Records"),
}


class World:
    """All facts for one seed as of one edition (``toolmaze_gym.world.edition``: an
    old suite's tasks answer as the world did when they were built and played).
    Cheap to build; families materialise on first use."""

    def __init__(self, seed: int = 0, edition: int = LATEST) -> None:
        self.seed = int(seed)
        self.edition = editions.checked(edition)
        self.now = datetime(2026, 3, 2, 9, 0) + timedelta(
            days=hashing.randint(0, 180, "now", self.seed),
            minutes=15 * hashing.randint(0, 24, "now-min", self.seed))
        self.now_iso = self.now.strftime("%Y-%m-%dT%H:%M:%SZ")
        self.today = self.now.date().isoformat()

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes not yet built: materialise a family once.
        if name in FAMILIES:
            module, cls = FAMILIES[name]
            obj = getattr(importlib.import_module(f"toolmaze_gym.world.{module}"), cls)(self)
            self.__dict__[name] = obj
            return obj
        raise AttributeError(name)

    def has(self, change: str) -> bool:
        """Whether this world's edition has ``change`` (``edition.CHANGES``): the one
        test world and behaviour code makes of its edition."""
        return editions.has(self.edition, change)

    def build_all(self) -> World:
        for name in FAMILIES:
            getattr(self, name)
        return self



_DEFAULT: dict[tuple[int, int], World] = {}


def get_world(seed: int = 0, edition: int = LATEST) -> World:
    """The shared world for ``seed`` as of ``edition`` (worlds are immutable, so
    sharing is safe)."""
    key = (seed, editions.checked(edition))
    if key not in _DEFAULT:
        _DEFAULT[key] = World(seed, edition)
    return _DEFAULT[key]
