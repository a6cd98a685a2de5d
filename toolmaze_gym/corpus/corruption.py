"""Detectable corruptions of a tool response (the material of implicit faults).

A recipe names one way to make a clean response wrong while keeping it
well-formed: a type-level corruption of one field (range, unit, staleness,
entity) or a broken relation between fields. A recipe is usable only if the
documented invariants then catch it — the witness.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus.invariants import corrupt_relation, violations
from toolmaze_gym.corpus.spec import ToolSpec
from toolmaze_gym.values import CheckContext, Witness
from toolmaze_gym.world import World


def corruption_options(spec: ToolSpec, consumed: set[str]) -> list[list[str]]:
    """Recipes by preference tier: fields read downstream first, then any field.

    A recipe is ``"type:<field>:<corruption>"`` or ``"check:<target>"``.
    """
    tiers: list[list[str]] = [[], []]
    for f in spec.returns:
        tier = 0 if f.type in consumed else 1
        for c in values.get(f.type).corruptions:
            if c.kind != "entity" or f.echo:
                tiers[tier].append(f"type:{f.name}:{c.name}")
    for k, c in enumerate(spec.checks):
        target = spec.output(c.target)
        tier = 0 if target is not None and target.type in consumed else 1
        tiers[tier].append(f"check:{k}")
    return tiers


def apply_recipe(spec: ToolSpec, recipe: str, args: Mapping[str, Any], body: dict[str, Any],
                 world: World, key: str) -> dict[str, Any] | None:
    """The corrupted body, or None where the recipe does not apply to this response."""
    kind, _, rest = recipe.partition(":")
    if kind == "check":
        return corrupt_relation(spec.checks[int(rest)], args, body, key)
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
                world: World) -> Witness | None:
    """The first documented invariant the corrupted response breaks."""
    found = violations(spec, args, corrupted, world)
    return found[0] if found else None


def detectable(spec: ToolSpec, args: Mapping[str, Any], body: dict[str, Any],
               world: World) -> bool:
    """Whether some recipe corrupts this response with a witness."""
    for tier in corruption_options(spec, set()):
        for recipe in tier:
            bad = apply_recipe(spec, recipe, args, body, world, "probe")
            if bad is not None and witness_for(spec, args, bad, world) is not None:
                return True
    return False
