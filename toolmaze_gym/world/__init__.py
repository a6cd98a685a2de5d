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
    """All facts for one seed. Cheap to build; families materialise on first use."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)
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

    def build_all(self) -> World:
        for name in FAMILIES:
            getattr(self, name)
        return self



_DEFAULT: dict[int, World] = {}


def get_world(seed: int = 0) -> World:
    """The shared world for ``seed`` (worlds are immutable, so sharing is safe)."""
    if seed not in _DEFAULT:
        _DEFAULT[seed] = World(seed)
    return _DEFAULT[seed]
