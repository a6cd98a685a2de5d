"""Capabilities: what a scenario step asks the corpus to do, and the ways to do it.

A scenario names a step's capability either by a behaviour (``finance.quote``:
every tool with that behaviour does the same thing, whatever its interface) or by
an alternative group id (``gen_current_report``: a composite such as "fetch the
weather, then write it up"). Arguments are bound by the behaviour's canonical
argument names (``Param.arg``) and results are read by canonical keys
(``OutputField.key``), never by one provider's field names, so a scenario keeps
its meaning when providers differ in interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from toolmaze_gym.corpus import AltGroup, Corpus
from toolmaze_gym.tasks.execution import plan_side, side_externals

SINGLE_KINDS = frozenset({"one_to_one", "one_to_n"})
Side = tuple[str, ...]


@dataclass(frozen=True)
class Capability:
    """One thing a step can ask for: its sides (ways to do it) and branch groups."""

    name: str
    domain: str
    sides: tuple[Side, ...]  # every way to do it; a fixed slot holds one of them
    groups: tuple[AltGroup, ...]  # groups whose sides all do it (branch slots)

    @property
    def tools(self) -> frozenset[str]:
        return frozenset(t for side in self.sides for t in side)


def _by_behaviour(corpus: Corpus, behaviour: str) -> Capability:
    tools = sorted(t for t, s in corpus.tools.items() if s.behaviour == behaviour)
    singles = [g for g in corpus.groups if g.kind in SINGLE_KINDS
               and all(len(side) == 1 and corpus[side[0]].behaviour == behaviour
                       for side in g.members)]
    # A composite group belongs here when one of its sides is a single tool with
    # this behaviour: its other sides reach the same result another way.
    composites = [g for g in corpus.groups if g.kind == "n_to_n"
                  and any(len(side) == 1 and corpus[side[0]].behaviour == behaviour
                          for side in g.members)]
    sides = [(t,) for t in tools]
    for g in composites:
        sides += [side for side in g.members if side not in sides]
    groups = sorted(singles + composites, key=lambda g: g.id)
    return Capability(behaviour, corpus[tools[0]].domain, tuple(sides), tuple(groups))


def _by_group(corpus: Corpus, group: AltGroup) -> Capability:
    return Capability(group.id, group.domain, group.members, (group,))


@cache
def capabilities(corpus: Corpus) -> dict[str, Capability]:
    """Every capability of the corpus: one per behaviour, one per group id."""
    out = {b: _by_behaviour(corpus, b)
           for b in sorted({s.behaviour for s in corpus.tools.values()})}
    for g in sorted(corpus.groups, key=lambda g: g.id):
        out[g.id] = _by_group(corpus, g)
    return out


def role_types(corpus: Corpus, cap: Capability) -> dict[str, set[str]]:
    """Canonical argument -> the semantic types the capability's tools give it."""
    out: dict[str, set[str]] = {}
    for t in sorted(cap.tools):
        for p in corpus[t].params:
            out.setdefault(p.canonical, set()).add(p.type)
    return out


def key_types(corpus: Corpus, cap: Capability) -> dict[str, list[str]]:
    """Canonical result key -> its semantic types, from the final tool of each side
    (the value a step hands on), most common type first."""
    seen: dict[str, dict[str, int]] = {}
    for side in cap.sides:
        for f in corpus[side[-1]].returns:
            counts = seen.setdefault(f.canonical, {})
            counts[f.type] = counts.get(f.type, 0) + 1
    return {k: sorted(c, key=lambda t: (-c[t], t)) for k, c in seen.items()}


def side_fits(corpus: Corpus, side: Side, inputs: Sequence[tuple[str, str]],
              reads: Sequence[tuple[str, str]]) -> bool:
    """Whether ``side`` takes exactly ``inputs`` ((role, type) pairs) and its final
    tool returns every (key, type) in ``reads``."""
    if plan_side(corpus, side, inputs) is None:
        return False
    externals = side_externals(corpus, side)
    for role, type_ in inputs:
        if _binds_role(corpus, side, role, type_):
            continue
        # Providers may name one concept differently (a product ``query`` here, its
        # ``name`` there); that is accepted only where the type leaves no doubt.
        if (sum(t == type_ for _, t in externals) != 1
                or sum(t == type_ for _, t in inputs) != 1):
            return False
    have = {(f.canonical, f.type) for f in corpus[side[-1]].returns}
    return all(r in have for r in reads)


def _binds_role(corpus: Corpus, side: Side, role: str, type_: str) -> bool:
    """A scenario's argument must reach a parameter of that canonical name: binding
    a ``principal`` into an ``amount`` merely because both are money is refused."""
    return any(p.canonical == role and p.type == type_ for t in side for p in corpus[t].params)


def describe(corpus: Corpus, cap: Capability) -> str:
    """A capability as a scenario author needs it: arguments, result keys, tools."""
    need: dict[str, set[str]] = {}
    for side in cap.sides:  # what a step binds: the sides' external inputs
        for role, type_ in side_externals(corpus, side):
            need.setdefault(role, set()).add(type_)
    optional = {p.canonical: p.type for side in cap.sides if len(side) == 1
                for p in corpus[side[0]].params if not p.required and p.canonical not in need}
    args = ", ".join([f"{r}: {'|'.join(sorted(ts))}" for r, ts in sorted(need.items())]
                     + [f"{r}: {t} (optional)" for r, t in sorted(optional.items())])
    keys = ", ".join(f"{k}: {'|'.join(ts)}" for k, ts in sorted(key_types(corpus, cap).items()))
    kinds = sorted({corpus[side[-1]].category for side in cap.sides})
    sides = " | ".join(" -> ".join(side) for side in cap.sides)
    groups = ", ".join(f"{g.id} ({g.kind})" for g in cap.groups) or "none"
    return (f"{cap.name}  [{cap.domain}, {'/'.join(kinds)}]\n  args: {args}\n"
            f"  returns: {keys}\n  done by: {sides}\n  branch groups: {groups}")
