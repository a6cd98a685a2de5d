"""Scenario -> task: the meaning-first generator of toolmaze-v15 (and v2–v14 before it).

A scenario fixes what the task is about (the goal, its parameters, the steps and
how their arguments are bound); the generator fixes how it is done: it draws the
parameters from the world, chooses per step a tool (a fixed slot) or an
alternative group (a branch slot) so that the DAG has the level's pattern, runs
the clean simulator over every valid path, fills one phrasing with the drawn
literals, and emits the task only if it is exact (every shown tool that could do
a step is one of its alternatives), structurally valid for its level, able to
carry every fault mode, and solvable from what the agent sees.

Every random choice comes from ``hashing.Stream`` keyed by the caller's seed, so
the same seed gives the same tasks on every machine.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import networkx as nx

from toolmaze_gym import hashing, values
from toolmaze_gym.corpus import Corpus, EpisodeState, Simulator
from toolmaze_gym.corpus.corruption import detectable
from toolmaze_gym.mentions import FREE_TEXT, mentions_all, unlabelled
from toolmaze_gym.tasks import coherence
from toolmaze_gym.tasks.assembly import LENGTHS
from toolmaze_gym.tasks.capabilities import (
    SINGLE_KINDS,
    Side,
    capabilities,
    key_types,
    role_types,
    side_fits,
)
from toolmaze_gym.tasks.data_words import data_word_problems
from toolmaze_gym.tasks.enumeration import default_index, enumerate_solutions
from toolmaze_gym.tasks.execution import ExecutionError, run_slot, topological_order
from toolmaze_gym.tasks.generator import signature
from toolmaze_gym.tasks.model import Input, Slot, Source, Task
from toolmaze_gym.tasks.people_words import country_adjective, country_in, say_amount
from toolmaze_gym.tasks.plurals import plural_name
from toolmaze_gym.tasks.premises import draw_lookup, violations
from toolmaze_gym.tasks.queries import SWITCH_ROLES, say_as
from toolmaze_gym.tasks.request_words import machine_words
from toolmaze_gym.tasks.scenarios import (
    DEFAULT_STATES,
    RECORD_STATES,
    ArgSpec,
    Scenario,
    phrase_hole,
)
from toolmaze_gym.tasks.solvability import solvability_problems
from toolmaze_gym.tasks.units import disjoint_sides
from toolmaze_gym.tasks.validation import _parallel, slot_graph
from toolmaze_gym.values.types import CheckContext

GENERATOR_VERSION = "2.0"
RANGES = {"C1": (5, 7), "C2": (5, 9), "C3": (6, 10), "C4": (8, 15)}
TARGET_PATHS = 6  # C4: the paper's 6 valid paths per task on average
CANDIDATES = 48  # realisations sampled per parameter draw
BUILDS = 10  # realisations tried (built and checked) per parameter draw
# How strongly earlier tasks' tool usage steers the choice of providers: the
# exponent for one step's tool, the weight of a whole realisation's mean usage.
PICK_STEER = 2.0
ACTION_BRANCH = 1.0  # score penalty for a branch whose sides all end in an Action
USAGE_WEIGHT = 0.5
COHERENCE_REDRAWS = 30  # extra parameter draws a task may use up on incoherent worlds


class ScenarioBuildError(Exception):
    """This scenario cannot be built with these choices (the reason is the message)."""


class PremiseContradicted(ScenarioBuildError):
    """The drawn data denies a premise the query states: another draw is needed
    (the world facts, not the choice of tools, decide it)."""


class Incoherent(PremiseContradicted):
    """The drawn facts make a world nobody lives in (``tasks.coherence``): an SMS to a
    landline, a summer high of 13 °C. Another draw is needed; up to
    ``COHERENCE_REDRAWS`` such draws per task do not count against its tries, since
    some facts (a directory with few mobiles) are rarely right on the first draw."""


class FaultlessBranch(ScenarioBuildError):
    """A branch slot whose sides cannot all carry an implicit fault: another step
    should branch instead (``slots`` are the offending slot ids)."""

    def __init__(self, message: str, slots: Sequence[str]) -> None:
        super().__init__(message)
        self.slots = tuple(slots)


@dataclass(frozen=True)
class Option:
    """How one step is done in a task: a fixed side, or a group's shown sides."""

    kind: str  # "fixed" | "one_to_one" | "one_to_n" | "n_to_n"
    sides: tuple[Side, ...]
    group: str = ""
    # Reads ((key, type)) a branch hands on by type: its sides name the value
    # differently (estimated_cost | market_value) but each returns exactly one of
    # the type the group provides, so the value is that one whichever side ran.
    by_type: frozenset[tuple[str, str]] = frozenset()

    @property
    def is_branch(self) -> bool:
        return self.kind != "fixed"

    @property
    def tools(self) -> frozenset[str]:
        return frozenset(t for s in self.sides for t in s)

    @property
    def min_len(self) -> int:
        return min(len(s) for s in self.sides)


@dataclass(frozen=True)
class StepIO:
    """What a step takes ((role, type) pairs) and what later steps read from it."""

    inputs: tuple[tuple[str, str], ...]
    reads: tuple[tuple[str, str], ...]


# ---------------------------------------------------------------- static plan


def _arg_type(corpus: Corpus, sc: Scenario, step_use: str, a: ArgSpec) -> str:
    caps = capabilities(corpus)
    roles = role_types(corpus, caps[step_use]).get(a.role, set())
    if a.kind == "param":
        return sc.param_by_name[a.ref].type
    if a.kind == "text":
        return "text"
    up = caps[sc.step_by_id[a.step].use]
    offered = key_types(corpus, up).get(a.key, [])
    both = [t for t in offered if t in roles]
    return both[0] if both else (offered[0] if offered else "")


