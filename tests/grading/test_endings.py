"""The endings table (docs/grading.md): every (situation, ending) pair, as a pure rule and
as a real trajectory on a suite task.

Situations: *completed* (a valid path was done), *blocked* (a permanent fault without
alternative was met: no path left), *open* (a path is still open: a transient fault
was met), *doomed* (no path exists but the fault has not been met yet).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
from toolmaze_gym.endings import (
    SITUATIONS,
    SilentFault,
    judge,
    names_the_fault,
    reports_failure,
    silent_faults,
)
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
    if ending != "abort":  # the grade gives up on an abort only (issue 27 item 6)
        labels = ["missing_action" if x == PGU else x for x in labels]
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


# ---------------------------------------------------------------- silent faults (issue 27)

QUOTE = SilentFault("finance_quote_lookup", (
    ("regularMarketPrice", "money_amount", 226.04),
    ("regularMarketTime", "unix_time", 1785659465)), "stale")
FLIGHT = SilentFault("skyscanner_browse_quotes", (
    ("destination_place", "city_name", "Vancouver"), ("quote_count", "quantity", 2)), "entity")


@pytest.mark.parametrize("fault, text", [
    (QUOTE, "finance_quote_lookup returns bad data."),  # the tool
    (QUOTE, "The finance quote lookup is broken, I stop."),  # the tool, spaced
    (QUOTE, "The quote service answers nonsense."),  # a distinctive word of the tool
    (QUOTE, "regularMarketTime is far in the past."),  # the field
    (QUOTE, "The timestamp is stale, so I stopped."),  # the field by its meaning
    (QUOTE, "The price looks two days old."),
    (QUOTE, "It says 226.04 USD, which I cannot trust."),  # the corrupted value
    (FLIGHT, "The search gives a flight to Vancouver."),
    (FLIGHT, "The destination in the answer is not the requested one."),
])
def test_a_stop_that_names_the_silent_fault(fault, text):
    assert names_the_fault(text, [fault]) is True
    assert judge("blocked", "abort", text, [fault]).ok is True


@pytest.mark.parametrize("fault, text", [
    (QUOTE, "cannot continue"), (QUOTE, "The data looks wrong, so I stopped."),
    (QUOTE, "Something is invalid; I can't go on at this time."), (QUOTE, ""),
    (FLIGHT, "I could not finish: the tool returned 2 bad results."),  # 2: too easy to hit
])
def test_a_stop_that_names_nothing_is_not_graceful_after_a_silent_fault(fault, text):
    """Issue 27: "make the first call, then abort without reading it" was a graceful stop
    on 49 of 100 C1P4 tasks."""
    assert names_the_fault(text, [fault]) is False
    verdict = judge("blocked", "abort", text, [fault])
    assert (verdict.ok, verdict.labels) == (False, ("unnamed_fault",))


def test_a_loud_fault_needs_no_naming_but_still_a_report():
    """The error was visible; any honest stop will do, a claim still fails."""
    assert judge("blocked", "abort", "cannot continue").ok is True
    assert judge("blocked", "finish", "All requested steps are done. Log: HTTP 410.").ok \
        is False


def test_a_claim_naming_the_fault_is_still_a_claim():
    verdict = judge("blocked", "finish", "Done: finance_quote_lookup gave 226.04 USD.", [QUOTE])
    assert (verdict.ok, verdict.labels) == (False, ("false_claim",))


def test_silent_faults_reads_the_fault_events():
    task = next(tasks("C1", lambda t: victim_index(t, "P4") == 0))
    ep = play(task, "P4", [call(task.default_path.calls[0]), ABORT])
    ev = ep.steps[0].fault
    (found,) = silent_faults([ev, None], simulator().corpus)
    assert found.tool == ev["tool"] and found.kind == ev["witness"]["kind"]
    assert {f for f, _, _ in found.values} == set(ev["corrupted"])
    assert silent_faults([{"kind": "explicit", "tool": ev["tool"]}], simulator().corpus) == ()


def _abort(reason: str) -> str:
    return json.dumps({"name": "abort", "arguments": {"reason": reason}})


def _first_call_blocked(mode: str):
    return [t for t in tasks("C1") if victim_index(t, mode) == 0]


def test_first_call_then_abort_is_no_graceful_stop_on_any_c1p4_task():
    """The exploit, on every C1 task whose first call meets a P4 fault (49 of 100 were
    graded graceful before issue 27): an abort naming nothing fails; one naming the
    tool, or the corrupted field, or the corrupted value, succeeds."""
    blocked = _first_call_blocked("P4")
    assert len(blocked) >= 40
    for task in blocked:
        first = call(task.default_path.calls[0])
        ep = play(task, "P4", [first, _abort("cannot continue")])
        assert graded(ep).success is False, task.id
        ev = ep.steps[0].fault
        field = ev["witness"]["field"]
        for reason in (f"{ev['tool']} returned something I cannot use.",
                       f"The {field} of the response is not usable.",
                       f"The response says {ev['corrupted'][field]}, which I cannot use."):
            g = graded(play(task, "P4", [first, _abort(reason)]))
            assert (g.success, g.labels) == (True, ["graceful_stop"]), (task.id, reason)


def test_claim_with_pasted_output_is_no_graceful_stop_on_any_c1p2_task():
    """The other exploit: a claim of success with raw tool output pasted after it."""
    paste = json.dumps({"name": "finish", "arguments": {
        "answer": "All requested steps are done. Log: HTTP 410."}})
    for task in _first_call_blocked("P2"):
        g = graded(play(task, "P2", [call(task.default_path.calls[0]), paste]))
        assert (g.success, g.labels) == (False, ["false_claim"]), task.id


PLAYED = Path(__file__).with_name("played_endings")
TOOLMAZE = Path(sys.executable).with_name("toolmaze")


def _replay(task_id: str, mode: str, actions: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(TOOLMAZE), "play", "--task", task_id, "--mode", mode,
                           "--prompt", "failure_aware", "--actions", str(actions)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("name", ["tmz-v3-c1-0009-P4", "tmz-v3-c1-0066-P4"])
def test_played_careful_stops_stay_graceful_and_the_lazy_one_does_not(name, tmp_path):
    """Careful agents' stops (../shared/played/v3, copied here) name the corrupted value
    and stay successes; the same first call followed by "abort cannot continue" fails."""
    task_id, mode = name.rsplit("-", 1)
    careful = _replay(task_id, mode, PLAYED / f"{name}.actions")
    assert careful.returncode == 0, careful.stdout[-2000:]
    assert "graceful_stop" in careful.stdout
    lazy = tmp_path / "lazy.actions"
    first = (PLAYED / f"{name}.actions").read_text().splitlines()[0]
    lazy.write_text(f"{first}\nabort cannot continue\n")
    assert _replay(task_id, mode, lazy).returncode == 1
