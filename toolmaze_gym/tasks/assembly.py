"""DAG assembly: typed, seeded search for task graphs of each level.

Chains grow unit by unit. Every new unit must take the previous slot's main value
(its first computed output: the data-flow edge, legal only between equal types),
which keeps chains about one thing — a price that is converted, formatted and
sent, not a by-product. Other inputs come from earlier slots (identifiers and
other values no query states) or from literals the query will state. Each unit is run
in the clean simulator as it is added, so a candidate that cannot execute is
dropped at once; the finished DAG is then enumerated and validated in full.
"""

from __future__ import annotations

import re
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
# Roles a user states rather than inherits: where to convert, send or translate to.
_TARGET_ROLE = re.compile(r"(^|_)(to|target|quote|dest|destination|into|recipient)(_|$)")
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
# An Action may sit mid-chain only because its confirmation (a hold, a booking
# reference) is what the next step reads; one per task keeps tasks natural.
MAX_MID_ACTIONS = 1


@dataclass
class Draft:
    """A partial DAG: slots so far, what they offer, and the clean state after them."""

    slots: list[Slot] = field(default_factory=list)
    tools: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()  # shown tools and their alternatives
    available: frozenset[str] = frozenset()  # types some slot offers
    mid_actions: int = 0  # Actions whose confirmation feeds a later step
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    primary: dict[str, str] = field(default_factory=dict)  # slot -> type of its main value
    state: EpisodeState = field(default_factory=EpisodeState)
    calls: int = 0

    def new_id(self) -> str:
        return f"s{len(self.slots) + 1}"


@dataclass(frozen=True)
class ChainSpec:
    calls: int  # calls (along s*) this chain adds
    need: tuple[frozenset[str], ...]  # branch slots to place anywhere: allowed kinds each
    domains: frozenset[str]
    final_domains: frozenset[str]
    start_source: bool = True
    end_action: bool = True
    prev: str = ""  # slot the first unit must read from
    also_from: str = ""  # a second slot the first unit must read from (a join)
    subject: str = ""  # a chain that starts from scratch starts in this domain
    mid_actions: int = MAX_MID_ACTIONS
    end_types: frozenset[str] = frozenset()  # the last unit must offer one of these


