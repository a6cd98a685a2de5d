"""Solution spaces: exhaustive, ordered, with exact remaining costs."""

from __future__ import annotations

import math

from toolmaze_gym.tasks.enumeration import enumerate_solutions, min_remaining_calls
from toolmaze_gym.tasks.suite import V1_NAME, load_suite

C4 = [t for t in load_suite(V1_NAME, ["C4"])] + [t for t in load_suite(levels=["C4"])]


def test_enumeration_is_the_full_product_in_lexicographic_order(sim):
    task = C4[0]
    paths = enumerate_solutions(sim, task.slots)
    assert len(paths) == math.prod(len(s.alternatives) for s in task.slots)
    assert [p.choice for p in paths] == sorted(p.choice for p in paths)
    assert [p.choice for p in paths] == [p.choice for p in task.solutions]


def test_remaining_cost_from_the_start_is_the_length_of_s_star():
    for task in C4[:20]:
        assert min_remaining_calls(task) == task.default_path.length


def test_remaining_cost_after_progress_and_under_a_permanent_fault():
    task = next(t for t in C4 if any(len({len(a) for a in s.alternatives}) > 1
                                     for s in t.branch_slots()))
    slot = next(s for s in task.branch_slots() if len({len(a) for a in s.alternatives}) > 1)
    lengths = [len(a) for a in slot.alternatives]
    best = min(range(len(lengths)), key=lambda k: (lengths[k], k))
    others = [k for k in range(len(lengths)) if k != best]
    base = task.default_path.length
    # the shortest side is broken for good: the cheapest other side must be used
    broken = min_remaining_calls(task, unusable={slot.id: {best}})
    assert broken == base - lengths[best] + min(lengths[k] for k in others)
    # every side broken: no valid path remains
    assert min_remaining_calls(task, unusable={slot.id: set(range(len(lengths)))}) is None
    # a completed slot costs nothing; progress inside a side is credited
    assert min_remaining_calls(task, completed={slot.id}) == base - lengths[best]
    assert min_remaining_calls(task, progress={slot.id: {best: 1}}) == base - 1