def _mention_type(corpus: Corpus, sc: Scenario, ref: str) -> str:
    if "." not in ref:
        return sc.param_by_name[ref].type
    step, key = ref.split(".", 1)
    return key_types(corpus, capabilities(corpus)[sc.step_by_id[step].use])[key][0]


def step_io(corpus: Corpus, sc: Scenario) -> dict[str, StepIO]:
    reads: dict[str, list[tuple[str, str]]] = {s.id: [] for s in sc.steps}
    inputs: dict[str, list[tuple[str, str]]] = {}
    for s in sc.steps:
        inputs[s.id] = [(a.role, _arg_type(corpus, sc, s.use, a)) for a in s.args]
        for a in s.args:
            if a.kind == "field":
                pair = (a.key, _arg_type(corpus, sc, s.use, a))
                if pair not in reads[a.step]:
                    reads[a.step].append(pair)
            for m in a.holes:  # the reference text reads every placeholder, asked or not
                if "." in m:
                    up, key = m.split(".", 1)
                    pair = (key, _mention_type(corpus, sc, m))
                    if pair not in reads[up]:
                        reads[up].append(pair)
    return {s.id: StepIO(tuple(inputs[s.id]), tuple(reads[s.id])) for s in sc.steps}


def step_options(corpus: Corpus, use: str, ios: Sequence[StepIO]) -> list[Option]:
    """Every way to do a step (all steps of one capability class must fit)."""
    cap = capabilities(corpus)[use]

    def fits(side: Side) -> bool:
        return all(side_fits(corpus, side, io.inputs, io.reads) for io in ios)

    opts = [Option("fixed", (side,)) for side in cap.sides if fits(side)]
    for g in cap.groups:
        members = [m for m in g.members if fits(m)]
        subsets = [tuple(members)] if 2 <= len(members) <= 3 else []
        if len(members) >= 3:
            subsets += list(itertools.combinations(members, 2))
        opts += [Option(g.kind, tuple(sub), g.id) for sub in subsets if disjoint_sides(sub)]
        opts += _by_type_options(corpus, g, ios, members)
    return opts


def _sole_field(corpus: Corpus, side: Side, type_: str) -> bool:
    """The side's final tool returns exactly one new (non-echo) value of ``type_``."""
    return sum(f.type == type_ and not f.echo for f in corpus[side[-1]].returns) == 1


def _by_type_options(corpus: Corpus, g, ios: Sequence[StepIO],
                     fitting: Sequence[Side]) -> list[Option]:
    """A group's option when its sides return a read value under different keys:
    every side fits the inputs and every read, where each read the sides disagree
    on is of a type the group provides and each side returns exactly one of."""
    reads = {r for io in ios for r in io.reads}
    loose = {r for r in reads if not all(
        r in {(f.canonical, f.type) for f in corpus[m[-1]].returns} for m in g.members)}
    if not loose or any(t not in g.provides for _, t in loose):
        return []
    members = [m for m in g.members if m not in fitting
               and all(side_fits(corpus, m, io.inputs, [r for r in io.reads if r not in loose])
                       for io in ios)
               and all(_sole_field(corpus, m, t) for _, t in loose)]
    members += [m for m in fitting if all(_sole_field(corpus, m, t) for _, t in loose)]
    members = [m for m in g.members if m in members]  # the group's order
    if not 2 <= len(members) <= 3 or not disjoint_sides(members):
        return []
    return [Option(g.kind, tuple(members), g.id, frozenset(loose))]


# ---------------------------------------------------------------- the generator


def _weekend(value: Any) -> bool:
    """Whether a drawn date (or date-time) falls on a Saturday or Sunday: a `workday`
    param is drawn again, for meetings and rooms are booked in office hours."""
    try:
        return date.fromisoformat(str(value)[:10]).weekday() >= 5
    except ValueError:
        return False


