"""Perturbation profiles: which slot fails, and exactly how, for each (task, mode).

Profiles are fixed per (task, P) so every agent meets identical faults. The
victim is a step every careful way of doing the task makes (never one a careful
agent may skip: ``faults.skippable``): a node on s* (C1: never the final Action,
always something read downstream), the alternative group of the branch slot
(C2/C3), or one per such branch slot (C4); implicit modes skip branches that
cannot carry an implicit fault.
Explicit modes carry the error body; implicit modes carry, for every tool that
may take the fault, the corruption recipe and the witness it produces on the
expected call — re-checkable by anyone.

Implicit faults are plausible (well-formed, in range; blatant markers only where
nothing else fits), fall on a value a later call reads, never on an Action
(recovering from a wrong confirmation would repeat its side effect), and are
spread over the kinds that fit the tool (the rarer ones favoured): wrong entity,
contradicting fields, stale data, wrong unit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.corpus.alternatives import canonical_arguments
from toolmaze_gym.corpus.corruption import (
    FAULT_KINDS,
    Rerun,
    apply_recipe,
    changed_fields,
    corruption_options,
    plausible,
    witness_for,
)
from toolmaze_gym.faults.modes import get_mode
from toolmaze_gym.faults.responses import error_body
from toolmaze_gym.faults.skippable import same_value, skip_reasons
from toolmaze_gym.tasks.model import Call, SolutionPath, Task

PROFILE_VERSION = "7"  # 2: plausible recipes, no Actions; 3: no victim an agent can derive,
#    no corruption of a field beside a clean twin; 4: nor one whose read outputs are
#    common knowledge (a city's country), e-mail and invitation templates derivable;
#    5: no victim in any mode that a careful agent may skip (``faults.skippable``: the
#    derivations of grading version 7, an airport's city, a step the grader accepts
#    left out, such as a USD->USD conversion); 6: nor one whose read values another
#    step returns; 7: nor an implicit fault on a side's first tool a careful agent
#    derives before the side's Action (toolmaze-v8 c4-0069: the summarizer before
#    the post), nor a side wholly derivable beside a lookup


@dataclass(frozen=True)
class Victim:
    slot: str
    tools: tuple[str, ...]  # the first of these the agent invokes takes the fault
    error: dict[str, Any] | None = None  # explicit: the fixed error body
    recipes: dict[str, str] = field(default_factory=dict)  # implicit: tool -> recipe
    witnesses: dict[str, dict[str, str]] = field(default_factory=dict)  # on the expected call


@dataclass(frozen=True)
class FaultProfile:
    task_id: str
    mode: str
    victims: tuple[Victim, ...]
    version: str = PROFILE_VERSION

    @property
    def permanent(self) -> bool:
        return get_mode(self.mode).permanent

    @property
    def explicit(self) -> bool:
        return get_mode(self.mode).explicit

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FaultProfile:
        victims = tuple(Victim(slot=v["slot"], tools=tuple(v["tools"]), error=v.get("error"),
                               recipes=dict(v.get("recipes", {})),
                               witnesses=dict(v.get("witnesses", {}))) for v in d["victims"])
        return cls(task_id=d["task_id"], mode=d["mode"], victims=victims,
                   version=d.get("version", PROFILE_VERSION))


class ProfileError(Exception):
    """No admissible victim: the task cannot carry this mode's fault."""


def _expected(task: Task, tool: str) -> tuple[SolutionPath, int]:
    """The first valid path calling ``tool`` and the index of that call in it."""
    for path in task.solutions:
        for k, c in enumerate(path.calls):
            if c.tool == tool:
                return path, k
    raise ProfileError(f"{task.id}: {tool} is on no valid path")


def read_fields(task: Task, tool: str, sim: Simulator) -> set[str]:
    """Fields of ``tool``'s expected response that a later call of some valid path
    sends on (in any unit): a corruption there travels."""
    return set(_read(task, tool, sim))


