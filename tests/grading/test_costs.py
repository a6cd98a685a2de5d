"""The optimal remaining cost (c* and the shaping potential Φ = −remaining)."""

from __future__ import annotations

from tests.grading._helpers import call, play, simulator, tasks, victim_index
from toolmaze_gym.grading import remaining_optimal, task_index


def _remaining(ep) -> int:
    return remaining_optimal(simulator().corpus, ep.task, ep.profile, ep.steps)


def test_remaining_without_faults_counts_calls_left_and_the_finish():
    task = next(tasks("C1"))
    S = task.default_path.calls
    for k in range(len(S) + 1):
        assert _remaining(play(task, "P0", [call(c) for c in S[:k]])) == len(S) - k + 1


def test_remaining_on_an_unsolvable_task_is_the_way_to_the_fault_then_stop():
    """C1 under P2: before the fault, the cheapest episode reaches the victim (its
    upstream slots, then the victim call) and aborts; after it, only the abort."""
    task = next(tasks("C1", lambda t: victim_index(t, "P2") >= 1))
    S, v = task.default_path.calls, victim_index(task, "P2")
    up = task_index(task, simulator().corpus).upstream[S[v].slot]
    assert _remaining(play(task, "P2", [])) == len(up) + 1 + 1
    ep = play(task, "P2", [call(c) for c in S[:v]])
    assert _remaining(ep) == 1 + 1
    ep.step(call(S[v]))
    assert ep.steps[-1].fault is not None and _remaining(ep) == 1


def test_remaining_counts_the_fault_still_ahead():
    """C2 under P1: the group's fault has not fired yet, so one failed call more."""
    task = next(tasks("C2"))
    S = task.default_path.calls
    assert _remaining(play(task, "P1", [])) == len(S) + 1 + 1
    v = victim_index(task, "P1")
    ep = play(task, "P1", [call(c) for c in S[: v + 1]])
    assert ep.steps[-1].fault is not None
    assert _remaining(ep) == len(S) - v + 1  # the retry, the rest, the finish