class ScenarioGenerator:
    """Builds tasks from scenarios; tool usage steers later tasks to other tools."""

    def __init__(self, sim: Simulator | None = None, exclude_tools: Iterable[str] = (),
                 exclude_domains: Iterable[str] = (),
                 extra_check: Callable[[Task], list[str]] | None = None) -> None:
        self.sim = sim or Simulator()
        # A caller's own acceptance test (the suite build passes "every fault profile
        # can be built": tasks do not import the fault engine themselves).
        self.extra_check = extra_check
        self.corpus: Corpus = self.sim.corpus
        self.usage: Counter[str] = Counter()
        held = set(exclude_domains)
        self.banned = frozenset(exclude_tools) | {t for t, s in self.corpus.tools.items()
                                                  if s.domain in held}
        self._plans: dict[str, tuple[dict[str, StepIO], dict[str, list[Option]]]] = {}
        self._lengths: dict[tuple[str, str], frozenset[int]] = {}

    # -- plan per scenario -------------------------------------------------------

    def plan(self, sc: Scenario) -> tuple[dict[str, StepIO], dict[str, list[Option]]]:
        """(step io, options per capability class) — static, cached per scenario."""
        if sc.id not in self._plans:
            ios = step_io(self.corpus, sc)
            classes: dict[str, list[str]] = {}
            for s in sc.steps:
                classes.setdefault(s.use, []).append(s.id)
            opts = {use: [o for o in step_options(self.corpus, use, [ios[i] for i in ids])
                          if not o.tools & self.banned]
                    for use, ids in classes.items()}
            self._plans[sc.id] = (ios, opts)
        return self._plans[sc.id]

    # -- parameters -------------------------------------------------------------------

    def draw_params(self, sc: Scenario, stream: hashing.Stream) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in sc.params:
            if p.derived_from:
                continue
            for attempt in range(8):
                v = self._draw(p, stream, attempt, texts=_texts(sc))
                clash = any(q.type == p.type and out[q.name] == v for q in sc.params
                            if q.name in out)
                clash |= any(d.startswith("$") and out.get(d[1:]) == v for d in p.differs_from)
                clash |= p.workday and _weekend(v)
                clash |= not self._rail_linked(sc, p, v, out)
                if not clash:
                    break
            out[p.name] = v
        for p in sc.params:  # derived ones last: they follow their source's draw
            if p.derived_from:
                out[p.name] = self._known(sc, p, out)
        return {p.name: out[p.name] for p in sc.params}

    def _rail_linked(self, sc: Scenario, p, v: Any, out: dict[str, Any]) -> bool:
        """Whether a station drawn for ``p`` makes a journey the network links with
        the scenario's station drawn (or derived) before it (coherence ``rail_links``): the two
        stations of a scenario are a train's ends, so an unlinked pair is drawn again
        here rather than found incoherent after the build. World edition 6 added
        London Euston (rail_termini), one more station that links few others."""
        if p.type != "rail_station":
            return True
        travel = self.sim.world.travel
        here = travel.station(str(v))
        for q in sc.params:
            known = self._known(sc, q, out) if q.type == "rail_station" else None
            there = travel.station(str(known)) if known is not None else None
            if here is not None and there is not None and not travel.rail_linked(there, here):
                return False
        return True

    def _known(self, sc: Scenario, q, out: dict[str, Any]) -> Any:
        """``q``'s value if the draw so far settles it: drawn, or derived from a drawn
        source (a station derived from a trip is a train's end before the other end is
        drawn); None otherwise."""
        if q.name in out:
            return out[q.name]
        source = sc.param_by_name.get(q.derived_from) if q.derived_from else None
        if source is None or source.name not in out:
            return None
        return q.derive(out[source.name], self.sim.world, source.type)

    def _draw(self, p, stream: hashing.Stream, attempt: int, texts: bool = False) -> Any:
        """One param's value. A number the task texts is a mobile, and so is the
        number of anyone a texting task names (the directory also lists landlines)."""
        if p.value is not None:
            return p.value
        state = p.state or DEFAULT_STATES.get(p.type, "")
        if state:  # a record in a given state: a delivered order, a trip on a flown route
            return stream.choice(RECORD_STATES[p.type][state](self.sim.world))
        if p.choices:
            return stream.choice(self._known_choices(p))
        if p.range:
            lo, hi = p.range
            if isinstance(lo, int) and isinstance(hi, int):
                return stream.randint(lo, hi)
            return round(lo + stream.unit() * (hi - lo), 2)
        key = f"{stream.parts}/{p.name}/{attempt}"
        people = self.sim.world.people
        if p.type == "phone":
            return people.sample_mobile(key)
        if p.type == "person_name" and texts and people.mobiles:
            return people.by_phone(people.sample_mobile(key)).name
        return values.get(p.type).sample(self.sim.world, key)

    def _known_choices(self, p) -> list[Any]:
        """The author's choices this world knows. A product an older world sold may be
        gone from a newer edition's catalogue ("Granite Smart Smart Plug" left at
        edition 3, ``no_doubled_words``); where every choice is known, as on the
        world the choices were written for, the list and so the draw are unchanged."""
        world = self.sim.world
        if not world.has("no_doubled_words") or p.type not in values.all_types():
            return list(p.choices)  # an older world: the draws its suites were built on
        ctx = CheckContext(world)
        sem = values.get(p.type)
        known = [c for c in p.choices if not isinstance(c, str) or sem.violation(c, ctx) is None]
        return known or list(p.choices)

    # -- choosing a realisation ------------------------------------------------------

    def _candidates(self, sc: Scenario, level: str, stream: hashing.Stream,
                    target: int) -> list[dict[str, Option]]:
        """Assignments (capability class -> option) with the level's pattern, best first."""
        _, opts = self.plan(sc)
        counts = Counter(s.use for s in sc.steps)
        fixed = {u: [o for o in os if not o.is_branch] for u, os in opts.items()}
        if any(not f for f in fixed.values()):
            return []
        single = [u for u, os in opts.items() if counts[u] == 1
                  and any(o.kind in SINGLE_KINDS for o in os)]
        multi = [u for u, os in opts.items() if counts[u] == 1
                 and any(o.kind == "n_to_n" for o in os)]
        found: dict[tuple, tuple[float, dict[str, Option]]] = {}
        for k in range(CANDIDATES):
            s = stream.fork("cand", k)
            branches = self._branch_choice(level, single, multi, s)
            if branches is None:
                continue
            assign: dict[str, Option] = {}
            for u in opts:
                if u in branches:
                    pool = [o for o in opts[u] if (o.kind == "n_to_n") == (branches[u] == "n")
                            and o.is_branch]
                else:
                    pool = fixed[u]
                if not pool:
                    break
                assign[u] = self._pick(pool, s)
            else:
                if not self._tools_ok(sc, assign):
                    continue
                key = tuple(sorted((u, o.sides) for u, o in assign.items()))
                found.setdefault(key, (self._score(sc, assign, level, target, s), assign))
        return [a for _, a in sorted(found.values(), key=lambda x: x[0])]

    @staticmethod
    def _branch_choice(level: str, single: list[str], multi: list[str],
                       s: hashing.Stream) -> dict[str, str] | None:
        """Which classes branch: "s" for a single-tool group, "n" for N-to-N."""
        if level == "C1":
            return {}
        if level == "C2":
            return {s.choice(single): "s"} if single else None
        if level == "C3":
            return {s.choice(multi): "n"} if multi else None
        if not single or not multi:
            return None
        out = {s.choice(multi): "n"}
        rest = [u for u in single if u not in out]
        if not rest:
            return None
        out[s.choice(rest)] = "s"
        extra = [u for u in single + multi if u not in out]
        if extra and s.unit() < 0.3:
            u = s.choice(extra)
            out[u] = "n" if u in multi and (u not in single or s.unit() < 0.5) else "s"
        return out

    def _pick(self, pool: list[Option], s: hashing.Stream) -> Option:
        def score(o: Option) -> float:
            use = sum(self.usage[t] for t in o.tools) / len(o.tools)
            return s.unit() / (1.0 + use) ** PICK_STEER

        return max(pool, key=score)

    def _tools_ok(self, sc: Scenario, assign: dict[str, Option]) -> bool:
        """A tool serves one slot, except one fixed tool shared by the steps of one
        class (two quotes by the same provider, at any level: with no alternative to
        switch to, a fault met on either call asks the same of the agent); a branch
        slot's tools are never shared, so a fault on them is never met through
        another slot and the other side stays a way out."""
        owner: dict[str, str] = {}
        counts = Counter(s.use for s in sc.steps)
        for u, o in assign.items():
            if counts[u] > 1 and o.is_branch:
                return False
            for t in o.tools:
                if owner.setdefault(t, u) != u:
                    return False
        return True

    def _score(self, sc: Scenario, assign: dict[str, Option], level: str, target: int,
               s: hashing.Stream) -> float:
        length = sum(assign[st.use].min_len for st in sc.steps)
        lo, hi = RANGES[level]
        if not lo <= length <= hi:
            return 1e6 + abs(length - target)
        paths = math.prod(len(assign[st.use].sides) for st in sc.steps)
        score = abs(length - target) * 2.0
        if level == "C4":
            score += abs(paths - TARGET_PATHS) / 2.0
        elif paths > 2:
            score += 0.5 * (paths - 2)
        tools = {t for o in assign.values() for t in o.tools}
        score += sum(self.usage[t] for t in tools) / max(1, len(tools)) * USAGE_WEIGHT
        # An implicit fault rarely fits an Action's confirmation (its recovery would
        # repeat the side effect), so a branch on data-producing steps is tried first.
        score += sum(ACTION_BRANCH for o in assign.values() if o.is_branch
                     and all(self.corpus[side[-1]].category == "Action" for side in o.sides))
        return score + s.unit() * 0.25

    # -- building -----------------------------------------------------------------------

    def _slots(self, sc: Scenario, assign: dict[str, Option],
               params: dict[str, Any]) -> list[Slot]:
        ios, _ = self.plan(sc)
        sid = {s.id: f"s{k + 1}" for k, s in enumerate(sc.steps)}
        slots = []
        for st in sc.steps:
            opt = assign[st.use]
            inputs, reads = [], []
            for a, (role, type_) in zip(st.args, ios[st.id].inputs, strict=True):
                if a.kind == "param":
                    src = Source("literal", value=params[a.ref])
                elif a.kind == "field":
                    typed = (a.key, type_) in assign[sc.step_by_id[a.step].use].by_type
                    src = Source("slot", slot=sid[a.step], type=type_,
                                 field="" if typed else a.key)
                else:
                    src = Source("literal", value=a.text)
                    for m in a.holes:
                        if "." in m:
                            pair = (sid[m.split(".", 1)[0]],
                                    _mention_type(self.corpus, sc, m))
                            if pair not in reads:
                                reads.append(pair)
                inputs.append(Input(role, type_, src))
            slots.append(Slot(sid[st.id], opt.sides, tuple(inputs),
                              opt.group if opt.is_branch else "", tuple(sorted(reads))))
        return slots

    def _fill_texts(self, sc: Scenario, slots: list[Slot], params: dict[str, Any],
                    ) -> tuple[list[Slot], list[tuple[Any, ...]]]:
        """Run s* once, writing each free text from the values seen so far and
        recording what it must mention; then what the final answer must mention."""
        sid = {s.id: f"s{k + 1}" for k, s in enumerate(sc.steps)}
        steps = {sid[s.id]: s for s in sc.steps}
        by_id = {s.id: s for s in slots}
        state = EpisodeState()
        outputs: dict[str, dict[str, Any]] = {}
        for slot in topological_order(slots):
            st = steps[slot.id]
            new_inputs = []
            for a, inp in zip(st.args, slot.inputs, strict=True):
                if a.kind != "text":
                    new_inputs.append(inp)
                    continue
                text, mentions = self._render(sc, a, params, outputs, sid)
                new_inputs.append(Input(inp.role, inp.type, Source("literal", value=text),
                                        tuple(mentions)))
            slot = replace(slot, inputs=tuple(new_inputs))
            by_id[slot.id] = slot
            side = min(slot.alternatives, key=len)
            provides = self.corpus.group_by_id[slot.group].provides if slot.group else ()
            _, outputs[slot.id] = run_slot(self.sim, slot, side, outputs, state, provides)
        answer = self._asked(sc, sc.answer, params, outputs, sid)
        return [by_id[s.id] for s in slots], answer

    def _render(self, sc: Scenario, a: ArgSpec, params: dict[str, Any],
                outputs: dict[str, dict[str, Any]], sid: dict[str, str],
                ) -> tuple[str, list[tuple[Any, ...]]]:
        text = a.text
        for ref in sorted(set(_holes(a.text)), key=len, reverse=True):
            type_, value = self._value(sc, ref, params, outputs, sid)
            said = say_as(type_, value)
            if text != "{" + ref + "}":  # in a sentence, a generated text's label
                said = unlabelled(said)  # reads as a form's: "We received Price: ..."
            if type_ == FREE_TEXT and _sentence_follows(a.text, ref):
                said = _ended(said)
            text = text.replace("{" + ref + "}", said)
        return _once_in_fahrenheit(text), self._asked(sc, a.mention, params, outputs, sid)

    def _value(self, sc: Scenario, ref: str, params: dict[str, Any],
               outputs: dict[str, dict[str, Any]], sid: dict[str, str]) -> tuple[str, Any]:
        t = _mention_type(self.corpus, sc, ref)
        if "." not in ref:
            return t, params[ref]
        step, key = ref.split(".", 1)
        out = outputs[sid[step]]  # a value handed on by type has no such key here
        return t, out[f"{t}@{key}"] if f"{t}@{key}" in out else out[t]

    def _asked(self, sc: Scenario, refs: Sequence[str], params: dict[str, Any],
               outputs: dict[str, dict[str, Any]], sid: dict[str, str]
               ) -> list[tuple[Any, ...]]:
        """What a text (or the final answer) must mention: (type, value), and for a
        step output also where it came from, so the grader resolves it per episode."""
        mentions: list[tuple[Any, ...]] = []
        for ref in refs:
            pair: tuple[Any, ...] = self._value(sc, ref, params, outputs, sid)
            if "." in ref:
                step, key = ref.split(".", 1)
                out = outputs[sid[step]]
                t = pair[0]
                pair = (*pair, sid[step], f"{t}@{key}" if f"{t}@{key}" in out else t)
            if pair not in mentions:
                mentions.append(pair)
        return mentions

    def build(self, sc: Scenario, level: str, assign: dict[str, Option],
              params: dict[str, Any], task_id: str, stream: hashing.Stream,
              avoid: frozenset[int] = frozenset()) -> Task:
        """One task, or ScenarioBuildError saying why it is not acceptable; its
        phrasing is none of ``avoid`` (phrasings the level has used already)."""
        try:
            slots, answer = self._fill_texts(sc, self._slots(sc, assign, params), params)
            solutions = enumerate_solutions(self.sim, slots)
        except ExecutionError as exc:
            raise ScenarioBuildError(f"does not run cleanly: {exc}") from None
        except KeyError as exc:
            raise ScenarioBuildError(f"a bound field is missing: {exc}") from None
        self._check_differs(sc, slots, solutions, params)
        sid = {s.id: f"s{k + 1}" for k, s in enumerate(sc.steps)}
        bad = violations(sc.premises, draw_lookup(self.corpus, solutions, sid, params))
        if bad:
            denied = [v for v in bad if not v.unchecked]
            raise (PremiseContradicted(denied[0].message) if denied
                   else ScenarioBuildError(bad[0].message))
        task_tools = {t for s in slots for t in s.tools}
        domains = sorted({self.corpus[t].domain for t in task_tools})
        free = fresh_phrasings(sc, avoid)
        phr = free[stream.randint(0, len(free) - 1)]
        query = _fill(sc, sc.phrasings[phr], params)
        texts = {(f"s{k + 1}", a.role) for k, st in enumerate(sc.steps) for a in st.args
                 if a.kind == "text"}  # written by the agent, not stated by the query
        entities = [{"type": i.type, "value": i.source.value, "slot": s.id, "role": i.role}
                    for s in slots for i in s.inputs if i.source.is_literal
                    and (s.id, i.role) not in texts]
        shown = sorted(task_tools | set(self._distractors(sc, task_tools, set(domains),
                                                          stream)))
        task = Task(id=task_id, level=level, domains=domains, query=query, entities=entities,
                    slots=slots, solutions=solutions, default=default_index(solutions),
                    tools=shown, answer=tuple(answer),
                    meta={"generator": GENERATOR_VERSION, "scenario": sc.id, "goal": sc.goal,
                          "phrasing": phr, "primary_domain": sc.domain,
                          "steps": {f"s{k + 1}": s.id for k, s in enumerate(sc.steps)}})
        task.meta["signature"] = signature(task)
        incoherent = coherence.problems(task, self.corpus, self.sim.world)
        if incoherent and not coherence.of_facts(task, self.corpus, self.sim.world):
            raise ScenarioBuildError(incoherent[0])  # other tools may do: try them
        if incoherent:  # the drawn facts make a world nobody lives in: draw again
            raise Incoherent(incoherent[0])
        faults = self.fault_problems(task)
        if faults:
            raise FaultlessBranch(faults[0], self.faultless_branches(task))
        problems = self.problems(task, sc, faults=False) or self.victim_problems(task)
        if problems:
            raise ScenarioBuildError(problems[0])
        return task

    def _check_differs(self, sc: Scenario, slots: list[Slot], solutions, params) -> None:
        sid = {s.id: f"s{k + 1}" for k, s in enumerate(sc.steps)}
        for p in sc.params:
            for d in p.differs_from:
                if d.startswith("$"):
                    other = [params[d[1:]]]
                else:
                    step, key = d.split(".", 1)
                    other = [c.response[f.name] for path in solutions for c in path.calls
                             if c.slot == sid[step] for f in self.corpus[c.tool].returns
                             if f.canonical == key and f.name in c.response]
                if any(str(o).lower() == str(params[p.name]).lower() for o in other):
                    raise ScenarioBuildError(f"{p.name} = {params[p.name]!r} equals {d}")

    def _distractors(self, sc: Scenario, task_tools: set[str], domains: set[str],
                     stream: hashing.Stream) -> list[str]:
        """3-5 tools of the task's domains that can do none of its steps."""
        caps = capabilities(self.corpus)
        near = set(task_tools)
        for st in sc.steps:
            near |= caps[st.use].tools
        behaviours = {self.corpus[t].behaviour for t in near}
        peers = {m for t in near for g in self.corpus.groups_of[t] for m in g.tools}
        pool = sorted(t for t, s in self.corpus.tools.items()
                      if s.domain in domains and t not in near and t not in peers
                      and t not in self.banned and s.behaviour not in behaviours)
        return sorted(stream.shuffled(pool)[: stream.randint(3, 5)])

    # -- acceptance -----------------------------------------------------------------------

    def problems(self, task: Task, sc: Scenario, faults: bool = True) -> list[str]:
        out = self._structure(task)
        out += self._exactness(task, sc)
        if faults:
            out += self.fault_problems(task)
        out += [f"query names the tool {t!r}" for t in task.tools
                if re.search(rf"\b{re.escape(t)}\b", task.query)]
        out += [f"query is not in people's words: {p}" for p in machine_words(task.query)]
        out += [f"words the data contradict: {p}"
                for p in data_word_problems(task, sc.goal, self.sim.world)]
        out += solvability_problems(task, self.corpus)
        out += _unreadable_texts(task)
        if not out and self.extra_check is not None:
            out += self.extra_check(task)
        return out

    def _structure(self, task: Task) -> list[str]:
        g = slot_graph(task)
        if not nx.is_directed_acyclic_graph(g):
            return ["slot graph has a cycle"]
        kinds = [self.corpus.group_by_id[s.group].kind for s in task.branch_slots()]
        lo, hi = RANGES[task.level]
        out = []
        if not lo <= task.default_path.length <= hi:
            out.append(f"s* has {task.default_path.length} calls ({task.level}: {lo}-{hi})")
        if task.level == "C1":
            ok = not kinds
        elif task.level == "C2":
            ok = len(kinds) == 1 and kinds[0] in SINGLE_KINDS
        elif task.level == "C3":
            ok = kinds == ["n_to_n"]
        else:
            roots = [n for n in g if g.in_degree(n) == 0]
            joins = [n for n in g if g.in_degree(n) >= 2 and _parallel(g, list(g.predecessors(n)))]
            ok = (len(kinds) >= 2 and bool(set(kinds) & SINGLE_KINDS) and "n_to_n" in kinds
                  and len(roots) >= 2 and bool(joins))
        if not ok:
            out.append(f"DAG does not have the {task.level} pattern (branch kinds {kinds})")
        sinks = [n for n in g if g.out_degree(n) == 0]
        if len(sinks) != 1:
            out.append(f"the DAG must end in one step, not {len(sinks)}")
        cats = {self.corpus[c.tool].category for c in task.default_path.calls}
        if "Source" not in cats or "Action" not in cats:
            out.append("s* needs at least one Source and one Action")
        return out

    def faultable(self, task: Task, slot_id: str) -> bool:
        """Whether an implicit fault fits the slot the way the fault engine places
        one: on the first tool of every side (whichever side the agent starts, it
        meets the fault), never on an Action (recovering from a wrong confirmation
        would repeat the side effect), with a corruption the documented invariants
        catch. Later tools of a side and the Action a side ends in are not asked."""
        slot = task.slot_by_id[slot_id]
        firsts = {side[0] for side in slot.alternatives}
        found = {}
        for path in task.solutions:  # the first valid path making each call
            for k, c in enumerate(path.calls):
                if c.slot == slot_id and c.tool in firsts:
                    found.setdefault(c.tool, (path, k))
        return set(found) == firsts and all(
            self.corpus[t].category != "Action" and self._detectable(path, k)
            for t, (path, k) in found.items())

    def _detectable(self, path, k: int) -> bool:
        """Whether call ``k`` of ``path`` has a corruption with a witness, wrong-entity
        ones included: those re-run the call for another entity on the episode
        state just before it, as the fault engine does."""
        call = path.calls[k]
        state = EpisodeState()
        for c in path.calls[:k]:
            self.sim.call(c.tool, c.args, state)

        def rerun(args: dict[str, Any]) -> dict[str, Any] | None:
            resp = self.sim.call(call.tool, args, state.copy())
            return resp.body if resp.ok else None

        return detectable(self.corpus[call.tool], call.args, call.response, self.sim.world,
                          rerun)

    def faultless_branches(self, task: Task) -> list[str]:
        """Branch slots that cannot carry an implicit fault."""
        return [s.id for s in task.branch_slots() if not self.faultable(task, s.id)]

    def fault_problems(self, task: Task) -> list[str]:
        """Every fault mode must fit: above C1 the implicit faults go to branch slots
        (C2/C3: the one branch; C4: at least one of them, the others take only
        explicit faults); at C1 to a node on s* that a later step reads."""
        if task.level != "C1":
            bad = self.faultless_branches(task)
            if bad and (task.level != "C4" or len(bad) == len(task.branch_slots())):
                return [f"{bad[0]}: no detectable corruption for an implicit fault"]
        else:
            final = task.default_path.calls[-1].slot
            read = {u for u, _, _ in task.edges()}
            if not any(self.faultable(task, s.id) for s in task.slots
                       if s.id != final and s.id in read):
                return ["no node on s* can carry a detectable implicit fault"]
        return []

    def victim_problems(self, task: Task) -> list[str]:
        """The fault engine must find its victims: it skips steps the agent can do
        without (``corpus.derivations.can_do_without``), which the checks above
        cannot see."""
        from toolmaze_gym.faults.profiles import ProfileError, victim_slots

        try:
            victim_slots(task, self.sim)
        except ProfileError as exc:
            return [str(exc).split(": ", 1)[-1]]
        return []

    def _exactness(self, task: Task, sc: Scenario) -> list[str]:
        """Every shown way to do a step is one of the slot's alternatives."""
        ios, _ = self.plan(sc)
        caps = capabilities(self.corpus)
        shown = set(task.tools)
        out = []
        for st, slot in zip(sc.steps, task.slots, strict=True):
            io = ios[st.id]
            for side in caps[st.use].sides:
                if (set(side) <= shown and side not in slot.alternatives
                        and side_fits(self.corpus, side, io.inputs, io.reads)):
                    out.append(f"{slot.id}: shown side {side} can also do {st.id}")
        return out

    # -- public ----------------------------------------------------------------------------

    def generate(self, sc: Scenario, level: str, seed: int | str, task_id: str,
                 target: int | None = None, draws: int = 6,
                 skip: frozenset[str] = frozenset(),
                 avoid: frozenset[int] = frozenset()) -> Task:
        """A task of ``level`` from ``sc``; raises ScenarioBuildError with the last reason.

        ``avoid``: phrasings of ``sc`` the level has used already. A task in one of
        them would be the same request with other names (``tasks.repeats``)."""
        if level not in sc.levels:
            raise ScenarioBuildError(f"{sc.id} is not written for {level}")
        if not fresh_phrasings(sc, avoid):
            raise ScenarioBuildError(f"every phrasing of {sc.id} is used at {level} already")
        reason = "no realisation has the level's pattern"
        spare, counted = COHERENCE_REDRAWS, 0
        for draw in itertools.count():
            if counted >= draws:
                break
            incoherent = False
            stream = hashing.Stream("toolmaze-v2", seed, sc.id, level, draw)
            tgt = target or stream.weighted(list(LENGTHS[level]), list(LENGTHS[level].values()))
            params = self.draw_params(sc, stream.fork("params"))
            # Branch choices (capability class, option) that proved unable to carry
            # an implicit fault with these params: realisations using only them are
            # skipped, and such a failure does not use up a try, so another step
            # branches instead of the scenario giving up.
            faultless: set[tuple[str, Option]] = set()
            built = 0
            for assign in self._candidates(sc, level, stream.fork("choose"), tgt):
                if built >= BUILDS:
                    break
                branches = [(u, o) for u, o in assign.items() if o.is_branch]
                if branches and all(b in faultless for b in branches):
                    continue
                try:
                    task = self.build(sc, level, assign, params, task_id, stream.fork("build"),
                                      avoid)
                except Incoherent as exc:
                    reason, incoherent = str(exc), True
                    break  # the same facts under other tools: draw again
                except PremiseContradicted as exc:
                    reason = str(exc)
                    break  # the same data under other tools: draw again
                except FaultlessBranch as exc:
                    reason = str(exc)
                    uses = {f"s{k + 1}": st.use for k, st in enumerate(sc.steps)}
                    faultless |= {(uses[i], assign[uses[i]]) for i in exc.slots}
                    continue
                except ScenarioBuildError as exc:
                    built += 1
                    reason = str(exc)
                    continue
                built += 1
                if task.meta["signature"] in skip:
                    reason = "duplicate of an earlier task"
                    continue
                return task
            if incoherent and spare:
                spare -= 1  # an incoherent world is the draw's fault: it costs no try
            else:
                counted += 1
        raise ScenarioBuildError(reason)

    def lengths(self, sc: Scenario, level: str) -> frozenset[int]:
        """s* lengths the scenario's realisations can have at ``level`` (static:
        no execution), so a builder can pick a scenario that fits a target length."""
        key = (sc.id, level)
        if key not in self._lengths:
            lo, hi = RANGES[level]
            stream = hashing.Stream("toolmaze-v2-lengths", sc.id, level)
            found = {sum(a[st.use].min_len for st in sc.steps)
                     for a in self._candidates(sc, level, stream, lo)}
            self._lengths[key] = frozenset(n for n in found if lo <= n <= hi)
        return self._lengths[key]

    def record(self, task: Task) -> None:
        """Count a chosen task's tools, steering later choices elsewhere."""
        for t in task.task_tools:
            self.usage[t] += 1

    def trial(self, sc: Scenario, tries: int = 6) -> dict[str, dict[str, Any]]:
        """Per level: whether the scenario builds, with s* lengths and path counts."""
        out: dict[str, dict[str, Any]] = {}
        for level in sc.levels:
            lengths, paths, why = set(), set(), ""
            for k in range(tries):
                try:
                    t = self.generate(sc, level, f"trial{k}", "trial", draws=3)
                except ScenarioBuildError as exc:
                    why = str(exc)
                    continue
                lengths.add(t.default_path.length)
                paths.add(len(t.solutions))
            out[level] = {"ok": bool(lengths), "lengths": _span(lengths),
                          "paths": _span(paths), "why": why}
        return out


