"""Behaviours: the code behind tool specs, registered by name.

A behaviour takes a ``CallContext`` and canonical keyword arguments and returns a
dict of canonical results. It raises ``ToolError`` for domain errors (unknown
entity, slot taken), which the simulator turns into a realistic error body.
Modules in this package register themselves on import; one module per family.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.values.catalog import parse_utc_naive
from toolmaze_gym.world import World


class ToolError(Exception):
    """A domain error the API would report (404 unknown city, 409 slot taken…)."""

    def __init__(self, status: int, code: str, message: str, field: str = "") -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


@dataclass
class CallContext:
    world: World
    state: EpisodeState
    tool: str


Behaviour = Callable[..., dict[str, Any]]
_REGISTRY: dict[str, Behaviour] = {}
_loaded = False


def behaviour(name: str) -> Callable[[Behaviour], Behaviour]:
    def deco(fn: Behaviour) -> Behaviour:
        if name in _REGISTRY:
            raise ValueError(f"behaviour {name!r} registered twice")
        _REGISTRY[name] = fn
        return fn

    return deco


def get(name: str) -> Behaviour:
    load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown behaviour {name!r}") from None


def names() -> list[str]:
    load_all()
    return sorted(_REGISTRY)


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{mod}")


def parse_utc(value: str, field: str) -> datetime:
    """A naive UTC datetime from ISO 8601; offsets are folded in ('10:00+02:00' is
    '08:00'); a malformed value is the 422 an API would send, and so is one whose
    offset folds it past the years 1-9999 a datetime holds (0001-01-01T00:00+14:00)."""
    try:
        return parse_utc_naive(value)
    except ValueError:
        raise ToolError(422, "invalid_parameter", f"{field} {value!r} is not ISO 8601",
                        field) from None
    except OverflowError:
        raise out_of_range(field, f"{field} {value!r} in UTC") from None


def add_minutes(start: datetime, minutes: int, field: str) -> datetime:
    """``start`` plus ``minutes``; a result past 9999-12-31 (or before year 1) is a
    422 naming ``field``, the date-time it was added to, as an API that cannot
    represent the date answers, never an OverflowError out of the behaviour."""
    try:
        return start + timedelta(minutes=minutes)
    except OverflowError:
        raise out_of_range(field, f"{field} plus {minutes} minutes") from None


def out_of_range(field: str, what: str) -> ToolError:
    return ToolError(422, "out_of_range",
                     f"{what} falls outside the supported years 0001-9999", field)


def not_found(kind: str, value: Any, field: str) -> ToolError:
    return ToolError(404, "not_found", f"{kind} {value!r} not found", field)
