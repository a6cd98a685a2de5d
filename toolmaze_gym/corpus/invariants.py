"""Response invariants: the checks a careful reader of the docs can make.

Type invariants (ranges, formats, freshness), entity echoes (the response is
about what was asked) and relations between fields (converted = amount × rate).
The validator agent, the fault engine's witnesses and the tests all use this one
function, so "detectable" means the same thing everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus.spec import Check, ToolSpec
from toolmaze_gym.values import CheckContext, Witness
from toolmaze_gym.world import World


def _operand(ref: str, args: Mapping[str, Any], body: Mapping[str, Any]) -> Any:
    src, name = ref.split(":", 1)
    return (args if src == "arg" else body).get(name)


def expected(check: Check, args: Mapping[str, Any], body: Mapping[str, Any]) -> float | None:
    """The value ``check.target`` must have (None for ``order`` or missing operands)."""
    ops = [_operand(o, args, body) for o in check.operands]
    if any(isinstance(o, bool) or not isinstance(o, int | float) for o in ops):
        return None
    if check.kind == "product":
        return math.prod(ops)
    if check.kind == "quotient":
        return ops[0] / ops[1] if ops[1] else None
    if check.kind == "sum":
        return math.fsum(ops)
    if check.kind == "difference":
        return ops[0] - ops[1]
    return None


def check_relation(check: Check, args: Mapping[str, Any], body: Mapping[str, Any]) -> str | None:
    target = body.get(check.target)
    if isinstance(target, bool) or not isinstance(target, int | float):
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


def violations(spec: ToolSpec, args: Mapping[str, Any], body: Mapping[str, Any],
               world: World) -> list[Witness]:
    """Every documented invariant the response breaks; empty for a clean response."""
    found: list[Witness] = []
    for f in spec.returns:
        if f.name not in body:
            found.append(Witness("consistency", f.name, "field present", "field missing"))
            continue
        t = values.get(f.type)
        msg = t.violation(body[f.name], CheckContext(world, args, body, f.name))
        if msg:
            kind = "stale" if f.type == "timestamp" else "range"
            found.append(Witness(kind, f.name, t.description, msg))
        if f.echo and f.echo in args and not t.same(body[f.name], args[f.echo]):
            found.append(Witness("entity", f.name, f"{f.name} equals the requested {f.echo}",
                                 f"asked for {args[f.echo]!r}, got {body[f.name]!r}"))
    for c in spec.checks:
        msg = check_relation(c, args, body)
        if msg:
            found.append(Witness("consistency", c.target, c.kind, msg))
    return found


def corrupt_relation(check: Check, args: Mapping[str, Any], body: Mapping[str, Any],
                     key: str) -> dict[str, Any] | None:
    """``body`` with ``check.target`` changed so the relation visibly fails."""
    from toolmaze_gym import hashing

    target = body.get(check.target)
    if isinstance(target, bool) or not isinstance(target, int | float):
        return None
    factor = hashing.uniform(1.15, 1.6, "relation", key)
    if check.kind == "order":
        low = _operand(check.operands[0], args, body)
        if isinstance(low, bool) or not isinstance(low, int | float):
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
