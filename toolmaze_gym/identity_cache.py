"""A bounded cache of what is derived from a pair of objects, kept by their identity.

A task's grading index, its cart twin and a scripted agent's plan are each derived once
from a (task, corpus) pair: tasks and corpora are immutable once loaded but hold lists
and dicts, so they are not hashable by value, and hashing them by content on every
lookup would cost what the cache saves. Keyed by ``id()``, each entry keeps its objects
alive and checks them (``is``), so an id reused after a pair was collected never hits.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """``get(a, b, make)``: ``make()``'s value for the pair (``a``, ``b``), made once while
    the pair is among the ``limit`` most recently used."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: OrderedDict[tuple[int, int], tuple[Any, Any, V]] = OrderedDict()

    def get(self, a: Any, b: Any, make: Callable[[], V]) -> V:
        key = (id(a), id(b))
        hit = self._entries.get(key)
        if hit is not None and hit[0] is a and hit[1] is b:
            self._entries.move_to_end(key)
            return hit[2]
        value = make()
        self._entries[key] = (a, b, value)
        if len(self._entries) > self.limit:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every pair (a benchmark's cold start: ``benchmarks/bench_grading.py``)."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
