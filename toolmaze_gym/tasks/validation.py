"""Structural validation: nothing is accepted on trust.

A task passes only if its slot graph is acyclic and has its level's pattern,
every edge joins equal types, every argument of every alternative is bound to
the query or to an upstream output, it reads (Source) and acts (Action), its
solution space is complete, and its query passes the reverse check.
"""

from __future__ import annotations

import math

import networkx as nx

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.corpus.corruption import detectable
from toolmaze_gym.tasks.execution import plan_side
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.queries import reverse_check

SINGLE = {"one_to_one", "one_to_n"}


def slot_graph(task: Task) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(s.id for s in task.slots)
    g.add_edges_from((u, v) for u, v, _ in task.edges())
    return g


def _linear(task: Task) -> bool:
    ids = [s.id for s in task.slots]
    by_id = task.slot_by_id
    return all(ids[k - 1] in by_id[ids[k]].upstream() for k in range(1, len(ids)))


def _kinds(task: Task, corpus: Corpus) -> list[str]:
    return [corpus.group_by_id[s.group].kind for s in task.branch_slots()]


def pattern_problems(task: Task, corpus: Corpus, g: nx.DiGraph) -> list[str]:
    kinds = _kinds(task, corpus)
    if task.level == "C1":
        ok = not kinds and _linear(task)
    elif task.level == "C2":
        ok = len(kinds) == 1 and kinds[0] in SINGLE and _linear(task)
    elif task.level == "C3":
        ok = kinds == ["n_to_n"] and _linear(task)
    else:
        roots = [n for n in g if g.in_degree(n) == 0]
        joins = [n for n in g if g.in_degree(n) >= 2 and _parallel(g, list(g.predecessors(n)))]
        ok = (len(kinds) >= 2 and bool(set(kinds) & SINGLE) and "n_to_n" in kinds
              and len(roots) >= 2 and bool(joins))
    return [] if ok else [f"DAG does not have the {task.level} pattern (branch kinds {kinds})"]


def _parallel(g: nx.DiGraph, preds: list[str]) -> bool:
    """Two predecessors whose ancestries are disjoint: parallel branches joining."""
    anc = [nx.ancestors(g, p) | {p} for p in preds]
    return any(not (anc[i] & anc[j]) for i in range(len(anc)) for j in range(i + 1, len(anc)))


def edge_problems(task: Task, corpus: Corpus) -> list[str]:
    problems = []
    by_id = task.slot_by_id
    for slot in task.slots:
        pairs = [(i.role, i.type) for i in slot.inputs]
        for side in slot.alternatives:
            if plan_side(corpus, side, pairs) is None:
                problems.append(f"{slot.id}: side {side} leaves arguments unbound")
        for i in slot.inputs:
            if i.source.is_literal:
                continue
            up = by_id.get(i.source.slot)
            if up is None:
                problems.append(f"{slot.id}: input from unknown slot {i.source.slot}")
            elif up.is_branch:
                if i.type not in corpus.group_by_id[up.group].provides:
                    problems.append(f"{slot.id}: {up.id} does not guarantee {i.type}")
            elif not any(f.type == i.type for t in up.tools for f in corpus[t].returns):
                problems.append(f"{slot.id}: {up.id} produces no {i.type}")
            if i.source.type != i.type:
                problems.append(f"{slot.id}: edge type {i.source.type} != {i.type}")
    return problems


def _detectable_slot(task: Task, corpus: Corpus, slot_id: str, world) -> bool:
    calls = {c.tool: c for p in task.solutions for c in p.calls if c.slot == slot_id}
    return all(detectable(corpus[t], c.args, c.response, world) for t, c in calls.items())


def fault_problems(task: Task, corpus: Corpus, world) -> list[str]:
    """Every task must be able to carry each mode's fault: where the faults go (the
    branch slots, or for C1 some non-final node whose output is read) an implicit
    corruption must exist that the documented invariants detect."""
    if task.level != "C1":
        return [f"{s.id}: no detectable corruption for an implicit fault"
                for s in task.branch_slots() if not _detectable_slot(task, corpus, s.id, world)]
    final = task.default_path.calls[-1].slot
    read = {u for u, _, _ in task.edges()}
    if not any(_detectable_slot(task, corpus, s.id, world) for s in task.slots
               if s.id != final and s.id in read):
        return ["no node on s* can carry a detectable implicit fault"]
    return []


def validate_task(task: Task, corpus: Corpus, world=None) -> list[str]:
    """Every problem with ``task``; an empty list means it is accepted."""
    g = slot_graph(task)
    if not nx.is_directed_acyclic_graph(g):
        return ["slot graph has a cycle"]
    problems = pattern_problems(task, corpus, g) + edge_problems(task, corpus)
    cats = {corpus[c.tool].category for c in task.default_path.calls}
    if "Source" not in cats or "Action" not in cats:
        problems.append("s* needs at least one Source and one Action")
    expected = math.prod(len(s.alternatives) for s in task.slots)
    if len(task.solutions) != expected:
        problems.append(f"{len(task.solutions)} solutions recorded, {expected} exist")
    for p in task.solutions:
        if {c.slot for c in p.calls} != {s.id for s in task.slots}:
            problems.append(f"path {p.choice} does not cover every slot")
    if any(t not in corpus for t in task.tools):
        problems.append("candidate list names an unknown tool")
    if world is not None:
        problems += fault_problems(task, corpus, world)
    return problems + reverse_check(task, corpus)