class Assembler:
    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.corpus = sim.corpus
        self.fixed, self.branch = units_of(self.corpus)
        self.usage: Counter[str] = Counter()
        self.max_use: int | None = None  # a cap on a glue tool's use within a level
        self.glue = frozenset(t for t, s in self.corpus.tools.items() if s.domain == "General")
        self.expansions, self.limit = 0, MAX_EXPANSIONS
        self._peers = {t: frozenset({m for g in self.corpus.groups_of[t] for m in g.tools})
                       for t in self.corpus.tools}
        self._index()

    def _index(self) -> None:
        """Units by the types they read, so each step scans only plausible ones."""
        self.fixed_by_type: dict[str, list[Unit]] = {}
        self.branch_by_type: dict[str, list[Unit]] = {}
        for pool, index in ((self.fixed, self.fixed_by_type), (self.branch, self.branch_by_type)):
            for u in pool:
                for t in u.ext_types:
                    index.setdefault(t, []).append(u)
        self.fixed_starts = [u for u in self.fixed if u.starts_with_source and u.all_literal]
        self.finish = self._finish_costs()
        self.branch_starts = [u for u in self.branch if u.starts_with_source and u.all_literal]

    def _finish_costs(self) -> dict[str, int]:
        """Fewest calls from holding a value of a type to a closing Action.

        A lower bound (domains and literals ignored) used to prune dead ends: a
        unit whose main value cannot reach an Action in the calls left is skipped.
        """
        inf = 1 << 20
        cost: dict[str, int] = {}
        units = self.fixed + self.branch
        changed = True
        while changed:
            changed = False
            for u in units:
                here = u.min_len if u.ends_with_action else u.min_len + cost.get(u.primary, inf)
                for t in u.ext_types:
                    if here < cost.get(t, inf):
                        cost[t] = here
                        changed = True
        return cost

    def restrict(self, banned: set[str]) -> None:
        self.fixed = [u for u in self.fixed if not u.tools & banned]
        self.branch = [u for u in self.branch if not u.tools & banned]
        self._index()

    # -- candidate selection -------------------------------------------------

    def _fits(self, u: Unit, draft: Draft, spec: ChainSpec, i: int, remaining: int,
              prev: str) -> bool:
        if u.min_len > remaining:
            return False
        last = u.min_len == remaining
        if not u.domains <= (spec.final_domains if last else spec.domains):
            return False
        if spec.end_action and last and not u.ends_with_action:
            return False
        if last and spec.end_types and not spec.end_types & set(u.outs):
            return False
        if (spec.end_action and not last
                and self.finish.get(u.primary, 1 << 20) > remaining - u.min_len):
            return False
        acts = u.has_inner_action or (u.ends_with_action and not (spec.end_action and last))
        if acts and draft.mid_actions >= spec.mid_actions:
            return False
        if u.tools & draft.blocked:
            return False
        if self.max_use is not None and any(self.usage[t] >= self.max_use
                                            for t in u.tools if t in self.glue):
            return False
        if i == 0 and not prev:
            if spec.subject and spec.subject not in u.domains:
                return False
            return not spec.start_source or (u.starts_with_source and u.all_literal)
        if not any(e.type == draft.primary[prev] for e in u.ext):
            return False
        if i == 0 and spec.also_from:
            joined = draft.outputs[spec.also_from]
            first = next(k for k, e in enumerate(u.ext) if e.type == draft.primary[prev])
            if not any(e.type in joined for k, e in enumerate(u.ext) if k != first):
                return False
        return u.all_literal or all(e.literal or e.type in draft.available for e in u.ext)

    def _ranked(self, pool: Sequence[Unit], stream: hashing.Stream) -> list[Unit]:
        def score(u: Unit) -> float:
            use = sum(self.usage[t] for t in u.tools) / len(u.tools)
            width = 1.0 if len(u.sides) == 2 or u.kind == "fixed" else 0.35
            return stream.unit() * width / (1.0 + use) ** 3

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
        """Sources for the unit's inputs.

        The previous slot's main value feeds the matching input (the edge); other
        values the previous slot offers travel with it (a quote's currency goes
        with its price), except into target-like roles (``to_currency``), which
        the query states; identifiers come from the latest slot offering them.
        """
        inputs: list[Input] = []
        from_prev = from_also = False
        carried: set[str] = set()
        for e in u.ext:
            if prev and e.type == draft.primary[prev] and not from_prev:
                inputs.append(Input(e.role, e.type, Source("slot", slot=prev, type=e.type)))
                from_prev = True
            elif also and e.type in draft.outputs[also] and not from_also:
                inputs.append(Input(e.role, e.type, Source("slot", slot=also, type=e.type)))
                from_also = True
            elif (prev and e.type in draft.outputs[prev] and e.type not in carried
                  and not _TARGET_ROLE.search(e.role) and not e.enum):
                inputs.append(Input(e.role, e.type, Source("slot", slot=prev, type=e.type)))
                carried.add(e.type)
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
        blocked = draft.blocked | u.tools
        for t in u.tools:
            blocked |= self._peers[t]
        return Draft(slots=[*draft.slots, slot],
                     tools=draft.tools | u.tools, blocked=blocked,
                     available=draft.available | set(out),
                     mid_actions=draft.mid_actions + int(u.has_inner_action or u.ends_with_action),
                     outputs={**draft.outputs, slot.id: out},
                     primary={**draft.primary, slot.id: u.primary}, state=state,
                     calls=draft.calls + u.min_len)

    # -- the search ------------------------------------------------------------

    def grow(self, draft: Draft, spec: ChainSpec, stream: hashing.Stream,
             budget: int = MAX_EXPANSIONS) -> Draft | None:
        """A chain per ``spec`` after ``draft``, or None within ``budget`` expansions."""
        self.expansions, self.limit = 0, budget
        return self._step(draft, spec, stream, 0, spec.calls, spec.prev, spec.need)

    def _step(self, draft: Draft, spec: ChainSpec, stream: hashing.Stream, i: int,
              remaining: int, prev: str, need: tuple[frozenset[str], ...]) -> Draft | None:
        if remaining == 0:
            return None if need else draft
        if self.expansions > self.limit:
            return None
        if prev:
            fixed_pool = self.fixed_by_type.get(draft.primary[prev], [])
            branch_pool = self.branch_by_type.get(draft.primary[prev], [])
        else:
            fixed_pool, branch_pool = self.fixed_starts, self.branch_starts
        fixed = [u for u in fixed_pool if self._fits(u, draft, spec, i, remaining, prev)]
        kinds = frozenset().union(*need) if need else frozenset()
        branch = [u for u in branch_pool
                  if u.kind in kinds and self._fits(u, draft, spec, i, remaining, prev)]
        fixed, branch = self._ranked(fixed, stream)[:8], self._ranked(branch, stream)[:8]
        order = branch + fixed if stream.unit() < 0.5 else fixed + branch
        for u in order:
            self.expansions += 1
            also = spec.also_from if i == 0 else ""
            nxt = self._add(u, draft, prev, also, f"{stream.parts}/{i}/{u.key}")
            if nxt is None:
                continue
            rest = need
            if u.is_branch:
                k = next(j for j, kset in enumerate(need) if u.kind in kset)
                rest = need[:k] + need[k + 1:]
            done = self._step(nxt, spec, stream.fork(i, u.key), i + 1, remaining - u.min_len,
                              nxt.slots[-1].id, rest)
            if done is not None:
                return done
        return None
