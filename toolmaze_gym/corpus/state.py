"""Episode state: what Action tools change and stateful Sources then see."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


@dataclass
class EpisodeState:
    """Namespaced mutable records, plus an ordered log of side effects.

    Namespaces are plain dicts or lists (``bookings``, ``outbox``, ``devices``,
    ``calendar``…) created on first use, so a tool needs no registration.
    """

    data: dict[str, Any] = field(default_factory=dict)
    effects: list[dict[str, Any]] = field(default_factory=list)

    def table(self, name: str) -> dict[str, Any]:
        return self.data.setdefault(name, {})

    def seq(self, name: str) -> list[Any]:
        return self.data.setdefault(name, [])

    def counter(self, name: str) -> int:
        """A per-episode sequence number (ids stay unique across repeated actions)."""
        n = self.data.get("_counters", {}).get(name, 0) + 1
        self.data.setdefault("_counters", {})[name] = n
        return n

    def record(self, tool: str, summary: dict[str, Any]) -> None:
        self.effects.append({"tool": tool, **summary})

    def copy(self) -> EpisodeState:
        return EpisodeState(copy.deepcopy(self.data), copy.deepcopy(self.effects))
