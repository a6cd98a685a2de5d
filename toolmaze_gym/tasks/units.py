"""Building blocks of task DAGs: a fixed tool or an alternative group.

A unit is what one slot can hold. Units are derived once from the corpus; a
branch unit is a group restricted to the sides shown to the agent, kept only if
every side binds the same external inputs and no hidden side is completable
from the shown tools (so the solution space stays exact). Sides must not share
a tool: a permanent fault on a shared tool would leave no alternative.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from toolmaze_gym import values
from toolmaze_gym.corpus import AltGroup, Corpus
from toolmaze_gym.tasks.execution import plan_side, side_externals


@dataclass(frozen=True)
class Ext:
    """An external input of a unit: its role, type and closed value set if any."""

    role: str
    type: str
    enum: tuple[str, ...] = ()

    @property
    def literal(self) -> bool:
        return bool(self.enum) or values.get(self.type).literal


@dataclass(frozen=True)
class Unit:
    key: str
    kind: str  # "fixed" | "one_to_one" | "one_to_n" | "n_to_n"
    group: str
    sides: tuple[tuple[str, ...], ...]
    ext: tuple[Ext, ...]
    outs: tuple[str, ...]
    primary: str  # the type of the main value the unit hands to the next step
    domains: frozenset[str]
    starts_with_source: bool
    ends_with_action: bool
    has_inner_action: bool  # an Action anywhere but at the very end of a side
    min_len: int
    reference_side: int  # the side s* uses: shortest, then first
    tools: frozenset[str]
    ext_types: frozenset[str]
    all_literal: bool

    @property
    def is_branch(self) -> bool:
        return self.kind != "fixed"


def _externals(corpus: Corpus, side: tuple[str, ...]) -> tuple[Ext, ...]:
    out = []
    for role, type_ in side_externals(corpus, side):
        spec_param = next(p for t in side for p in corpus[t].params
                          if p.canonical == role and p.type == type_)
        out.append(Ext(role, type_, spec_param.enum))
    return tuple(out)


def _unit(corpus: Corpus, key: str, kind: str, group: str,
          sides: tuple[tuple[str, ...], ...], outs: tuple[str, ...]) -> Unit | None:
    ref = min(range(len(sides)), key=lambda i: (len(sides[i]), i))
    ext = _externals(corpus, sides[ref])
    pairs = [(e.role, e.type) for e in ext]
    if any(plan_side(corpus, side, pairs) is None for side in sides):
        return None
    cats = [[corpus[t].category for t in side] for side in sides]
    if not outs:
        return None
    return Unit(
        key=key, kind=kind, group=group, sides=sides, ext=ext, outs=outs, primary=outs[0],
        domains=frozenset(corpus[t].domain for side in sides for t in side),
        starts_with_source=all(c[0] == "Source" for c in cats),
        ends_with_action=all(c[-1] == "Action" for c in cats),
        has_inner_action=any("Action" in c[:-1] for c in cats),
        min_len=len(sides[ref]), reference_side=ref,
        tools=frozenset(t for s in sides for t in s),
        ext_types=frozenset(e.type for e in ext), all_literal=all(e.literal for e in ext))


def _exact(group: AltGroup, chosen: tuple[tuple[str, ...], ...]) -> bool:
    shown = {t for side in chosen for t in side}
    return all(side in chosen or not set(side) <= shown for side in group.members)


def disjoint_sides(sides: Sequence[Sequence[str]]) -> bool:
    """Sides sharing a tool are not alternatives under a fault on that tool."""
    seen: set[str] = set()
    for side in sides:
        if seen & set(side):
            return False
        seen |= set(side)
    return True


def _branch_units(corpus: Corpus, group: AltGroup) -> list[Unit]:
    sides = group.members
    subsets = [sides] if len(sides) <= 3 else []
    if len(sides) >= 3:
        subsets += list(itertools.combinations(sides, 2))
    units = []
    for i, chosen in enumerate(subsets):
        if not _exact(group, chosen) or not disjoint_sides(chosen):
            continue
        u = _unit(corpus, f"{group.id}#{i}", group.kind, group.id, tuple(chosen),
                  group.provides)
        if u is not None:
            units.append(u)
    return units


@cache
def units_of(corpus: Corpus) -> tuple[list[Unit], list[Unit]]:
    """(fixed units, branch units) of the corpus, in a deterministic order."""
    fixed = []
    for name in sorted(corpus.tools):
        spec = corpus[name]
        outs = tuple(dict.fromkeys(f.type for f in spec.returns if not f.echo))
        u = _unit(corpus, name, "fixed", "", ((name,),), outs)
        if u is not None:
            fixed.append(u)
    branch = [u for g in sorted(corpus.groups, key=lambda g: g.id)
              for u in _branch_units(corpus, g)]
    return fixed, branch
