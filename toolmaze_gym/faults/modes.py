"""The perturbation modes: P0 (no fault) and the 2×2 of explicit/implicit × transient/permanent."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mode:
    name: str
    label: str
    faulty: bool
    explicit: bool
    permanent: bool


MODES: dict[str, Mode] = {
    "P0": Mode("P0", "NP", False, False, False),
    "P1": Mode("P1", "explicit-transient", True, True, False),
    "P2": Mode("P2", "explicit-permanent", True, True, True),
    "P3": Mode("P3", "implicit-transient", True, False, False),
    "P4": Mode("P4", "implicit-permanent", True, False, True),
}
MODE_NAMES = tuple(MODES)
FAULT_MODES = ("P1", "P2", "P3", "P4")


def get_mode(name: str) -> Mode:
    key = {"NP": "P0"}.get(name.upper(), name.upper())
    if key not in MODES:
        raise ValueError(f"unknown perturbation mode {name!r}; choose from P0 (NP), P1-P4")
    return MODES[key]
