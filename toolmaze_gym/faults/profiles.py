"""Perturbation profiles: which slot fails, and exactly how, for each (task, mode).

Profiles are fixed per (task, P) so every agent meets identical faults. The
victim is a node on s* (C1: never the final Action, always something read
downstream), the alternative group of the branch slot (C2/C3), or one per branch
slot (C4). Explicit modes carry the error body; implicit modes carry, for every
tool that may take the fault, the corruption recipe and the witness it produces
on the expected call — re-checkable by anyone.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.corruption import apply_recipe, corruption_options, witness_for
from toolmaze_gym.faults.modes import get_mode
from toolmaze_gym.faults.responses import error_body
from toolmaze_gym.tasks.model import Task

PROFILE_VERSION = "1"


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


def _consumed(task: Task, slot_id: str, tool: str, sim: Simulator) -> set[str]:
    """Types of ``tool``'s output that a later call reads, so a corruption there
    travels: the next tools of its side read what they take from it; the side's
    last tool feeds the slots downstream."""
    slot = task.slot_by_id[slot_id]
    side = next(s for s in slot.alternatives if tool in s)
    later = side[side.index(tool) + 1:]
    if not later:
        return {i.type for s in task.slots for i in s.inputs
                if not i.source.is_literal and i.source.slot == slot_id}
    calls = {c.tool: c for p in task.solutions for c in p.calls if c.slot == slot_id}
    sent = [v for t in later for v in calls[t].args.values()]
    body = calls[tool].response
    return {f.type for f in sim.corpus[tool].returns if f.name in body and body[f.name] in sent}


def _expected_call(task: Task, tool: str):
    return next(c for p in task.solutions for c in p.calls if c.tool == tool)


def _recipe(sim: Simulator, task: Task, slot_id: str, tool: str, key: str,
            tiers: int = 2) -> tuple[str, dict[str, str]] | None:
    """The corruption for ``tool``: preferably of a value a later call reads."""
    spec = sim.corpus[tool]
    call = _expected_call(task, tool)
    for tier in corruption_options(spec, _consumed(task, slot_id, tool, sim))[:tiers]:
        for recipe in hashing.shuffled(tier, "recipe", key):
            bad = apply_recipe(spec, recipe, call.args, call.response, sim.world, key)
            w = None if bad is None else witness_for(spec, call.args, bad, sim.world)
            if w is not None:
                return recipe, w.to_dict()
    return None


def victim_slots(task: Task, sim: Simulator) -> list[str]:
    """Where faults go: the branch slots, or one admissible C1 node on s*."""
    if task.level != "C1":
        return [s.id for s in task.branch_slots()]
    final = task.default_path.calls[-1].slot
    read = {u for u, _, _ in task.edges()}
    for tiers in (1, 2):  # prefer a node whose corrupted value a later call would read
        candidates = [s.id for s in task.slots if s.id != final and s.id in read
                      and all(_recipe(sim, task, s.id, t, f"{task.id}/probe", tiers)
                              for t in s.tools)]
        if candidates:
            return [hashing.choice(candidates, "victim", task.id)]
    raise ProfileError(f"{task.id}: no node on s* can carry an implicit fault")


def build_profile(task: Task, mode: str, sim: Simulator) -> FaultProfile:
    m = get_mode(mode)
    if not m.faulty:
        return FaultProfile(task.id, m.name, ())
    victims = []
    for slot_id in victim_slots(task, sim):
        slot = task.slot_by_id[slot_id]
        key = f"{task.id}/{m.name}/{slot_id}"
        if m.explicit:
            victims.append(Victim(slot_id, tuple(slot.tools), error=error_body(m.permanent, key)))
            continue
        recipes, witnesses = {}, {}
        for tool in slot.tools:
            found = _recipe(sim, task, slot_id, tool, f"{key}/{tool}")
            if found is None:
                raise ProfileError(f"{task.id}: {tool} cannot carry an implicit fault")
            recipes[tool], witnesses[tool] = found
        victims.append(Victim(slot_id, tuple(slot.tools), recipes=recipes, witnesses=witnesses))
    return FaultProfile(task.id, m.name, tuple(victims))