def fresh_phrasings(sc: Scenario, avoid: frozenset[int]) -> list[int]:
    """Indices of ``sc``'s phrasings not in ``avoid``, in order."""
    return [k for k in range(len(sc.phrasings)) if k not in avoid]


def _span(xs: set[int]) -> str:
    return "" if not xs else (f"{min(xs)}" if min(xs) == max(xs) else f"{min(xs)}-{max(xs)}")


def _texts(sc: Scenario) -> bool:
    """Whether the scenario sends a text message (its recipients must be mobiles)."""
    return any(".sms." in st.use for st in sc.steps)


def _holes(text: str) -> list[str]:
    return [m.strip() for m in re.findall(r"\{([^{}]*)\}", text)]


def _fill(sc: Scenario, phrasing: str, params: dict[str, Any]) -> str:
    """The query: each ``{param}`` said as a person would (a language by its name, a
    switch as "on"/"off", ``{param:yes word/no word}`` with the author's words). A
    value that ends a sentence with its own period ("Meta Platforms Inc.") takes the
    place of the phrasing's period, as a writer would (toolmaze-v5 c1-0091 read
    "looking at Meta Platforms Inc.."), and "a" before a value said with a vowel
    becomes "an" ("a urgent ticket", "a Obsidian Trail Power Bank", "a 18500 car loan":
    toolmaze-v6 c1-0026); a country code after "in" is said by its name ("taxed in
    Italy", not "taxed in IT": v6 c2-0020), before "VAT" by its adjective ("German
    VAT": v8 c1-0093); an amount of money with thousands separators ("10,203 SEK"); the
    home room "office" after "our"/"my" as "home office" (v8 c1-0073: "our office")."""
    types = {p.name: p.type for p in sc.params}
    switches = {a.ref for st in sc.steps for a in st.args
                if a.kind == "param" and a.role in SWITCH_ROLES}

    def hole(m: re.Match[str]) -> str:
        name, words = phrase_hole(m.group(2))
        if name not in params:
            return m.group(0)
        if words is None and name in switches:
            words = ("on", "off")
        said = say_as(types[name], params[name], words)
        if types[name] == "country_code":
            said = _country_said(said, phrasing[:m.start()], phrasing[m.end():])
        if types[name] == "money_amount":
            said = say_amount(params[name]) or said  # "10,203 SEK", not "10203 SEK"
        if types[name] == "home_room" and said == "office" \
                and re.search(r"\b(?:our|my) $", phrasing[:m.start()], re.I):
            said = "home office"  # "our office" reads as the workplace: v8 c1-0073
        if types[name] == "product_name" and _count_before(phrasing, m.start(), params) > 1:
            said = plural_name(said)
        ends_sentence = phrasing[m.end():m.end() + 1] == "."
        said = said[:-1] if ends_sentence and said.endswith(".") else said
        article = m.group("a")
        if article and (_VOWEL_SOUND.match(said) or said_with_a_vowel(said)):
            article += "n"
        return f"{article} {said}" if article else said

    return re.sub(r"(?:\b(?P<a>[Aa]) )?\{([^{}]*)\}", hole, phrasing)


