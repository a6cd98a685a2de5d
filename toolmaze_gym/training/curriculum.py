"""The SFT curriculum: which expert episodes a small model sees, and how often.

Why weight at all: a 135M model first has to learn to copy a value from a tool
response into the next call, and to retry or switch tools after an explicit
error. Those skills live in the short, loud cells (C1-C2 under P0-P2); the long
C3-C4 chains and the silent faults (P3-P4) are harder and would dominate the
tokens if every episode counted once. So the focus cells' episodes are repeated
``focus_repeat`` times and every other episode is kept once: every cell stays
present (the model still meets silent faults and long chains), one pass over the
mix is at least one epoch of the data, and the shares are exact, not sampled.
The order is a seeded shuffle (numpy ``Generator``), so a seed gives one mix.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

FOCUS_LEVELS = ("C1", "C2")
FOCUS_MODES = ("P0", "P1", "P2")


@dataclass(frozen=True)
class Curriculum:
    """Repeat weights per (level, mode) cell: focus cells ``focus_repeat`` times, the
    rest once."""

    focus_repeat: int = 3
    focus_levels: tuple[str, ...] = FOCUS_LEVELS
    focus_modes: tuple[str, ...] = FOCUS_MODES

    def __post_init__(self) -> None:
        if self.focus_repeat < 1:
            raise ValueError(f"focus_repeat must be at least 1 (got {self.focus_repeat})")

    def is_focus(self, level: str, mode: str) -> bool:
        return level in self.focus_levels and mode in self.focus_modes

    def weight(self, level: str, mode: str) -> int:
        """How many times an episode of the cell (level, mode) appears in the mix."""
        return self.focus_repeat if self.is_focus(level, mode) else 1


def mix_indices(levels: Sequence[str], modes: Sequence[str], curriculum: Curriculum,
                seed: int = 0) -> list[int]:
    """Row indices of the mix: row i appears ``weight(levels[i], modes[i])`` times, in a
    seeded shuffled order."""
    import numpy as np

    if len(levels) != len(modes):
        raise ValueError("levels and modes must have one entry per row")
    idx = [i for i, (lv, md) in enumerate(zip(levels, modes, strict=True))
           for _ in range(curriculum.weight(lv, md))]
    order = np.random.default_rng(seed).permutation(len(idx))
    return [idx[k] for k in order]


def apply(dataset: Any, curriculum: Curriculum, seed: int = 0) -> Any:
    """The dataset (``level`` and ``mode`` columns) as the curriculum's mix."""
    return dataset.select(mix_indices(dataset["level"], dataset["mode"], curriculum, seed))


def cell_counts(levels: Iterable[str], modes: Iterable[str]) -> Counter:
    """Episodes per ``"C1P0"``-style cell."""
    return Counter(f"{lv}{md}" for lv, md in zip(levels, modes, strict=True))


def focus_share(counts: Counter, curriculum: Curriculum) -> float:
    """The share of a mix's episodes that come from the focus cells."""
    total = sum(counts.values())
    focus = sum(n for cell, n in counts.items() if curriculum.is_focus(cell[:2], cell[2:]))
    return focus / total if total else 0.0
