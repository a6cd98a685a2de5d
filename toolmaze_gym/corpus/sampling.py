"""Valid arguments from types: literals from the world, the rest from producers.

A parameter whose type can be stated in a query (a city, an e-mail) is sampled
from the world; any other value (an id, a computed amount) is obtained the way a
task would obtain it — by calling a tool that produces that type. Tests, the
group-agreement check and the random agent share this one definition of "valid".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.corpus.simulator import Simulator
from toolmaze_gym.corpus.spec import ToolSpec
from toolmaze_gym.corpus.state import EpisodeState


@cache
def _producers(corpus: Corpus) -> dict[str, list[tuple[str, str]]]:
    """type -> [(tool, field)], Sources first, then by name (deterministic)."""
    rank = {"Source": 0, "Processor": 1, "Action": 2}
    out: dict[str, list[tuple[int, str, str]]] = {}
    for t in corpus.tools.values():
        for f in t.returns:
            out.setdefault(f.type, []).append((rank[t.category], t.name, f.name))
    return {k: [(n, f) for _, n, f in sorted(v)] for k, v in out.items()}


def producers(corpus: Corpus, type_name: str) -> list[tuple[str, str]]:
    return _producers(corpus).get(type_name, [])


def sample_literal(sim: Simulator, spec: ToolSpec, pname: str, key: str) -> Any:
    p = spec.param(pname)
    assert p is not None
    if p.enum:
        from toolmaze_gym import hashing

        return hashing.choice(p.enum, spec.name, pname, key)
    return values.get(p.type).sample(sim.world, f"{key}/{p.type}/{pname}")


def produce(sim: Simulator, type_name: str, state: EpisodeState, key: str,
            depth: int, avoid: frozenset[str] = frozenset()) -> tuple[bool, Any]:
    """A value of ``type_name`` obtained by calling some producer tool."""
    if depth <= 0:
        return False, None
    for tool, field in producers(sim.corpus, type_name):
        if tool in avoid:
            continue
        args = valid_arguments(sim, sim.corpus[tool], state, key, depth - 1, avoid | {tool})
        if args is None:
            continue
        resp = sim.call(tool, args, state)
        if resp.ok:
            return True, resp.body[field]
    return False, None


def valid_arguments(sim: Simulator, spec: ToolSpec, state: EpisodeState, key: str = "0",
                    depth: int = 4, avoid: frozenset[str] = frozenset(),
                    bound: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """Arguments for every required parameter, or None if some cannot be produced.

    ``bound`` maps a semantic type to a value already at hand (external inputs
    of a group side); such parameters take that value.
    """
    args: dict[str, Any] = {}
    for p in spec.params:
        if not p.required:
            continue
        if bound and p.type in bound:
            args[p.name] = bound[p.type]
        elif p.enum or values.get(p.type).literal:
            args[p.name] = sample_literal(sim, spec, p.name, key)
        else:
            ok, value = produce(sim, p.type, state, key, depth, avoid | {spec.name})
            if not ok:
                return None
            args[p.name] = value
    return args