def _country_said(code: str, before: str, after: str) -> str:
    """A country code as the words around it want it: its name after "in" or "for"
    ("taxed in Italy", "VAT for Germany": v6 c2-0020), its adjective before "VAT" or
    "tax" or "rules" ("German VAT", not "DE VAT": v8 c1-0093); the code where neither fits."""
    if re.match(r" (?:VAT|tax|sales tax|rules)\b", after):
        return country_adjective(code) or code
    if before.endswith(("in ", "for ")):
        return country_in(code) or code
    return code


def _count_before(phrasing: str, at: int, params: dict[str, Any]) -> int:
    """The count a hole follows directly ("order {qty} {product}"), or 0: "2 × X" and
    "2 of X" keep the name as it is."""
    m = re.search(r"\{(\w+)\} $", phrasing[:at])
    value = params.get(m.group(1)) if m else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _sentence_follows(template: str, ref: str) -> bool:
    """Whether a new sentence starts right after the hole ``{ref}`` ("{digest.summary}
    All-hands: ..."), so the text in the hole must end its own sentence."""
    return re.search(re.escape("{" + ref + "}") + r" [A-Z]", template) is not None


def _ended(said: str) -> str:
    """A generated sentence ended with a period where it has no end of its own: a
    headline or a summary of one ("... visible next month All-hands: ..." read as one
    sentence in toolmaze-v5 c3-0000)."""
    if len(said.split()) < 3 or not said[-1:].isalnum():
        return said
    return said + "."


