"""DAG assembly: typed, seeded search for task graphs of each level.

Chains grow unit by unit. Every new unit must take at least one input from the
previous slot (the data-flow edge, legal only between equal types); other inputs
come from earlier slots or from literals the query will state. Each unit is run
in the clean simulator as it is added, so a candidate that cannot execute is
dropped at once; the finished DAG is then enumerated and validated in full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym import hashing, values
from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.tasks.execution import ExecutionError, run_slot
from toolmaze_gym.tasks.model import Input, Slot, Source
from toolmaze_gym.tasks.units import Unit, units_of

SINGLE = frozenset({"one_to_one", "one_to_n"})
MULTI = frozenset({"n_to_n"})

# Distributions of len(s*) per level, chosen to match the paper's Table 1
# (mean 5.30, 5.75, 6.66, 11.0; ranges 5-7, 5-9, 6-10, 8-15).
LENGTHS: dict[str, dict[int, float]] = {
    "C1": {5: 0.75, 6: 0.2, 7: 0.05},
    "C2": {5: 0.45, 6: 0.4, 7: 0.1, 8: 0.03, 9: 0.02},
    "C3": {6: 0.55, 7: 0.3, 8: 0.1, 9: 0.03, 10: 0.02},
    "C4": {8: 0.06, 9: 0.12, 10: 0.2, 11: 0.24, 12: 0.18, 13: 0.1, 14: 0.06, 15: 0.04},
}
MAX_EXPANSIONS = 1500


@dataclass
class Draft:
    """A partial DAG: slots so far, what they offer, and the clean state after them."""

    slots: list[Slot] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    state: EpisodeState = field(default_factory=EpisodeState)
    calls: int = 0

    @property
    def tools(self) -> set[str]:
        return {t for u in self.units for t in u.tools}

    def new_id(self) -> str:
        return f"s{len(self.slots) + 1}"


@dataclass(frozen=True)
class ChainSpec:
    calls: int  # calls (along s*) this chain adds
    branches: dict[int, frozenset[str]]  # unit index -> allowed group kinds
    domains: frozenset[str]
    final_domains: frozenset[str]
    start_source: bool = True
    end_action: bool = True
    prev: str = ""  # slot the first unit must read from
    also_from: str = ""  # a second slot the first unit must read from (a join)


class Assembler:
    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.corpus = sim.corpus
        self.fixed, self.branch = units_of(self.corpus)
        self.usage: Counter[str] = Counter()
        self.expansions = 0
        self._peers = {t: {m for g in self.corpus.groups_of[t] for m in g.tools} - {t}
                       for t in self.corpus.tools}

    # -- candidate selection -------------------------------------------------

    def _fits(self, u: Unit, draft: Draft, spec: ChainSpec, i: int, remaining: int,
              kinds: frozenset[str] | None, prev: str) -> bool:
        if (kinds is not None and u.kind not in kinds) or (kinds is None and u.is_branch):
            return False
        if u.min_len > remaining:
            return False
        last = u.min_len == remaining
        if not u.domains <= (spec.final_domains if last else spec.domains):
            return False
        if spec.end_action:
            if last and not u.ends_with_action:
                return False
            if not last and (u.ends_with_action or u.has_inner_action):
                return False
        elif u.ends_with_action or u.has_inner_action:
            return False
        shown = draft.tools
        if u.tools & shown or any(self._peers[t] & shown for t in u.tools):
            return False
        if i == 0 and not prev:
            return not spec.start_source or (u.starts_with_source and all(e.literal for e in u.ext))
        if not any(e.type in draft.outputs[prev] for e in u.ext):
            return False
        if i == 0 and spec.also_from and (
                len(u.ext) < 2 or not any(e.type in draft.outputs[spec.also_from] for e in u.ext)):
            return False
        available = {t for out in draft.outputs.values() for t in out}
        return all(e.literal or e.type in available for e in u.ext)

    def _ranked(self, pool: Sequence[Unit], stream: hashing.Stream) -> list[Unit]:
        def score(u: Unit) -> float:
            use = sum(self.usage[t] for t in u.tools) / len(u.tools)
            width = 1.0 if len(u.sides) == 2 or u.kind == "fixed" else 0.35
            return stream.unit() * width / (1.0 + use) ** 2

        return sorted(pool, key=score, reverse=True)

    # -- binding and execution -------------------------------------------------

    def _literal(self, e, draft: Draft, key: str) -> Any:
        if e.enum:
            return hashing.choice(e.enum, key)
        taken = {str(v) for out in draft.outputs.values() for t, v in out.items() if t == e.type}
        taken |= {str(i.source.value) for s in draft.slots for i in s.inputs
                  if i.source.is_literal and i.type == e.type}
        t = values.get(e.type)
        for attempt in range(6):
            v = t.sample(self.sim.world, f"{key}/{attempt}")
            if str(v) not in taken:
                return v
        return v

    def _bind(self, u: Unit, draft: Draft, prev: str, also: str, key: str) -> list[Input] | None:
        inputs: list[Input] = []
        from_prev = from_also = False
        for e in u.ext:
            if prev and e.type in draft.outputs[prev] and not from_prev:
                inputs.append(Input(e.role, e.type, Source("slot", slot=prev, type=e.type)))
                from_prev = True
            elif also and e.type in draft.outputs[also] and not from_also:
                inputs.append(Input(e.role, e.type, Source("slot", slot=also, type=e.type)))
                from_also = True
            elif not e.literal:
                src = next((s.id for s in reversed(draft.slots) if e.type in draft.outputs[s.id]),
                           None)
                if src is None:
                    return None
                inputs.append(Input(e.role, e.type, Source("slot", slot=src, type=e.type)))
            else:
                value = self._literal(e, draft, f"{key}/{e.role}")
                inputs.append(Input(e.role, e.type, Source("literal", value=value)))
        if (prev and not from_prev) or (also and not from_also):
            return None
        return inputs

    def _add(self, u: Unit, draft: Draft, prev: str, also: str, key: str) -> Draft | None:
        inputs = self._bind(u, draft, prev, also, key)
        if inputs is None:
            return None
        slot = Slot(draft.new_id(), u.sides, tuple(inputs), u.group)
        state = draft.state.copy()
        provides = u.outs if u.is_branch else ()
        try:
            _, out = run_slot(self.sim, slot, u.sides[u.reference_side], draft.outputs, state,
                              provides)
        except ExecutionError:
            return None
        return Draft(slots=[*draft.slots, slot], units=[*draft.units, u],
                     outputs={**draft.outputs, slot.id: out}, state=state,
                     calls=draft.calls + u.min_len)

    # -- the search ------------------------------------------------------------

    def grow(self, draft: Draft, spec: ChainSpec, stream: hashing.Stream) -> Draft | None:
        return self._step(draft, spec, stream, 0, spec.calls, spec.prev)

    def _step(self, draft: Draft, spec: ChainSpec, stream: hashing.Stream, i: int,
              remaining: int, prev: str) -> Draft | None:
        if remaining == 0:
            return draft if all(j < i for j in spec.branches) else None
        if self.expansions > MAX_EXPANSIONS:
            return None
        kinds = spec.branches.get(i)
        pool = [u for u in (self.branch if kinds else self.fixed)
                if self._fits(u, draft, spec, i, remaining, kinds, prev)]
        for u in self._ranked(pool, stream)[:12]:
            self.expansions += 1
            also = spec.also_from if i == 0 else ""
            nxt = self._add(u, draft, prev, also, f"{stream.parts}/{i}/{u.key}")
            if nxt is None:
                continue
            done = self._step(nxt, spec, stream.fork(i, u.key), i + 1, remaining - u.min_len,
                              nxt.slots[-1].id)
            if done is not None:
                return done
        return None

    def reset_budget(self) -> None:
        self.expansions = 0
