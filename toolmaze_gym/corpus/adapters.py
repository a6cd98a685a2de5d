"""Unit and format adapters: how one provider's values differ from another's.

Inbound adapters turn a parameter value into the behaviour's canonical unit;
outbound adapters turn a canonical result into the provider's unit. Keeping them
named, shared and paired with their inverses makes "the same value in other
units" exact both ways: a value read from one provider can be restated in the
unit another provider expects (``inverse``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from toolmaze_gym.values.numbers import is_number

Adapter = Callable[[Any], Any]


def _iso_to_epoch(v: Any) -> Any:
    if not isinstance(v, str):
        return v
    dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
    return int((dt if dt.tzinfo else dt.replace(tzinfo=UTC)).timestamp())


def _epoch_to_iso(v: Any) -> Any:
    if not is_number(v):
        return v
    return datetime.fromtimestamp(v, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _iso_to_us_date(v: Any) -> Any:
    if not isinstance(v, str) or len(v) < 10:
        return v
    y, m, d = v[:10].split("-")
    return f"{m}/{d}/{y}"


def _us_to_iso_date(v: Any) -> Any:
    if not isinstance(v, str) or v.count("/") != 2:
        return v
    m, d, y = v.split("/")
    return f"{y}-{m}-{d}"


def _iso_to_compact_date(v: Any) -> Any:
    return v[:10].replace("-", "") if isinstance(v, str) else v


def _compact_to_iso_date(v: Any) -> Any:
    if not isinstance(v, str) or len(v) != 8:
        return v
    return f"{v[:4]}-{v[4:6]}-{v[6:]}"


def _scaled(factor: float, digits: int | None) -> Adapter:
    def fn(v: Any) -> Any:
        if not is_number(v):
            return v
        return round(v * factor) if digits is None else round(v * factor, digits)

    return fn


ADAPTERS: dict[str, Adapter] = {
    "c_to_f": lambda v: round(v * 9 / 5 + 32, 1),
    "f_to_c": lambda v: round((v - 32) * 5 / 9, 1),
    "km_to_mi": _scaled(0.621371, 1),
    "mi_to_km": _scaled(1 / 0.621371, 1),
    "kph_to_mph": _scaled(0.621371, 1),
    "mph_to_kph": _scaled(1 / 0.621371, 1),
    "mm_to_in": _scaled(1 / 25.4, 2),
    "in_to_mm": _scaled(25.4, 1),
    "kg_to_lb": _scaled(2.20462, 2),
    "lb_to_kg": _scaled(1 / 2.20462, 2),
    "to_cents": _scaled(100, None),
    "from_cents": _scaled(0.01, 2),
    "hours_to_minutes": _scaled(60, None),
    "minutes_to_hours": _scaled(1 / 60, 2),
    "years_to_months": _scaled(12, None),
    "months_to_years": _scaled(1 / 12, 2),
    "pct_to_fraction": _scaled(0.01, 6),
    "fraction_to_pct": _scaled(100, 2),
    "stars5_to_10": _scaled(2, 1),
    "stars10_to_5": _scaled(0.5, 2),
    "iso_to_epoch": _iso_to_epoch,
    "epoch_to_iso": _epoch_to_iso,
    "iso_to_us_date": _iso_to_us_date,
    "us_to_iso_date": _us_to_iso_date,
    "iso_to_compact_date": _iso_to_compact_date,
    "compact_to_iso_date": _compact_to_iso_date,
    "upper": lambda v: v.upper() if isinstance(v, str) else v,
    "lower": lambda v: v.lower() if isinstance(v, str) else v,
    "title": lambda v: v.title() if isinstance(v, str) else v,
    "round0": lambda v: round(v),
    "round2": lambda v: round(v, 2),
    "str": str,
}

# Each unit or format change and the change back. Case, rounding and string
# adapters have none: the semantic types' normalisers already treat their
# outputs as the same value.
_PAIRS = (("c_to_f", "f_to_c"), ("km_to_mi", "mi_to_km"), ("kph_to_mph", "mph_to_kph"),
          ("mm_to_in", "in_to_mm"), ("kg_to_lb", "lb_to_kg"), ("to_cents", "from_cents"),
          ("hours_to_minutes", "minutes_to_hours"), ("years_to_months", "months_to_years"),
          ("pct_to_fraction", "fraction_to_pct"), ("stars5_to_10", "stars10_to_5"),
          ("iso_to_epoch", "epoch_to_iso"), ("iso_to_us_date", "us_to_iso_date"),
          ("iso_to_compact_date", "compact_to_iso_date"))
INVERSES: dict[str, str] = {**dict(_PAIRS), **{b: a for a, b in _PAIRS}}

# Adapters that change a unit or a format (not just case or rounding): a side
# using one differs from its alternatives in more than names.
UNIT_CHANGES = frozenset(INVERSES)


def register(name: str, fn: Adapter, inverse_name: str = "",
             inverse_fn: Adapter | None = None) -> Adapter:
    """Add a provider-specific adapter (and the one that undoes it, if any)."""
    if name in ADAPTERS and ADAPTERS[name] is not fn:
        raise ValueError(f"adapter {name!r} registered twice")
    ADAPTERS[name] = fn
    if inverse_name and inverse_fn is not None:
        register(inverse_name, inverse_fn)
        INVERSES[name], INVERSES[inverse_name] = inverse_name, name
    return fn


def apply(name: str, value: Any) -> Any:
    return ADAPTERS[name](value) if name else value


def inverse(name: str) -> str:
    """The adapter that undoes ``name`` ("" = identity up to normalisation)."""
    return INVERSES.get(name, "")