# A Fahrenheit figure a weather report says, said again right after it by the template:
# "23.7 °C (74.7 °F). (74.7 F)." (toolmaze-v5 c4-0000).
_FAHRENHEIT_TWICE = re.compile(r"\((-?\d+(?:\.\d+)?) °F\)\.? \(\1 F\)")


def _once_in_fahrenheit(text: str) -> str:
    """``text`` with a Fahrenheit figure its weather report already gave said once."""
    return _FAHRENHEIT_TWICE.sub(r"(\1 °F)", text)


# A word said with a vowel sound: "an urgent", "an Obsidian"; not "a one-", "a uni..",
# "a Euro..", "a US..." (said with a consonant).
def said_with_a_vowel(said: str) -> bool:
    """Whether a figure is read aloud from a vowel: eight, eleven, eighteen, eighty,
    eight hundred, eighteen thousand ("an 18500 car loan", "a 1850 fee")."""
    m = re.match(r"\d[\d,]*", said)
    if m is None:
        return False
    digits = m.group(0).replace(",", "")
    lead = digits[:len(digits) % 3 or 3]  # the group read first ("18" of 18500)
    return lead.startswith("8") or lead in ("11", "18")


_VOWEL_SOUND = re.compile(r"(?!one\b|one-|uni|use|usu|eu|ur[aeiou]|U[A-Z])[aeiouAEIOU]")


def _unreadable_texts(task: Task) -> list[str]:
    """The text written for the clean run must itself pass the grader's mention
    rule, or a correct agent writing the same sentence would fail."""
    return [f"{slot.id}.{inp.role}: the text {inp.source.value!r} does not mention "
            f"{[m for m in inp.mentions if not mentions_all(inp.source.value, [m], loosely=False)]}"
            " by the grader's rule"
            for slot in task.slots for inp in slot.inputs
            if inp.mentions and not mentions_all(inp.source.value, inp.mentions, loosely=False)]
