"""Human-readable views of a task (``toolmaze show``).

Each slot is printed as the agent meets it: per alternative, the shown tools with
their own parameter names, documented units and the reference arguments
(``shown_params``), each next to the capability role it binds; the role-level
inputs are printed only for a side whose tools no longer bind them.
"""

from __future__ import annotations

import json

from toolmaze_gym.corpus import Corpus, load_corpus
from toolmaze_gym.tasks.model import Input, Slot, Task
from toolmaze_gym.tasks.shown_params import shown_params


def _source(i) -> str:
    if i.source.is_literal:
        return json.dumps(i.source.value, ensure_ascii=False)
    return f"{i.source.slot}.{i.source.field or i.type}"


def _mentions(mentions) -> str:
    said = ", ".join(f"{json.dumps(v, ensure_ascii=False)} ({t})" for t, v, *_ in mentions)
    return f"must mention: {said}"


def _capability_lines(inputs: tuple[Input, ...]) -> list[str]:
    lines = []
    for i in inputs:
        lines.append(f"      {i.role} ({i.type}) <- {_source(i)}")
        if i.mentions:
            lines.append(f"          {_mentions(i.mentions)}")
    return lines


def _slot_lines(corpus: Corpus, task: Task, slot: Slot) -> list[str]:
    """Each alternative's tools with the parameters the agent fills in."""
    lines = []
    for k, side in enumerate(slot.alternatives):
        params = shown_params(corpus, task, slot, k)
        if not params:
            lines.append(f"    alternative {k + 1}: {' -> '.join(side)} (capability inputs)")
            lines += _capability_lines(slot.inputs)
            continue
        lines.append(f"    alternative {k + 1}: {' -> '.join(side)}")
        for tool in side:
            lines.append(f"      {tool}")
            for p in (p for p in params if p.tool == tool):
                lines.append(f"        {p.line()}")
                if p.mentions:
                    lines.append(f"            {_mentions(p.mentions)}")
    return lines


def describe(task: Task, corpus: Corpus | None = None) -> str:
    """The task as ``toolmaze show`` prints it (``corpus``: the shipped one)."""
    corpus = corpus or load_corpus()
    lines = []
    if task.meta.get("goal"):
        lines.append(f"goal: {task.meta['goal']}")
    lines += [f"query: {task.query}", "",
              f"{task.id}  level {task.level}  domains {', '.join(task.domains)}"
              + (f"  scenario {task.meta['scenario']}" if task.meta.get("scenario") else ""),
              "", "slots:"]
    steps = task.meta.get("steps", {})
    for s in task.slots:
        alts = " | ".join(" -> ".join(side) for side in s.alternatives)
        group = f"  [group {s.group}]" if s.group else ""
        step = f" ({steps[s.id]})" if s.id in steps else ""
        lines.append(f"  {s.id}{step}: {alts}{group}")
        lines += _slot_lines(corpus, task, s)
    lines.append("")
    lines.append(f"edges: {', '.join(f'{u}->{v} ({t})' for u, v, t in task.edges()) or 'none'}")
    lines.append(f"solution paths: {len(task.solutions)} (s* = path {task.default + 1})")
    for k, p in enumerate(task.solutions):
        star = "*" if k == task.default else " "
        lines.append(f" {star}{k + 1}. " + " -> ".join(c.tool for c in p.calls)
                     + f"  ({p.length} calls)")
    lines.append(f"tools shown: {', '.join(task.tools)}")
    return "\n".join(lines)
