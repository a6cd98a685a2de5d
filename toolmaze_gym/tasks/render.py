"""Human-readable views of a task (``toolmaze show``)."""

from __future__ import annotations

import json

from toolmaze_gym.tasks.model import Task


def _source(i) -> str:
    if i.source.is_literal:
        return json.dumps(i.source.value, ensure_ascii=False)
    return f"{i.source.slot}.{i.source.field or i.type}"


def describe(task: Task) -> str:
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
        for i in s.inputs:
            lines.append(f"      {i.role} ({i.type}) <- {_source(i)}")
            if i.mentions:
                said = ", ".join(f"{json.dumps(v, ensure_ascii=False)} ({t})"
                                 for t, v, *_ in i.mentions)
                lines.append(f"          must mention: {said}")
    lines.append("")
    lines.append(f"edges: {', '.join(f'{u}->{v} ({t})' for u, v, t in task.edges()) or 'none'}")
    lines.append(f"solution paths: {len(task.solutions)} (s* = path {task.default + 1})")
    for k, p in enumerate(task.solutions):
        star = "*" if k == task.default else " "
        lines.append(f" {star}{k + 1}. " + " -> ".join(c.tool for c in p.calls)
                     + f"  ({p.length} calls)")
    lines.append(f"tools shown: {', '.join(task.tools)}")
    return "\n".join(lines)
