"""Recovery cost: c* and the remaining optimal cost (the shaping potential).

c* is the fewest agent steps (the final finish/abort included) from just after the
first perturbed response to the end, under the same fault rules: what is left of
the shortest valid path the faults leave open, given the progress made so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading.index import task_index
from toolmaze_gym.grading.trace import Trace
from toolmaze_gym.tasks.enumeration import min_remaining_calls
from toolmaze_gym.tasks.model import Task


def optimal_after(trace: Trace, profile: FaultProfile, limit: int) -> int:
    """The fewest steps (the final finish/abort included) after step ``limit``."""
    idx = trace.idx
    task = idx.task
    fault_steps = [trace.steps[i].fault for i in trace.faults if i <= limit]
    blocked = idx.unsolvable(profile)
    if blocked and fault_steps:
        return 1  # nothing left to do but stop
    completed: set[str] = set()
    progress: dict[str, dict[int, int]] = {}
    for slot_id in idx.slot_ids:
        done = {k: trace.side_progress(cids, -1, limit)
                for k, cids in enumerate(idx.sides[slot_id])}
        if any(cids and done[k] == len(cids) for k, cids in enumerate(idx.sides[slot_id])):
            completed.add(slot_id)
        else:
            progress[slot_id] = done
    if blocked:
        # Not exposed yet: complete what the victim needs, meet the fault, stop.
        need = set().union(*(idx.upstream[v.slot] for v in profile.victims)) - completed
        rest = min_remaining_calls(task, completed | (set(idx.slot_ids) - need), None,
                                   progress)
        return (rest or 0) + 1 + 1
    unusable: dict[str, set[int]] = {}
    if profile.permanent:
        for f in fault_steps:
            unusable.setdefault(f["slot"], set()).update(idx.fault_sides(f))
    rest = min_remaining_calls(task, completed, unusable, progress)
    if rest is None:
        return 1
    fired = {f["victim"] for f in fault_steps}
    pending = sum(1 for k, v in enumerate(profile.victims)
                  if k not in fired and v.slot not in completed)
    return rest + pending + 1


def optimal_cost(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
                 first: int) -> int:
    """c*: the fewest steps (final one included) from after step ``first``."""
    return optimal_after(Trace(task_index(task, corpus), steps[: first + 1]), profile,
                    first)


def remaining_optimal(corpus: Corpus, task: Task, profile: FaultProfile,
                      steps: Sequence[Step]) -> int:
    """The fewest steps still needed from the current point (shaping potential)."""
    return optimal_cost(corpus, task, profile, steps, len(steps) - 1)
