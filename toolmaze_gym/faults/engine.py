"""The fault engine: decides, call by call, whether a fault fires.

Activation rules (docs/faults.md): the first tool of a victim's group that the
agent invokes (with a call that would succeed) takes the fault and the other
members stay clean; P1/P3 fault only that first invocation, P2/P4 keep the
chosen tool failing or corrupt for the episode. Faults only fire on calls the
agent makes, and every firing is recorded as an exposure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym.corpus import EpisodeState, Response, Simulator
from toolmaze_gym.corpus.corruption import (
    FAULT_KINDS,
    apply_recipe,
    corruption_options,
    witness_for,
)
from toolmaze_gym.faults.profiles import FaultProfile, rerun_for


@dataclass(frozen=True)
class FaultEvent:
    victim: int  # index into profile.victims
    slot: str
    tool: str
    kind: str  # "explicit" | "implicit"
    status: int
    corrupted: dict[str, Any] = field(default_factory=dict)  # field -> bad value
    clean: dict[str, Any] = field(default_factory=dict)  # field -> the true value
    witness: dict[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"victim": self.victim, "slot": self.slot, "tool": self.tool, "kind": self.kind,
                "status": self.status, "corrupted": dict(self.corrupted),
                "clean": dict(self.clean),
                "witness": None if self.witness is None else dict(self.witness)}


class FaultEngine:
    def __init__(self, profile: FaultProfile, sim: Simulator) -> None:
        self.profile = profile
        self.sim = sim
        self.scope = {t: k for k, v in enumerate(profile.victims) for t in v.tools}
        self.assigned: dict[int, str] = {}
        self.events: list[FaultEvent] = []

    def _would_fire(self, victim: int, tool: str) -> bool:
        taken = self.assigned.get(victim)
        return taken is None or (taken == tool and self.profile.permanent)

    def call(self, name: str, args: Any, state: EpisodeState) -> tuple[Response, FaultEvent | None]:
        victim = self.scope.get(name)
        if victim is None or not self._would_fire(victim, name):
            return self.sim.call(name, args, state), None
        # The fault fires only on a call that would succeed, and a faulted call has
        # no side effect: run it on a copy of the state and keep that copy only if
        # the call failed cleanly (a failed call changes nothing anyway).
        clean = self.sim.call(name, args, state.fork())
        if not clean.ok:
            return clean, None
        self.assigned.setdefault(victim, name)
        v = self.profile.victims[victim]
        if self.profile.explicit:
            assert v.error is not None
            event = FaultEvent(victim, v.slot, name, "explicit", v.error["error"]["code"])
            self.events.append(event)
            return Response(event.status, v.error), event
        recipe, bad = self._corrupt(v.recipes.get(name, ""), name, args, clean.body, v.slot,
                                    state)
        changed = {k: bad[k] for k in bad if bad[k] != clean.body.get(k)}
        w = witness_for(self.sim.corpus[name], args, bad, self.sim.world, recipe)
        event = FaultEvent(victim, v.slot, name, "implicit", 200, changed,
                           {k: clean.body[k] for k in changed}, w.to_dict() if w else None)
        self.events.append(event)
        return Response(200, bad), event

    def _corrupt(self, recipe: str, name: str, args: Any, body: dict[str, Any],
                 slot: str, state: EpisodeState) -> tuple[str, dict[str, Any]]:
        """The profile's corruption; another detectable one if it does not fit these args.

        The key is the one the profile was built with, so on the expected call the
        agent gets exactly the corrupted body (and witness) the profile records.
        """
        spec = self.sim.corpus[name]
        key = f"{self.profile.task_id}/{self.profile.mode}/{slot}/{name}"
        rerun = rerun_for(self.sim, name, state)
        options = corruption_options(spec)
        fallback = [r for kind in (*FAULT_KINDS, "blatant") for r in options[kind]]
        for r in [recipe, *fallback]:
            if not r:
                continue
            bad = apply_recipe(spec, r, args, body, self.sim.world, key, rerun)
            if bad is not None and witness_for(spec, args, bad, self.sim.world) is not None:
                return r, bad
        return "", body
