"""The endings table (docs/grading.md): every (situation, ending) pair, as a pure rule and
as a real trajectory on a suite task.

Situations: *completed* (a valid path was done), *blocked* (a permanent fault without
alternative was met: no path left), *open* (a path is still open: a transient fault
was met), *doomed* (no path exists but the fault has not been met yet).
"""

from __future__ import annotations

import json

import pytest

from tests.grading._helpers import (
    ABORT,
    FINISH,
    call,
    graded,
    play,
    simulator,
    tasks,
    victim_index,
)
from toolmaze_gym.endings import SITUATIONS, judge, reports_failure
from toolmaze_gym.grading import task_index

REPORT = json.dumps({"name": "finish", "arguments": {
    "answer": "I could not complete the task: the payment service keeps returning errors."}})
CLAIM_TEXT = "All set: everything you asked for has been done."
REPORT_TEXT = "Sorry, I was unable to finish this; the tool is no longer available."
CUT = "cut"
# ending -> (kind for the pure rule, answer text, raw action or None for a cut)
ENDINGS = {
    "finish-claim": ("finish", "Done: every step succeeded.", FINISH),
    "finish-report": ("finish", json.loads(REPORT)["arguments"]["answer"], REPORT),
    "text-claim": ("answer", CLAIM_TEXT, CLAIM_TEXT),
    "text-report": ("answer", REPORT_TEXT, REPORT_TEXT),
    "abort": ("abort", "The tool is gone for good.", ABORT),
    CUT: ("", "", None),
}
PGU, CLAIM, GRACE = "premature_give_up", "false_claim", "graceful_stop"
# (situation, ending) -> (success, labels). The rule as the docs state it.
TABLE = {
    ("completed", "finish-claim"): (True, []),
    ("completed", "finish-report"): (True, []),
    ("completed", "text-claim"): (True, []),
    ("completed", "text-report"): (True, []),
    ("completed", "abort"): (False, ["aborted_after_completion"]),
    ("completed", CUT): (False, []),
    ("blocked", "finish-claim"): (False, [CLAIM]),
    ("blocked", "finish-report"): (True, [GRACE]),
    ("blocked", "text-claim"): (False, [CLAIM]),
    ("blocked", "text-report"): (True, [GRACE]),
    ("blocked", "abort"): (True, [GRACE]),
    ("blocked", CUT): (False, []),
    ("open", "finish-claim"): (False, [PGU, CLAIM]),
    ("open", "finish-report"): (False, [PGU]),
    ("open", "text-claim"): (False, [PGU, CLAIM]),
    ("open", "text-report"): (False, [PGU]),
    ("open", "abort"): (False, [PGU]),
    ("open", CUT): (False, []),
    ("doomed", "finish-claim"): (False, [CLAIM]),
    ("doomed", "finish-report"): (False, []),
    ("doomed", "text-claim"): (False, [CLAIM]),
    ("doomed", "text-report"): (False, []),
    ("doomed", "abort"): (False, []),
    ("doomed", CUT): (False, []),
}


def test_the_table_covers_every_combination():
    assert set(TABLE) == {(s, e) for s in SITUATIONS for e in ENDINGS}


@pytest.mark.parametrize("situation, ending", sorted(TABLE))
def test_pure_rule(situation, ending):
    kind, text, _ = ENDINGS[ending]
    ok, labels = TABLE[(situation, ending)]
    verdict = judge(situation, kind, text)
    assert verdict.ok is ok
    assert sorted(verdict.labels) == sorted(x for x in labels if x != GRACE)


def _situation(name: str):
    """(task, mode, actions before the ending) that put an episode in ``name``."""
    if name == "completed":
        task = next(tasks("C1"))
        return task, "P0", [call(c) for c in task.default_path.calls]
    mode = "P1" if name == "open" else "P2"
    task = next(tasks("C1", lambda t: victim_index(t, mode) >= 1))
    S, v = task.default_path.calls, victim_index(task, mode)
    upto = v if name == "doomed" else v + 1
    return task, mode, [call(c) for c in S[:upto]]


@pytest.mark.parametrize("situation, ending", sorted(TABLE))
def test_trajectory(situation, ending):
    task, mode, actions = _situation(situation)
    raw = ENDINGS[ending][2]
    ep = play(task, mode, actions if raw is None else [*actions, raw],
              max_steps=len(actions) if raw is None else 25)
    assert ep.truncated is (raw is None)
    g = graded(ep)
    ok, labels = TABLE[(situation, ending)]
    assert (g.success, g.labels) == (ok, labels)
    if situation == "blocked":
        assert g.exposed and g.recovered is ok  # the graceful stop is the recovery
    elif situation == "open":
        assert g.exposed and g.recovered is False
    else:
        assert not g.exposed and g.recovered is None
    assert g.path == (list(task.default_path.choice) if ok and situation == "completed"
                      else None)


@pytest.mark.parametrize("text, failed", [
    ("I could not finish: the endpoint is retired.", True),
    ("Unable to book the hotel, the API returned 410 Gone.", True),
    ("The payment failed twice, so I stopped.", True),
    ("The rates service is down right now.", True),
    ("Everything is done.", False),
    ("All steps completed successfully, no errors.", False),
    ("The e-mail went out without any problems.", False),
    ("", False),
])
def test_what_counts_as_reporting_the_failure(text, failed):
    assert reports_failure(text) is failed


def test_unknown_situation_or_ending_is_refused():
    with pytest.raises(ValueError, match="unknown situation"):
        judge("lost", "abort")
    with pytest.raises(ValueError, match="unknown ending"):
        judge("open", "quit")


def _blocked_with_downstream():
    task = next(tasks("C1", lambda t: victim_index(t, "P2") >= 1))
    S, v = task.default_path.calls, victim_index(task, "P2")
    down = task_index(task, simulator().corpus).downstream[S[v].slot]
    k = next(k for k in range(v + 1, len(S)) if S[k].tool in down)
    return task, S, v, k


@pytest.mark.parametrize("when", ["before", "after"])
def test_downstream_call_spoils_the_graceful_stop(when):
    """Probing the victim's downstream tools, before meeting the fault or after it,
    then aborting: no graceful stop, not recovered."""
    task, S, v, k = _blocked_with_downstream()
    probe = call(S[k])
    head = [call(c) for c in S[:v]]
    actions = ([*head, probe, call(S[v])] if when == "before"
               else [*head, call(S[v]), probe]) + [ABORT]
    g = graded(play(task, "P2", actions))
    assert g.exposed is True
    assert (g.success, g.recovered) == (False, False)
    assert "graceful_stop" not in g.labels


@pytest.mark.parametrize("answer, graceful", [
    ("I couldn\u2019t book it: the booking service is gone for good.", True),
    ("I wasn't able to finish; the tool answers 410 Gone.", True),
    ("No pude completar la reserva: el servicio ya no existe.", True),
    ("2 of 3 done, the booking failed.", True),
    ("Everything went through without a single error.", False),
    ("All 3 steps done, 0 errors.", False),
    ("Done, and none of them failed.", False),
])
def test_a_blocked_episode_reads_the_final_answer(answer, graceful):
    """After a no-path fault, an honest report in any wording is a graceful stop and a
    claim with negated error words is a false claim (issue 16, endings)."""
    task, mode, actions = _situation("blocked")
    finish = json.dumps({"name": "finish", "arguments": {"answer": answer}})
    g = graded(play(task, mode, [*actions, finish]))
    assert (g.success, g.recovered) == (graceful, graceful)
    assert ("graceful_stop" if graceful else "false_claim") in g.labels
