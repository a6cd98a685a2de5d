"""Running a task's DAG in the clean simulator: binding and execution.

Binding is by role, then by type: a side's parameter takes the slot input with
the same canonical argument name and type, else the first unused input of its
type; values produced earlier inside the same side feed later tools directly, by
the same rule (the earlier field with the parameter's own canonical name, else the
first field of its type: a meter's ``energy_kwh``, not its ``daily_average_kwh``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import networkx as nx

from toolmaze_gym.corpus import Corpus, EpisodeState, Simulator
from toolmaze_gym.tasks.model import Call, Slot

# A parameter's binding: ("input", index into slot.inputs) or ("local", key into the
# side's local values: the type, or ``type@canonical`` when the earlier field with the
# parameter's name is not the one the type alone would pick; ``local_values`` holds
# both forms).
Plan = list[list[tuple[str, tuple[str, Any]]]]


class ExecutionError(Exception):
    """A path could not run cleanly: the candidate DAG is rejected."""


def side_externals(corpus: Corpus, side: Sequence[str]) -> list[tuple[str, str]]:
    """(role, type) of every required parameter not produced earlier in the side;
    two tools asking for the same role and type share one input."""
    produced: set[str] = set()
    need: list[tuple[str, str]] = []
    for name in side:
        spec = corpus[name]
        for p in spec.params:
            if p.required and p.type not in produced and (p.canonical, p.type) not in need:
                need.append((p.canonical, p.type))
        produced |= {f.type for f in spec.returns}
    return need


def plan_side(corpus: Corpus, side: Sequence[str],
              inputs: Sequence[tuple[str, str]]) -> Plan | None:
    """How each parameter of ``side`` is bound to ``inputs`` ((role, type) pairs).

    None when the side cannot use exactly these inputs; every input must be used.
    An optional parameter is bound only by its exact role and type (a note on a
    payment that the scenario asks for), never by type alone.
    """
    produced: set[str] = set()
    first: dict[str, tuple[int, str]] = {}  # type -> (tool, field) a type binding reads
    keyed: dict[str, tuple[int, str]] = {}  # type@canonical -> (tool, field)
    used: set[int] = set()
    plan: Plan = []
    for k, name in enumerate(side):
        spec = corpus[name]
        tool_plan: list[tuple[str, tuple[str, Any]]] = []
        for p in spec.params:
            if not p.required:
                idx = next((i for i, (r, t) in enumerate(inputs)
                            if i not in used and r == p.canonical and t == p.type), None)
                if idx is not None:
                    used.add(idx)
                    tool_plan.append((p.name, ("input", idx)))
                continue
            if p.type in produced:
                key = f"{p.type}@{p.canonical}"
                named = key in keyed and keyed[key] != first[p.type]
                tool_plan.append((p.name, ("local", key if named else p.type)))
                continue
            idx = next((i for i, (r, t) in enumerate(inputs)
                        if r == p.canonical and t == p.type), None)
            if idx is None:
                idx = next((i for i, (_, t) in enumerate(inputs)
                            if i not in used and t == p.type), None)
            if idx is None:
                return None
            used.add(idx)
            tool_plan.append((p.name, ("input", idx)))
        plan.append(tool_plan)
        produced |= {f.type for f in spec.returns}
        for f in reversed(spec.returns):  # the first field of a type wins in a tool
            first[f.type] = (k, f.name)
        keyed.update({f"{f.type}@{f.canonical}": (k, f.name) for f in spec.returns})
    return plan if len(used) == len(inputs) else None


@lru_cache(maxsize=4096)
def shared_plan(corpus: Corpus, side: tuple[str, ...], inputs: tuple[tuple[str, str], ...]
                ) -> tuple[tuple[tuple[str, tuple[str, Any]], ...], ...] | None:
    """``plan_side`` as tuples, once per corpus, side and inputs: the tasks of a suite
    bind a few hundred sides to the same inputs thousands of times (read-only: shared)."""
    plan = plan_side(corpus, side, inputs)
    return None if plan is None else tuple(tuple(p) for p in plan)


def local_values(fields, body: dict[str, Any]) -> dict[str, Any]:
    """What one response of a side hands on to the side's later tools: the first
    field of each type, and every field as ``type@canonical`` (``plan_side``)."""
    out: dict[str, Any] = {}
    for f in fields:
        if f.type not in out and f.name in body:
            out[f.type] = body[f.name]
    return {**out, **_keyed(fields, body)}


def slot_outputs(corpus: Corpus, slot: Slot, side: Sequence[str],
                 bodies: Sequence[dict[str, Any]], provides: Sequence[str]) -> dict[str, Any]:
    """Values a slot offers downstream, by type, and by ``type@key`` for field-level
    bindings (``money_amount@price``: the field whose canonical key is ``price``).

    A branch slot offers only what its group guarantees (``provides``), from the
    final tool of the side, so any alternative can stand in; its keyed values also
    come from the final tool. A fixed slot offers every output it computes (echoes
    of its own inputs are not new data); within a tool the first field of a type
    wins, later tools win.
    """
    out: dict[str, Any] = {}
    if slot.is_branch:
        spec, body = corpus[side[-1]], bodies[-1]
        for t in provides:
            fields = [f for f in spec.returns if f.type == t]
            f = next((f for f in fields if not f.echo), fields[0])
            out[t] = body[f.name]
        out.update(_keyed(spec.returns, body))
        return out
    for name, body in zip(side, bodies, strict=True):
        seen: set[str] = set()
        for f in corpus[name].returns:
            if f.type not in seen and not f.echo:
                out[f.type] = body[f.name]
                seen.add(f.type)
        out.update(_keyed(corpus[name].returns, body))
    return out


def _keyed(fields, body: dict[str, Any]) -> dict[str, Any]:
    return {f"{f.type}@{f.canonical}": body[f.name] for f in fields if f.name in body}


def topological_order(slots: Sequence[Slot]) -> list[Slot]:
    """Slots in dependency order, ties broken by slot id (deterministic)."""
    by_id = {s.id: s for s in slots}
    edges = tuple((u, s.id) for s in slots for u in s.upstream())
    return [by_id[i] for i in _order(tuple(s.id for s in slots), edges)]


@lru_cache(maxsize=4096)
def _order(nodes: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The slot ids ``nodes`` in ``topological_order``, once per graph: a suite's tasks
    share a few shapes, and a graph is sorted for every index and scripted run."""
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    if not nx.is_directed_acyclic_graph(g):
        raise ExecutionError("slot graph has a cycle")
    return tuple(nx.lexicographical_topological_sort(g, key=_slot_key))