def _read(task: Task, tool: str, sim: Simulator) -> dict[str, list[Any]]:
    """Read fields (see ``read_fields``) and the values later calls send from each."""
    spec = sim.corpus[tool]
    out: dict[str, list[Any]] = {}
    for path in task.solutions:
        k = next((i for i, c in enumerate(path.calls) if c.tool == tool), None)
        if k is None:
            continue
        body = path.calls[k].response
        sent = []
        for c in path.calls[k + 1:]:
            sent += list(c.args.values())
            sent += list(canonical_arguments(sim.corpus[c.tool], c.args).values())
        for f in spec.returns:
            v = body.get(f.name)
            if f.echo or v is None:
                continue
            hits = [x for x in sent if same_value(v, x) or same_value(f.to_canonical(v), x)]
            if hits:
                out.setdefault(f.name, []).extend(hits)
    return out


def _still_there(spec, bad: dict[str, Any], value: Any) -> bool:
    """Whether some field of the corrupted body still carries ``value`` (in any unit):
    then an agent that reads that field is not misled, and the fault is harmless."""
    for f in spec.returns:
        v = bad.get(f.name)
        if v is not None and not f.echo and (same_value(v, value)
                                             or same_value(f.to_canonical(v), value)):
            return True
    return False


def _state_before(sim: Simulator, path: SolutionPath, k: int) -> EpisodeState:
    state = EpisodeState()
    for c in path.calls[:k]:
        sim.call(c.tool, c.args, state)
    return state


def rerun_for(sim: Simulator, tool: str, state: EpisodeState) -> Rerun:
    """Re-runs ``tool`` with other arguments on a copy of ``state`` (wrong-entity faults)."""
    def rerun(args: dict[str, Any]) -> dict[str, Any] | None:
        resp = sim.call(tool, args, state.fork())
        return resp.body if resp.ok else None

    return rerun


# Weights of the plausible kinds when several fit a tool (a weighted shuffle):
# almost every Source can answer for the wrong entity, far fewer carry a
# relation, a timestamp or a unit, so those are favoured where they fit.
KIND_WEIGHTS = {"entity": 1.0, "consistency": 30.0, "stale": 30.0, "unit": 30.0}


def expected_call(sim: Simulator, task: Task, tool: str) -> tuple[Call, Rerun]:
    """The expected call of ``tool`` (on the first valid path making it) and a
    re-runner on the episode state just before it: what a profile's recipe and
    witness are computed on."""
    path, k = _expected(task, tool)
    return path.calls[k], rerun_for(sim, tool, _state_before(sim, path, k))


def implicit_eligible(sim: Simulator, tool: str) -> bool:
    """Actions never take implicit faults: recovering from a wrong confirmation
    would repeat the side effect (a second payment)."""
    return sim.corpus[tool].category != "Action"


def recipe_for(sim: Simulator, task: Task, tool: str,
               key: str) -> tuple[str, dict[str, str]] | None:
    """The corruption for ``tool``: a plausible kind (a weighted draw among those
    that fit) on a value a later call reads; a blatant marker only when none fits."""
    spec = sim.corpus[tool]
    sent = _read(task, tool, sim)
    read = set(sent)
    if not read:
        return None
    call, rerun = expected_call(sim, task, tool)
    options = corruption_options(spec, read)
    kinds = sorted((kd for kd in FAULT_KINDS if options[kd]),
                   key=lambda kd: -hashing.unit("kind", key, kd) ** (1 / KIND_WEIGHTS[kd]))
    for kind in [*kinds, "blatant"]:
        for recipe in hashing.shuffled(options[kind], "recipe", key):
            bad = apply_recipe(spec, recipe, call.args, call.response, sim.world, key, rerun)
            if bad is None or not changed_fields(call.response, bad) & read:
                continue
            # A redundant field corrupted beside a clean twin (cents beside the
            # amount) misleads nobody: some value a later call sends must be gone.
            if kind != "blatant" and all(_still_there(spec, bad, x)
                                         for f in changed_fields(call.response, bad) & read
                                         for x in sent[f]):
                continue
            if kind != "blatant" and not plausible(spec, call.args, bad, sim.world):
                continue
            w = witness_for(spec, call.args, bad, sim.world, recipe)
            if w is not None:
                return recipe, w.to_dict()
    return None


