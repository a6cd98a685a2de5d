"""The mix of implicit fault kinds over a set of profiles.

A benchmark of silent failures is only as good as the failures it plants: if
most are negative prices or ``{{placeholders}}``, it measures whether an agent
notices nonsense, not whether it checks facts. This census counts, per implicit
mode, the kind of every planted corruption (every tool that may take the fault),
and separately the one the default path meets first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from toolmaze_gym.corpus.corruption import BLATANT_KINDS, FAULT_KINDS, recipe_kind
from toolmaze_gym.faults.profiles import FaultProfile

KINDS = (*FAULT_KINDS, *BLATANT_KINDS)


def kind_counts(profiles: Iterable[FaultProfile],
                modes: tuple[str, ...] = ("P3", "P4")) -> dict[str, Counter[str]]:
    """mode -> Counter of fault kinds over every victim tool's recipe."""
    out: dict[str, Counter[str]] = {m: Counter() for m in modes}
    for p in profiles:
        if p.mode in out:
            for v in p.victims:
                out[p.mode].update(recipe_kind(r) for r in v.recipes.values())
    return out


def kind_shares(profiles: Iterable[FaultProfile],
                modes: tuple[str, ...] = ("P3", "P4")) -> dict[str, dict[str, float]]:
    """mode -> {kind: share in [0, 1]} (every kind listed, zeros included)."""
    counts = kind_counts(profiles, modes)
    return {m: {k: (c[k] / total if (total := sum(c.values())) else 0.0) for k in KINDS}
            for m, c in counts.items()}


def blatant_share(shares: dict[str, float]) -> float:
    """The share of negative numbers, out-of-range values and placeholders."""
    return sum(shares[k] for k in BLATANT_KINDS)


def format_shares(shares: dict[str, dict[str, float]]) -> str:
    """A small table: one row per kind, one column per mode."""
    modes = list(shares)
    lines = ["kind          " + "".join(f"{m:>8}" for m in modes)]
    for k in KINDS:
        lines.append(f"{k:<14}" + "".join(f"{100 * shares[m][k]:7.1f}%" for m in modes))
    return "\n".join(lines)
