"""The solution space S of a task: every valid path, run and recorded.

A path picks one alternative per branch slot; the DAG (networkx) fixes a
canonical topological order. Enumeration is exhaustive — the product of the
branch slots' alternatives — and every path is executed in the clean simulator,
so the recorded arguments are exactly those a correct agent must send.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.tasks.execution import execute
from toolmaze_gym.tasks.model import Slot, SolutionPath, Task


def enumerate_solutions(sim: Simulator, slots: Sequence[Slot]) -> list[SolutionPath]:
    """All valid paths in lexicographic choice order; raises ExecutionError if one fails."""
    ranges = [range(len(s.alternatives)) for s in slots]
    return [SolutionPath(choice=tuple(choice), calls=tuple(execute(sim, slots, choice)))
            for choice in itertools.product(*ranges)]


def default_index(solutions: Sequence[SolutionPath]) -> int:
    """s*: the shortest path; ties go to the lexicographically first choice."""
    return min(range(len(solutions)), key=lambda i: (solutions[i].length, solutions[i].choice))


def min_remaining_calls(task: Task, completed: set[str] | frozenset[str] = frozenset(),
                        unusable: Mapping[str, set[int]] | None = None,
                        progress: Mapping[str, Mapping[int, int]] | None = None) -> int | None:
    """The fewest calls that still complete the task, or None if no path remains.

    ``completed`` slots cost nothing; ``unusable`` marks alternatives that can no
    longer succeed (a permanent fault); ``progress`` counts calls of a side already
    made cleanly. Slots are independent given their inputs, so the minimum is the
    sum of per-slot minima.
    """
    unusable = unusable or {}
    progress = progress or {}
    total = 0
    for slot in task.slots:
        if slot.id in completed:
            continue
        options = [len(side) - progress.get(slot.id, {}).get(i, 0)
                   for i, side in enumerate(slot.alternatives)
                   if i not in unusable.get(slot.id, set())]
        if not options:
            return None
        total += min(options)
    return total
