"""Human-readable views of a task (``toolmaze show``)."""

from __future__ import annotations

import json

from toolmaze_gym.tasks.model import Task


def _source(i) -> str:
    if i.source.is_literal:
        return json.dumps(i.source.value, ensure_ascii=False)
    return f"{i.source.slot}.{i.type}"


def describe(task: Task) -> str:
    lines = [f"{task.id}  level {task.level}  domains {', '.join(task.domains)}",
             f"query: {task.query}", "", "slots:"]
    for s in task.slots:
        alts = " | ".join(" -> ".join(side) for side in s.alternatives)
        group = f"  [group {s.group}]" if s.group else ""
        lines.append(f"  {s.id}: {alts}{group}")
        for i in s.inputs:
            lines.append(f"      {i.role} ({i.type}) <- {_source(i)}")
    lines.append("")
    lines.append(f"edges: {', '.join(f'{u}->{v} ({t})' for u, v, t in task.edges()) or 'none'}")
    lines.append(f"solution paths: {len(task.solutions)} (s* = path {task.default + 1})")
    for k, p in enumerate(task.solutions):
        star = "*" if k == task.default else " "
        lines.append(f" {star}{k + 1}. " + " -> ".join(c.tool for c in p.calls)
                     + f"  ({p.length} calls)")
    lines.append(f"tools shown: {', '.join(task.tools)}")
    return "\n".join(lines)
