"""Schema-valid boundary arguments for any tool: the edges a careless or hostile
agent reaches without breaking a single schema rule.

Each parameter is given the extremes its schema admits (minimum and maximum, the
smallest float above an exclusive minimum, denormals, 1e308, integral floats for
integers, empty and maximum-length text, the first and last representable
date-times with ±14:00 offsets, ids with every digit 0 or 9) while the other
parameters keep a valid sampled value. Candidates are filtered through the tool's
own compiled schema, so everything yielded is a call a real API must answer with a
result or a 4xx, never a crash. Deterministic: no randomness, sorted iteration.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import fastjsonschema

from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.corpus.spec import ToolSpec

BIG_INTS = (2**31, 2**53 + 1, 2**63, 10**30)
TINY_FLOATS = (5e-324, 1e-300, 1e-16, 1e-9, 0.005)
HUGE_FLOATS = (1e15 + 0.5, 1.7976931348623157e308)
DATES = ("0001-01-01", "9999-12-31", "0000-00-00", "9999-99-99", "2024-02-29", "2023-02-29")
EDGE_DATETIMES = tuple(f"{d}T{t}{z}" for d in ("0001-01-01", "9999-12-31")
                       for t in ("00:00", "23:59:59") for z in ("", "Z", "+14:00", "-14:00"))
DATETIMES = (*EDGE_DATETIMES, "2024-06-01T12:00:00+99:99", "2024-13-01T25:61",
             "0000-01-01T00:00Z")
TEXTS = ("", " ", "0", "-", "é", "😀", "\u200b", "a b", "NULL", "../..", "<b>x</b>")


def number_candidates(schema: dict[str, Any]) -> list[Any]:
    """Integers and floats at and around the schema's bounds, and far beyond them
    where it states none."""
    lo, hi = schema.get("minimum"), schema.get("maximum")
    out: list[Any] = [0, 1, -1, 0.0, -0.0, *BIG_INTS, *(-b for b in BIG_INTS),
                      *TINY_FLOATS, *(-f for f in TINY_FLOATS), *HUGE_FLOATS,
                      *(-f for f in HUGE_FLOATS)]
    for bound in (lo, hi):
        if bound is not None:
            out += [bound, float(bound), math.nextafter(bound, math.inf),
                    math.nextafter(bound, -math.inf), int(bound) + 1, int(bound) - 1]
    return out


def string_candidates(schema: dict[str, Any], base: Any) -> list[Any]:
    """Empty, short and maximum-length text, extreme dates, and the sampled value
    with its digits all 0 or all 9 and its letters all upper or lower case."""
    out: list[Any] = list(schema.get("enum", ())) + list(TEXTS) + list(DATES) + list(DATETIMES)
    longest = schema.get("maxLength", 4096)
    out += ["a" * longest, "9" * longest, "é" * longest, "😀" * longest, " " * longest]
    if isinstance(base, str):
        out += [base.upper(), base.lower(), re.sub("[0-9]", "0", base),
                re.sub("[0-9]", "9", base), re.sub("[A-Za-z]", "Z", base),
                re.sub("[A-Za-z]", "a", base), base + " ", " " + base]
    return out


def candidates(schema: dict[str, Any], base: Any) -> list[Any]:
    kind = schema.get("type")
    if kind == "boolean":
        return [True, False]
    if kind in ("integer", "number"):
        return number_candidates(schema)
    return string_candidates(schema, base)


def _valid(validate: Any, args: dict[str, Any]) -> bool:
    try:
        validate(args)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


def _distinct(values: list[Any]) -> list[Any]:
    """Values in order, once each by type and exact value (True, 1 and 1.0 all kept)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for v in values:
        key = (type(v).__name__, repr(v))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


class Edges(NamedTuple):
    """A tool's sampled valid arguments, and per parameter the boundary values that
    keep them schema-valid when put in alone."""

    base: dict[str, Any]
    per_param: dict[str, list[Any]]
    validate: Callable[[Any], Any]

    def valid(self, args: dict[str, Any]) -> bool:
        return _valid(self.validate, args)


def edges(sim: Simulator, spec: ToolSpec, key: str = "b0",
          state: EpisodeState | None = None) -> Edges | None:
    """The boundary values of ``spec``'s parameters around a sampled call (None when
    no valid call could be sampled)."""
    schema = spec.parameters_schema()
    validate = fastjsonschema.compile(schema)
    base = valid_arguments(sim, spec, state or EpisodeState(), key)
    if base is None:
        return None
    per_param = {pname: [v for v in _distinct(candidates(pschema, base.get(pname)))
                         if _valid(validate, {**base, pname: v})]
                 for pname, pschema in sorted(schema["properties"].items())}
    return Edges(base, per_param, validate)


def boundary_calls(sim: Simulator, spec: ToolSpec, key: str = "b0",
                   state: EpisodeState | None = None) -> Iterator[dict[str, Any]]:
    """Schema-valid argument sets for ``spec``: one parameter at a boundary, the rest
    sampled, then every parameter at its first and its last valid boundary at once."""
    e = edges(sim, spec, key, state)
    if e is None:
        return
    base, per_param, validate = e
    for pname, values in per_param.items():
        for v in values:
            yield {**base, pname: v}
    for pick in (0, -1):
        together = {**base, **{p: vs[pick] for p, vs in per_param.items() if vs}}
        if _valid(validate, together):
            yield together
