"""Stable hashing: the only source of "randomness" for world facts.

Python's ``hash`` is salted per process and library RNG streams change between
versions; blake2b of a key gives the same bits on every machine forever, so one
world seed yields the same facts everywhere.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEP = "\x1f"  # joins the string forms of a key's parts


def digest(*parts: object) -> int:
    """A 64-bit integer determined only by the string forms of ``parts``."""
    key = SEP.join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


def unit(*parts: object) -> float:
    """A float in [0, 1) keyed by ``parts``."""
    return digest(*parts) / 2**64


def uniform(lo: float, hi: float, *parts: object) -> float:
    return lo + (hi - lo) * unit(*parts)


def randint(lo: int, hi: int, *parts: object) -> int:
    """An integer in [lo, hi] inclusive."""
    return lo + digest(*parts) % (hi - lo + 1)


def choice(seq: Sequence[T], *parts: object) -> T:
    return seq[digest(*parts) % len(seq)]


def sample(seq: Sequence[T], k: int, *parts: object) -> list[T]:
    """``k`` distinct items of ``seq`` in a key-determined order."""
    ranked = sorted(range(len(seq)), key=lambda i: digest(*parts, i))
    return [seq[i] for i in ranked[:k]]


def shuffled(seq: Sequence[T], *parts: object) -> list[T]:
    return sample(seq, len(seq), *parts)


def token(alphabet: str, length: int, *parts: object) -> str:
    """A code such as a booking reference, stable for its key."""
    n = digest(*parts)
    out = []
    for i in range(length):
        if n < len(alphabet):
            n = digest(*parts, "more", i)
        n, r = divmod(n, len(alphabet))
        out.append(alphabet[r])
    return "".join(out)


class Stream:
    """A deterministic sequence of choices keyed by ``parts``.

    Used where an algorithm makes many choices in turn (task assembly); every
    draw hashes the key with a counter, so the stream is identical on every
    machine and Python version, unlike ``random.Random`` method streams.
    """

    def __init__(self, *parts: object) -> None:
        self.parts = parts
        self.n = 0

    def _next(self) -> tuple[object, ...]:
        self.n += 1
        return (*self.parts, self.n)

    def unit(self) -> float:
        return unit(*self._next())

    def randint(self, lo: int, hi: int) -> int:
        return randint(lo, hi, *self._next())

    def choice(self, seq: Sequence[T]) -> T:
        return choice(seq, *self._next())

    def shuffled(self, seq: Sequence[T]) -> list[T]:
        return shuffled(seq, *self._next())

    def weighted(self, items: Sequence[T], weights: Sequence[float]) -> T:
        total = sum(weights)
        x = self.unit() * total
        for item, w in zip(items, weights, strict=True):
            x -= w
            if x < 0:
                return item
        return items[-1]

    def fork(self, *parts: object) -> Stream:
        return Stream(*self.parts, "fork", *parts)
