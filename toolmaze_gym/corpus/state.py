"""Episode state: what Action tools change and stateful Sources then see."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

_ATOMIC = (str, int, float, bool, type(None))


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
        """An independent copy. The records are JSON-like trees, so they are copied
        as trees (shared sub-records stay shared, as ``deepcopy`` keeps them), several
        times faster than ``deepcopy``; anything else falls back to it."""
        memo: dict[int, Any] = {}
        return EpisodeState(_tree(self.data, memo), _tree(self.effects, memo))

    def fork(self) -> ForkedState:
        """A copy made only when a call first touches it: a trial call of a tool that
        never reads the state (most Sources) then costs no copy at all."""
        return ForkedState(self)


class ForkedState:
    """``EpisodeState.copy()`` on first use; what the call does never reaches the
    state it was forked from."""

    __slots__ = ("_copy", "_origin")

    def __init__(self, origin: EpisodeState) -> None:
        self._origin = origin
        self._copy: EpisodeState | None = None

    def __getattr__(self, name: str) -> Any:
        if self._copy is None:
            self._copy = self._origin.copy()
        return getattr(self._copy, name)


def _tree(x: Any, memo: dict[int, Any]) -> Any:
    t = type(x)
    if t in _ATOMIC:
        return x
    got = memo.get(id(x))
    if got is not None:
        return got
    if t is dict:
        out: Any = {}
        memo[id(x)] = out
        for k, v in x.items():
            out[k] = v if type(v) in _ATOMIC else _tree(v, memo)
        return out
    if t is list:
        out = []
        memo[id(x)] = out
        out.extend(v if type(v) in _ATOMIC else _tree(v, memo) for v in x)
        return out
    return copy.deepcopy(x, memo)
