"""Call helpers shared by the per-domain corpus tests."""

from __future__ import annotations

from typing import Any

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.invariants import violations
from toolmaze_gym.corpus.state import EpisodeState


def call(sim: Simulator, state: EpisodeState, name: str, /, **args: Any) -> dict[str, Any]:
    """A call that must succeed with a response satisfying every documented invariant."""
    r = sim.call(name, args, state)
    assert r.ok, (name, args, r.body)
    assert not violations(sim.corpus[name], args, r.body, sim.world), (name, r.body)
    return r.body


def status_of(sim: Simulator, state: EpisodeState, name: str, /, **args: Any) -> int:
    return sim.call(name, args, state).status
