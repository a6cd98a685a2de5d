"""Response invariants: the checks a careful reader of the docs can make.

Type invariants (ranges, formats, freshness), entity echoes (the response is
about what was asked) and relations between fields (converted = amount × rate).
The validator agent, the fault engine's witnesses and the tests all use this one
function, so "detectable" means the same thing everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus import adapters
from toolmaze_gym.corpus.spec import Check, OutputField, ToolSpec
from toolmaze_gym.values import CheckContext, ClockView, HiddenFact, Witness
from toolmaze_gym.values.catalog import parse_datetime, parse_utc_naive
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.world import World


def _operand(ref: str, args: Mapping[str, Any], body: Mapping[str, Any]) -> Any:
    src, name = ref.split(":", 1)
    return (args if src == "arg" else body).get(name)


def expected(check: Check, args: Mapping[str, Any], body: Mapping[str, Any]) -> float | None:
    """The value ``check.target`` must have (None for ``order`` or missing operands)."""
    ops = [_operand(o, args, body) for o in check.operands]
    if check.kind in ("words", "items"):
        if not isinstance(ops[0], str):
            return None
        return len(ops[0].split()) if check.kind == "words" else len(ops[0].split("; "))
    if any(not is_number(o) for o in ops):
        return None
    if check.kind == "linear":
        return ops[0] * check.scale + check.offset
    if check.kind == "product":
        return math.prod(ops)
    if check.kind == "quotient":
        return ops[0] / ops[1] if ops[1] else None
    if check.kind == "sum":
        return math.fsum(ops)
    if check.kind == "difference":
        return ops[0] - ops[1]
    return None


def _instant(value: Any) -> datetime | None:
    try:
        return parse_utc_naive(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _same_instant(check: Check, args: Mapping[str, Any], body: Mapping[str, Any]) -> str | None:
    target = _instant(body.get(check.target))
    source = _instant(_operand(check.operands[0], args, body))
    if target is None or source is None or target == source:
        return None  # a malformed date-time is the type check's finding
    return (f"{check.target} {body.get(check.target)} is not the instant "
            f"{check.operands[0].split(':')[1]} {_operand(check.operands[0], args, body)}")


def _not_before(check: Check, args: Mapping[str, Any], body: Mapping[str, Any]) -> str | None:
    target = _instant(body.get(check.target))
    low = _instant(_operand(check.operands[0], args, body))
    if target is None or low is None or target >= low:
        return None
    return (f"{check.target} {body.get(check.target)} is before "
            f"{check.operands[0].split(':')[1]} {_operand(check.operands[0], args, body)}")


def check_relation(check: Check, args: Mapping[str, Any], body: Mapping[str, Any]) -> str | None:
    if check.kind == "same_instant":
        return _same_instant(check, args, body)
    if check.kind == "not_before":
        return _not_before(check, args, body)
    target = body.get(check.target)
    if not is_number(target):
        return None  # the type check reports a non-number
    if check.kind == "order":
        low = _operand(check.operands[0], args, body)
        if isinstance(low, int | float) and low > target:
            return f"{check.target} {target} is below {check.operands[0].split(':')[1]} {low}"
        return None
    want = expected(check, args, body)
    if want is None:
        return None
    if not math.isclose(target, want, rel_tol=check.tolerance, abs_tol=check.tolerance):
        return f"{check.target} {target} != {want:.6g} ({check.kind} of " \
               f"{', '.join(o.split(':')[1] for o in check.operands)})"
    return None


def _echoes(spec: ToolSpec, f: OutputField, value: Any, arg: Any) -> bool:
    """Whether a field restates the argument it echoes (in its own unit if it has one)."""
    p = spec.param(f.echo)
    if not f.adapt and (p is None or not p.adapt):
        return values.get(f.type).same(value, arg)
    canonical = adapters.apply(p.adapt, arg) if p is not None else arg
    try:
        mine = f.to_canonical(value)
    except (TypeError, ValueError):
        return False
    if isinstance(mine, int | float) and isinstance(canonical, int | float):
        return math.isclose(mine, canonical, rel_tol=1e-3, abs_tol=0.051)
    return str(mine).strip().lower() == str(canonical).strip().lower()


def visible_violations(spec: ToolSpec, args: Mapping[str, Any], body: Mapping[str, Any],
                       world: World) -> list[Witness]:
    """What an agent can establish from its own call, the response, the docs and the
    clock alone (no hidden world facts such as a city's climate band)."""
    return violations(spec, args, body, ClockView(world.now, world.now_iso))  # type: ignore[arg-type]


def violations(spec: ToolSpec, args: Mapping[str, Any], body: Mapping[str, Any],
               world: World) -> list[Witness]:
    """Every documented invariant the response breaks; empty for a clean response."""
    found: list[Witness] = []
    for f in spec.returns:
        if f.name not in body:
            found.append(Witness("consistency", f.name, "field present", "field missing"))
            continue
        t = values.get(f.type)
        v = body[f.name]
        try:
            msg = t.violation(v, CheckContext(world, args, body, f.name))
        except HiddenFact:
            msg = None  # needs a fact the agent is not shown: no visible evidence
        if msg and f.limits.ranged and is_number(v):
            msg = None  # the documented range replaces the type's default range
        if msg:
            kind = "stale" if f.type in ("timestamp", "unix_time") else "range"
            found.append(Witness(kind, f.name, t.description, msg))
        elif msg := f.limits.violation(body[f.name]):
            found.append(Witness("range", f.name, f"{f.name} {f.limits.phrase()}", msg))
        if f.echo and f.echo in args and not _echoes(spec, f, body[f.name], args[f.echo]):
            found.append(Witness("entity", f.name, f"{f.name} equals the requested {f.echo}",
                                 f"asked for {args[f.echo]!r}, got {body[f.name]!r}"))
    for c in spec.checks:
        msg = check_relation(c, args, body)
        if msg:
            found.append(Witness("consistency", c.target, c.kind, msg))
    found += _restatements(spec, body)
    return found


def _restatements(spec: ToolSpec, body: Mapping[str, Any]) -> list[Witness]:
    """Fields stating one value in two units (temp_c and temp_f) must agree."""
    out = []
    for a, b in spec.restated_pairs():
        va, vb = body.get(a.name), body.get(b.name)
        if not all(is_number(v) for v in (va, vb)):
            continue
        ca, cb = a.to_canonical(va), b.to_canonical(vb)
        if not math.isclose(ca, cb, rel_tol=2e-3, abs_tol=0.06):
            out.append(Witness("consistency", b.name, f"{b.name} restates {a.name}",
                               f"{b.name} {vb} is not {a.name} {va} in its unit"))
    return out



def corrupt_relation(check: Check, args: Mapping[str, Any], body: Mapping[str, Any],
                     key: str) -> dict[str, Any] | None:
    """``body`` with ``check.target`` changed so the relation visibly fails."""
    from toolmaze_gym import hashing

    target = body.get(check.target)
    if check.kind == "not_before" and isinstance(target, str):
        # The same time of day, but the day before the earliest allowed one.
        low = _instant(_operand(check.operands[0], args, body))
        dt = parse_datetime(target)
        if low is None:
            return None
        day = (low - timedelta(days=1)).date()
        moved = dt.replace(year=day.year, month=day.month, day=day.day)
        text = moved.isoformat().replace("+00:00", "Z") if target.endswith("Z") \
            else moved.isoformat()
        return {**body, check.target: text}
    if check.kind == "same_instant" and isinstance(target, str):
        # The local time shifted by an hour under the same offset (a DST slip).
        dt = parse_datetime(target) + timedelta(hours=hashing.choice((-1, 1), "dst", key))
        text = dt.isoformat().replace("+00:00", "Z") if target.endswith("Z") else dt.isoformat()
        return {**body, check.target: text}
    if not is_number(target):
        return None
    factor = hashing.uniform(1.15, 1.6, "relation", key)
    if check.kind == "order":
        low = _operand(check.operands[0], args, body)
        if not is_number(low):
            return None
        bad: float = low - abs(low) * (factor - 1) - 1
    else:
        want = expected(check, args, body)
        if want is None:
            return None
        bad = want * factor + 1
    bad = round(bad) if isinstance(target, int) else round(bad, 2)
    return {**body, check.target: bad}


def corruptible(spec: ToolSpec) -> bool:
    """Whether an implicit fault on this tool can carry a witness."""
    for f in spec.returns:
        if any(c.kind != "entity" or f.echo for c in values.get(f.type).corruptions):
            return True
    return bool(spec.checks)
