"""A length-bounded string space.

Gymnasium's ``Text`` rejects non-ASCII characters and returns stale strings under
``AsyncVectorEnv`` shared memory; model text and tool results need neither
limitation, so observations and actions use this small ``Space[str]``. Gymnasium
batches custom spaces as tuples of plain strings through its generic handlers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.spaces import Space

_ALPHABET = np.array(list("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789{}[]\":,"
                          ".-_<>/é€中"))


class BoundedText(Space[str]):
    def __init__(self, max_length: int, seed: int | np.random.Generator | None = None) -> None:
        if max_length <= 0:
            raise ValueError("max_length must be positive")
        self.max_length = int(max_length)
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        n = int(self.np_random.integers(0, min(self.max_length, 64) + 1))
        return "".join(self.np_random.choice(_ALPHABET, size=n))

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"BoundedText({self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoundedText) and other.max_length == self.max_length

    def __hash__(self) -> int:
        return hash(("BoundedText", self.max_length))

    def to_jsonable(self, sample_n: list[str]) -> list[str]:
        return list(sample_n)

    def from_jsonable(self, sample_n: list[str]) -> list[str]:
        return list(sample_n)