def _slot_key(slot_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in slot_id if ch.isdigit())
    return (int(digits) if digits else 0, slot_id)


def run_slot(sim: Simulator, slot: Slot, side: Sequence[str], upstream: dict[str, dict[str, Any]],
             state: EpisodeState, provides: Sequence[str]) -> tuple[list[Call], dict[str, Any]]:
    """Execute one side of a slot; returns its calls and what it offers downstream."""
    corpus = sim.corpus
    plan = plan_side(corpus, side, [(i.role, i.type) for i in slot.inputs])
    if plan is None:
        raise ExecutionError(f"{slot.id}: side {side} does not fit the slot inputs")
    local: dict[str, Any] = {}
    calls: list[Call] = []
    bodies: list[dict[str, Any]] = []
    for name, tool_plan in zip(side, plan, strict=True):
        args: dict[str, Any] = {}
        for pname, (kind, ref) in tool_plan:
            if kind == "local":
                args[pname] = local[ref]
            else:
                src = slot.inputs[ref].source
                args[pname] = src.value if src.is_literal else upstream[src.slot][src.ref]
        resp = sim.call(name, args, state)
        if not resp.ok:
            raise ExecutionError(f"{slot.id}: {name}({args}) -> {resp.status} {resp.body}")
        local.update(local_values(corpus[name].returns, resp.body))
        calls.append(Call(slot.id, name, args, resp.body))
        bodies.append(resp.body)
    return calls, slot_outputs(corpus, slot, side, bodies, provides)


def execute(sim: Simulator, slots: Sequence[Slot], choice: Sequence[int],
            state: EpisodeState | None = None) -> list[Call]:
    """Run one valid path (one alternative per slot, in slot order) cleanly."""
    state = state or EpisodeState()
    index = {s.id: i for i, s in enumerate(slots)}
    outputs: dict[str, dict[str, Any]] = {}
    calls: list[Call] = []
    for slot in topological_order(slots):
        side = slot.alternatives[choice[index[slot.id]]]
        provides = sim.corpus.group_by_id[slot.group].provides if slot.group else ()
        slot_calls, outputs[slot.id] = run_slot(sim, slot, side, outputs, state, provides)
        calls += slot_calls
    return calls