def _faultable(sim: Simulator, task: Task, slot_id: str) -> list[str]:
    """Tools of a slot that can carry an implicit fault: the first tool of a side
    (the fault goes to the first tool of the group the agent calls, and recovery
    means redoing the side), if it is no Action and has a recipe."""
    firsts = [side[0] for side in task.slot_by_id[slot_id].alternatives]
    return [t for t in firsts if implicit_eligible(sim, t)
            and all(recipe_for(sim, task, t, _key(task, m, slot_id, t)) is not None
                    for m in ("P3", "P4"))]


def _key(task: Task, mode: str, slot_id: str, tool: str) -> str:
    """The key of a tool's corruption in a mode (the engine uses the same one)."""
    return f"{task.id}/{mode}/{slot_id}/{tool}"


def victim_slots(task: Task, sim: Simulator, implicit: bool = True) -> list[str]:
    """Where faults go.

    Only steps every careful way of doing the task makes (s*, less those a careful
    agent may skip: ``faults.skippable``). Explicit modes: every such branch slot
    (C2–C4); implicit modes: those where the first tool of every side can carry an
    implicit fault. Where none is left (C1, or in implicit modes a task whose
    branches are groups of Actions), one node on s* that can carry one, read
    downstream and not the final step; C1 uses that same node in every mode.
    """
    skip = skip_reasons(task, sim, implicit)
    star = {c.slot for c in task.default_path.calls if c.slot not in skip}
    # Every side's first tool must be able to take the fault: whichever side the
    # agent starts, it meets the fault (no side dodges it).
    ok = {s.id for s in task.slots if s.id in star
          and set(_faultable(sim, task, s.id)) == {side[0] for side in s.alternatives}}
    branch = [s.id for s in task.branch_slots()
              if s.id in star and (s.id in ok or not implicit)]
    if task.level != "C1" and branch:
        return branch
    final = task.default_path.calls[-1].slot
    read = {u for u, _, _ in task.edges()}
    candidates = [s.id for s in task.slots if s.id != final and s.id in read and s.id in ok]
    if candidates:
        return [hashing.choice(candidates, "victim", task.id)]
    raise ProfileError(f"{task.id}: no node on s* that every careful agent calls can carry "
                       "an implicit fault")


def build_profile(task: Task, mode: str, sim: Simulator) -> FaultProfile:
    """The fault profile of ``task`` under ``mode``, its witnesses run on the task's
    world edition (``task_simulator``)."""
    from toolmaze_gym.tasks.suites import task_simulator

    sim = task_simulator(task, sim)
    m = get_mode(mode)
    if not m.faulty:
        return FaultProfile(task.id, m.name, ())
    victims = []
    for slot_id in victim_slots(task, sim, implicit=not m.explicit):
        slot = task.slot_by_id[slot_id]
        key = f"{task.id}/{m.name}/{slot_id}"
        if m.explicit:
            victims.append(Victim(slot_id, tuple(slot.tools), error=error_body(m.permanent, key)))
            continue
        recipes, witnesses = {}, {}
        for tool in _faultable(sim, task, slot_id):
            found = recipe_for(sim, task, tool, _key(task, m.name, slot_id, tool))
            if found is None:  # cannot happen: _faultable tried this very key
                raise ProfileError(f"{task.id}: {tool} lost its implicit fault")
            recipes[tool], witnesses[tool] = found
        victims.append(Victim(slot_id, tuple(recipes), recipes=recipes, witnesses=witnesses))
    return FaultProfile(task.id, m.name, tuple(victims))
