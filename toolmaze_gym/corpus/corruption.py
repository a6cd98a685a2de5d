"""Plausible, detectable corruptions of a tool response (the material of implicit faults).

A recipe names one way to make a clean response wrong while keeping it
well-formed and in range, the way real services go wrong:

* ``entity:<field>`` — the answer is about another entity (asked Paris, got Lyon):
  the request is re-run for a neighbouring entity, so every value is that
  entity's; the echoed ``<field>`` gives it away.
* ``check:<k>`` — fields contradict each other: the documented relation ``k``
  (converted = amount × rate) no longer holds.
* ``trunc:<field>`` — a text cut short (a truncated summary), so the documented
  word or item count no longer matches it.
* ``stale:<field>`` — stale data: the observation time is days old and the
  values are what they were then.
* ``unit:<field>`` — a value in the wrong unit (cents as units, °F as °C, hours
  as minutes), caught by a documented relation, echo or second field.
* ``type:<field>:<name>`` — blatant markers (a negative amount, a ``{{placeholder}}``):
  kept as a last resort when nothing plausible fits.

A recipe is usable only if the documented invariants then catch it (the witness).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from typing import Any

from toolmaze_gym import hashing, values
from toolmaze_gym.corpus import adapters
from toolmaze_gym.corpus.invariants import corrupt_relation, violations
from toolmaze_gym.corpus.spec import ToolSpec
from toolmaze_gym.values import CheckContext, Witness
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.world import World

# The plausible fault kinds, and the blatant ones kept as a small minority.
FAULT_KINDS = ("entity", "consistency", "stale", "unit")
BLATANT_KINDS = ("range", "placeholder")
_PREFIX_KIND = {"entity": "entity", "check": "consistency", "trunc": "consistency",
                "stale": "stale", "unit": "unit"}
TIME_TYPES = ("timestamp", "unix_time")

# A unit slip per quantity: the value another convention would give.
UNIT_SLIPS: dict[str, str] = {
    "money_amount": "to_cents", "temperature_c": "c_to_f", "temperature_f": "f_to_c",
    "distance_km": "km_to_mi", "distance_mi": "mi_to_km", "weight_kg": "kg_to_lb",
    "weight_lb": "lb_to_kg", "duration_minutes": "minutes_to_hours",
    "duration_hours": "hours_to_minutes", "percentage": "pct_to_fraction",
    "wind_kph": "kph_to_mph", "wind_mph": "mph_to_kph", "amount_minor_units": "from_cents",
}

# Re-runs the call with other arguments (same episode state); None if it fails.
Rerun = Callable[[dict[str, Any]], "dict[str, Any] | None"]


def recipe_kind(recipe: str) -> str:
    """The fault kind a recipe produces (one of FAULT_KINDS or BLATANT_KINDS)."""
    prefix, _, rest = recipe.partition(":")
    if prefix in _PREFIX_KIND:
        return _PREFIX_KIND[prefix]
    return "placeholder" if rest.endswith(":placeholder") else "range"


def _entity_param(spec: ToolSpec, field: str) -> str | None:
    f = spec.output(field)
    if f is None or not f.echo or spec.param(f.echo) is None:
        return None
    t = values.get(spec.param(f.echo).type)  # type: ignore[union-attr]
    return f.echo if any(c.kind == "entity" for c in t.corruptions) else None


def corruption_options(spec: ToolSpec, read: Collection[str] | None = None) -> dict[str, list[str]]:
    """Recipes by kind that can change a field in ``read`` (None: any field).

    Entity and stale recipes change every value, so they only need some read
    field; the others corrupt the read field itself.
    """
    def ok(name: str) -> bool:
        return read is None or name in read

    out: dict[str, list[str]] = {k: [] for k in (*FAULT_KINDS, "blatant")}
    values_read = any(ok(f.name) and not f.echo for f in spec.returns)
    for f in spec.returns:
        if _entity_param(spec, f.name) and values_read:
            out["entity"].append(f"entity:{f.name}")
        if f.type in TIME_TYPES and values_read:
            out["stale"].append(f"stale:{f.name}")
        if f.type in UNIT_SLIPS and not f.echo and ok(f.name):
            out["unit"].append(f"unit:{f.name}")
        if ok(f.name) and not f.echo:
            out["blatant"] += [f"type:{f.name}:{c.name}" for c in values.get(f.type).corruptions
                               if c.kind != "entity"]
    for k, c in enumerate(spec.checks):
        if ok(c.target):
            out["consistency"].append(f"check:{k}")
        if c.kind in ("words", "items"):
            text = c.operands[0].split(":", 1)[1]
            if c.operands[0].startswith("field:") and ok(text):
                out["consistency"].append(f"trunc:{text}")
    return out


def _truncated(body: dict[str, Any], field: str) -> dict[str, Any] | None:
    """The text cut after half its words (or half its '; '-separated items)."""
    text = body.get(field)
    if not isinstance(text, str):
        return None
    items = text.split("; ")
    if len(items) > 1:
        return {**body, field: "; ".join(items[: len(items) // 2])}
    words = text.split()
    return None if len(words) < 2 else {**body, field: " ".join(words[: len(words) // 2])}


def _stale_body(spec: ToolSpec, field: str, args: Mapping[str, Any], body: dict[str, Any],
                world: World, key: str) -> dict[str, Any] | None:
    """The response as it was days ago: old observation time, values drifted since."""
    f = spec.output(field)
    if f is None or field not in body:
        return None
    stale = next(c for c in values.get(f.type).corruptions if c.kind == "stale")
    out = stale.fn(body[field], CheckContext(world, args, body, field), key)
    if out is None:
        return None
    bad = {**body, field: out[0]}
    factor = 1 + hashing.choice((-1, 1), "drift-sign", key) * hashing.uniform(0.04, 0.15,
                                                                              "drift", key)
    for g in spec.returns:
        v = body.get(g.name)
        if g.echo or g.type in TIME_TYPES or not is_number(v) or not v:
            continue
        drifted = round(v * factor) if isinstance(v, int) else round(v * factor, 2)
        t = values.get(g.type)
        if drifted != v and not t.violation(drifted, CheckContext(world, args, bad, g.name)) \
                and not g.limits.violation(drifted):
            bad[g.name] = drifted
    return bad


ENTITY_TRIES = 6


def _entity_body(spec: ToolSpec, field: str, args: Mapping[str, Any], body: dict[str, Any],
                 world: World, key: str, rerun: Rerun | None) -> dict[str, Any] | None:
    """The same request answered for a neighbouring entity: of a few tried, the one
    whose facts differ most (two cities may share a shipping zone)."""
    pname = _entity_param(spec, field)
    if pname is None or rerun is None or pname not in args:
        return None
    t = values.get(spec.param(pname).type)  # type: ignore[union-attr]
    swap = next(c for c in t.corruptions if c.kind == "entity")
    facts = {f.name for f in spec.returns if not f.echo}
    best, differs = None, 0
    for attempt in range(ENTITY_TRIES):
        out = swap.fn(args[pname], CheckContext(world, args, {}, pname), f"{key}/{attempt}")
        other = None if out is None else rerun({**args, pname: out[0]})
        n = 0 if other is None else len(changed_fields(body, other) & facts)
        if n > differs:
            best, differs = other, n
    return best


def _unit_body(spec: ToolSpec, field: str, body: dict[str, Any]) -> dict[str, Any] | None:
    f = spec.output(field)
    if f is None or not is_number(body.get(field)) or f.type not in UNIT_SLIPS:
        return None
    bad = adapters.apply(UNIT_SLIPS[f.type], body[field])
    if isinstance(body[field], int) and not isinstance(bad, int):
        bad = round(bad)
    return None if bad == body[field] else {**body, field: bad}


def apply_recipe(spec: ToolSpec, recipe: str, args: Mapping[str, Any], body: dict[str, Any],
                 world: World, key: str, rerun: Rerun | None = None) -> dict[str, Any] | None:
    """The corrupted body, or None where the recipe does not apply to this response.

    ``rerun`` re-runs the call with other arguments (wrong-entity faults need it).
    """
    kind, _, rest = recipe.partition(":")
    if kind == "check":
        return corrupt_relation(spec.checks[int(rest)], args, body, key)
    if kind == "entity":
        return _entity_body(spec, rest, args, body, world, key, rerun)
    if kind == "stale":
        return _stale_body(spec, rest, args, body, world, key)
    if kind == "unit":
        return _unit_body(spec, rest, body)
    if kind == "trunc":
        return _truncated(body, rest)
    field, _, cname = rest.partition(":")
    f = spec.output(field)
    if f is None or field not in body:
        return None
    corruption = next((c for c in values.get(f.type).corruptions if c.name == cname), None)
    if corruption is None:
        return None
    out = corruption.fn(body[field], CheckContext(world, args, body, field), key)
    return None if out is None else {**body, field: out[0]}


def witness_for(spec: ToolSpec, args: Mapping[str, Any], corrupted: Mapping[str, Any],
                world: World, recipe: str = "") -> Witness | None:
    """The documented invariant the corrupted response breaks: the one on the
    recipe's own field if broken there, else the first. The witness says how the
    fault shows (its kind is the broken invariant's); ``recipe_kind`` says what the
    fault is."""
    found = violations(spec, args, corrupted, world)
    if not found:
        return None
    field = recipe.split(":")[1] if recipe.count(":") else ""
    if recipe.startswith("check:"):
        field = spec.checks[int(field)].target
    return next((w for w in found if w.field == field), found[0])


def plausible(spec: ToolSpec, args: Mapping[str, Any], corrupted: Mapping[str, Any],
              world: World) -> bool:
    """Well-formed and in range: no value breaks its type or documented limits
    (a stale observation time is the one type-level finding allowed)."""
    found = violations(spec, args, corrupted, world)
    return bool(found) and all(w.kind != "range" for w in found)


def changed_fields(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    out = set()
    for k, v in after.items():
        w = before.get(k)
        if is_number(v) and is_number(w):
            if not math.isclose(v, w, rel_tol=1e-9, abs_tol=1e-9):
                out.add(k)
        elif v != w:
            out.add(k)
    return out


def detectable(spec: ToolSpec, args: Mapping[str, Any], body: dict[str, Any],
               world: World, rerun: Rerun | None = None) -> bool:
    """Whether some recipe corrupts this response with a witness. Wrong-entity
    faults re-run the call, so without ``rerun`` they are not counted. (Whether a
    task can carry its implicit faults is decided by ``faults.profiles``.)"""
    for recipes in corruption_options(spec).values():
        for recipe in recipes:
            bad = apply_recipe(spec, recipe, args, body, world, "probe", rerun)
            if bad is not None and witness_for(spec, args, bad, world) is not None:
                return True
    return False
