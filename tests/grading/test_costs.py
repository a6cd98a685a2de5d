"""The optimal remaining cost (c* and the shaping potential Φ = −remaining)."""

from __future__ import annotations

from pathlib import Path

from tests.grading._helpers import call, play, played, simulator, tasks, victim_index
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


def test_a_side_whose_source_answered_wrongly_is_no_cheaper_for_its_summariser():
    """Round 5, c3-0078-P3: gnews_search answered sports for politics (transient); the
    agent took newsapi_everything and summarised with text_summarizer (the gnews
    side's summariser, the same job as tldr_summarize). The gnews side would need
    gnews again, so c* is the newsapi side's: C_rec 0, not 0.2."""
    actions = Path(__file__).parent.parent / "data" / "played" / "v3-round5" / \
        "tmz-v3-c3-0078-P3.actions"
    g = played("tmz-v3-c3-0078", "P3", actions.read_text(encoding="utf-8").splitlines())
    assert g["success"] and g["c"] == g["c_star"] == 5 and g["c_rec"] == 0


def test_a_processor_that_stood_in_for_a_lookup_is_one_call_of_its_kind():
    """v9 play-test c3-0043 P3: the agent shifted the landing in UTC, then converted it
    to Europe/Madrid without the time zone lookup. That convert_datetime call stood in
    for the lookup and was the side's conversion too: one call, so c* is the agent's 6
    (grading version 21; c* was 7, the call counted by name and by kind)."""
    from tests.grading.test_played import _replay

    probe = Path(__file__).parents[1] / "data/played/v9/probes" \
        / "tmz-v9-c3-0043-P3.status-and-time-tools.actions"
    g, _ = _replay(probe, "tmz-v9-c3-0043-P3")
    assert g["success"] and g["recovered"]
    assert g["c"] == g["c_star"] == 6
