"""Unit and shape adapters: how one provider's fields differ from another's.

Inbound adapters turn a parameter value into the behaviour's canonical unit;
outbound adapters turn a canonical result into the provider's unit. Keeping them
named and shared makes "the same value in other units" exact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Adapter = Callable[[Any], Any]

ADAPTERS: dict[str, Adapter] = {
    "c_to_f": lambda v: round(v * 9 / 5 + 32, 1),
    "f_to_c": lambda v: round((v - 32) * 5 / 9, 1),
    "km_to_mi": lambda v: round(v * 0.621371, 1),
    "mi_to_km": lambda v: round(v / 0.621371, 1),
    "upper": lambda v: v.upper() if isinstance(v, str) else v,
    "lower": lambda v: v.lower() if isinstance(v, str) else v,
    "title": lambda v: v.title() if isinstance(v, str) else v,
    "round0": lambda v: round(v),
    "round2": lambda v: round(v, 2),
    "to_cents": lambda v: round(v * 100),
    "from_cents": lambda v: round(v / 100, 2),
    "hours_to_minutes": lambda v: round(v * 60),
    "minutes_to_hours": lambda v: round(v / 60, 2),
    "str": str,
}


def register(name: str, fn: Adapter) -> Adapter:
    if name in ADAPTERS and ADAPTERS[name] is not fn:
        raise ValueError(f"adapter {name!r} registered twice")
    ADAPTERS[name] = fn
    return fn


def apply(name: str, value: Any) -> Any:
    return ADAPTERS[name](value) if name else value
