"""How alternatives of a group relate: same facts, different interfaces.

Two providers of one capability (a stock quote, a currency conversion) read the
same world through different conventions: argument names and units, field
names, units and formats, nesting. Everything here goes through the canonical
names and units of the shared behaviour, so a value read from one provider can
be restated for another (``restate_arguments``), two responses can be compared
fact by fact (``disagreements``), and the difference between two interfaces can
be named (``interface_differences``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus import adapters
from toolmaze_gym.corpus.spec import ToolSpec

# Rounding a converted unit (km -> mi -> km, % -> fraction) moves a value by at
# most this much; facts that agree stay within it.
REL_TOL = 2e-3
ABS_TOL = 0.11


def canonical_arguments(spec: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` of ``spec`` under the behaviour's argument names and units."""
    out = {}
    for p in spec.params:
        if p.name in args:
            out[p.canonical] = adapters.apply(p.adapt, args[p.name])
    return out


def restate_arguments(canonical: Mapping[str, Any], spec: ToolSpec) -> dict[str, Any] | None:
    """The arguments ``spec`` expects for canonical ones (None if a required role is
    missing); optional parameters are passed only when given."""
    out = {}
    for p in spec.params:
        if p.canonical in canonical:
            out[p.name] = p.from_canonical(canonical[p.canonical])
        elif p.required:
            return None
    return out


def _same(a: Any, b: Any, type_name: str) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    return values.get(type_name).same(a, b)


def disagreements(a: ToolSpec, body_a: Mapping[str, Any], b: ToolSpec,
                  body_b: Mapping[str, Any]) -> list[str]:
    """Facts the two responses state differently (canonical keys both report)."""
    ca, cb = a.to_canonical(body_a), b.to_canonical(body_b)
    types = {f.canonical: f.type for f in a.returns if not f.adapt}
    out = []
    for key in sorted(set(ca) & set(cb)):
        if not _same(ca[key], cb[key], types.get(key, "text")):
            out.append(f"{key}: {a.name} says {ca[key]!r}, {b.name} says {cb[key]!r}")
    return out


def shape(spec: ToolSpec) -> frozenset[str]:
    """The nested objects of a response (empty for a flat one)."""
    return frozenset(f.name.rsplit(".", 1)[0] for f in spec.returns if "." in f.name)


def _conventions(spec: ToolSpec) -> set[tuple[str, str, str]]:
    """(canonical name, semantic type, adapter) of every argument and field."""
    out = {(f"arg:{p.canonical}", p.type, p.adapt) for p in spec.params}
    return out | {(f"key:{f.canonical}", f.type, f.adapt) for f in spec.returns}


def interface_differences(a: ToolSpec, b: ToolSpec) -> set[str]:
    """How two providers differ: "names", "units" (a unit or format), "shape"."""
    out = set()
    if {p.name for p in a.params} != {p.name for p in b.params} or \
            {f.name for f in a.returns} != {f.name for f in b.returns}:
        out.add("names")
    # A value one side takes or reports in a unit or format the other does not use.
    for conv in _conventions(a) ^ _conventions(b):
        if conv[2] in adapters.UNIT_CHANGES or conv[1] != _base_type(a, b, conv[0]):
            out.add("units")
            break
    if shape(a) != shape(b):
        out.add("shape")
    return out


def _base_type(a: ToolSpec, b: ToolSpec, name: str) -> str:
    """The type the name has on both sides when they agree, else "" (a difference)."""
    types = {t for spec in (a, b) for n, t, _ in _conventions(spec) if n == name}
    return types.pop() if len(types) == 1 else ""
