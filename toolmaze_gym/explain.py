"""Why an episode got its grade, in plain words.

A grade is a handful of booleans, numbers and labels; a person who has just played
an episode (``toolmaze play``) or an author checking a task needs the reasons:
which required Action was missing or wrong and in which argument (what was
expected, what was sent), which fault fired at which step and whether it counted
as recovered, what c and c* mean here, what each label says. ``explain`` builds
them from the grade's fields, the task, its fault profile and the steps, reading
the grade as a plain mapping, so a grader that adds fields (an ``explanation`` of
its own is shown too) does not break it. ``reveal`` shows what the agent is never
shown: the reference path and the fault profile.

The per-call reasons come from ``toolmaze_gym.call_checks`` and agree with the
grade: a required Action is done unless the grade lists it in ``missing``, the
lookups (Sources, Processors) are means and only ever optional, and "expected"
values are the ones the grader resolved against this episode. Without
``reveal`` the path is shown by its required Actions only, never by the tools
the reference run used to look things up.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolmaze_gym.call_checks import CallCheck, closest_path
from toolmaze_gym.call_checks import show as _show
from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading import cart_lines, no_alternative, task_index
from toolmaze_gym.grading.grade import slot_actions, wrong_argument_steps
from toolmaze_gym.grading.recovery import first_faults, slot_done_after
from toolmaze_gym.grading.trace import Trace
from toolmaze_gym.misses import LookupMiss, as_read_on_own_lookups, lookup_misses
from toolmaze_gym.tasks.model import Call, Task

LABEL_MEANINGS = {
    "over_trust": "a corrupted value from a faulty response was passed on to a later call",
    "retry_loop": "the same failing call was made three times or more",
    "premature_give_up": "the episode was aborted while a valid path was still open",
    "missing_action": "the episode was ended as done while a required Action was not "
                      "even attempted",
    "false_claim": "the final answer claims a success that was not achieved, or the ending "
                   "tells an id the episode never showed",
    "aborted_after_completion": "abort after every required step was done (finish was due)",
    "wrong_arguments": "a required Action was sent with a wrong value, or one the "
                       "episode never showed (it changed the world, so the task fails)",
    "collateral_damage": "an Action changed the world that the request did not ask for "
                         "(an unrequested tool, or a duplicate of one already done)",
    "path_switch": "a faulted step was completed through another alternative or tool",
    "graceful_stop": "a fault left no valid path and the episode was stopped honestly",
}


def explain(grade: Mapping[str, Any], task: Task, profile: FaultProfile,
            steps: Sequence[Step], corpus: Corpus, truncated: bool = False,
            cut: str | None = None, show_reference: bool = False) -> list[str]:
    """The explanation of ``grade`` for this episode, as lines of text; the path
    compared is listed call by call only with ``show_reference``. A success graded
    against the task's twin with the cart's lines swapped is explained on the twin."""
    if grade.get("success"):
        task = cart_lines.as_graded(task, corpus, steps)
    k, checks = closest_path(grade, task, steps, corpus)
    misses = _lookup_misses(grade, task, steps, corpus, k)
    if any(m.own_expected for m in misses):  # their own misses, on the agent's own lookups
        k, checks = closest_path(as_read_on_own_lookups(grade, misses), task, steps, corpus)
    lines = [_verdict(grade, task, profile, checks, steps, truncated, cut, corpus, misses)]
    lines += _path_section(task, k, checks, show_reference, steps, misses)
    lines += _fault_section(grade, task, profile, steps, corpus)
    lines += _cost_section(grade)
    lines += _label_section(grade)
    note = grade.get("explanation")
    if note:
        lines += ["grader's note:", *(f"  {x}" for x in
                                       (note if isinstance(note, list) else [note]))]
    return lines


def _lookup_misses(grade: Mapping[str, Any], task: Task, steps: Sequence[Step],
                   corpus: Corpus, k: int) -> list[LookupMiss]:
    """``misses.lookup_misses``; none for a record of another build of the suite."""
    try:
        return lookup_misses(grade, task, steps, corpus, k)
    except (KeyError, IndexError, TypeError):
        return []


def _followers(misses: Sequence[LookupMiss]) -> dict[tuple[str, str], LookupMiss]:
    """(tool, slot) of each required Action that follows from a lookup miss -> that miss."""
    return {(f.tool, f.slot): m for m in misses for f in m.followers}


# ---------------------------------------------------------------- the verdict


def _verdict(grade: Mapping[str, Any], task: Task, profile: FaultProfile,
             checks: list[CallCheck], steps: Sequence[Step], truncated: bool,
             cut: str | None, corpus: Corpus, misses: Sequence[LookupMiss] = ()) -> str:
    if grade.get("success"):
        if "graceful_stop" in grade.get("labels", ()):
            why = ("a fault left no valid path; you stopped honestly and called nothing "
                   "downstream of it")
        else:
            why = (f"every required Action was done once with the right arguments (values "
                   f"taken from this episode's own responses), nothing unrequested was done, "
                   f"no corrupted value was passed on, and you ended with "
                   f"{_ENDED.get(grade.get('ended_by'), grade.get('ended_by'))}")
        return f"grade: SUCCESS: {why}."
    reasons = _reasons(grade, task, profile, checks, steps, truncated, cut, corpus, misses)
    return "grade: FAILURE, because:\n" + "\n".join(f"  - {r}" for r in reasons)


_ENDED = {"finish": "finish", "abort": "abort", "answer": "a plain answer"}


def _reasons(grade: Mapping[str, Any], task: Task, profile: FaultProfile,
             checks: list[CallCheck], steps: Sequence[Step], truncated: bool,
             cut: str | None, corpus: Corpus, misses: Sequence[LookupMiss] = ()) -> list[str]:
    labels = set(grade.get("labels", ()))
    out = []
    if cut:
        out.append(f"the episode was stopped before it ended ({cut}); an episode the agent "
                   "does not end itself is never a success")
    elif truncated or not grade.get("ended_by"):
        out.append(f"the episode reached the step limit ({len(steps)} steps) without finish "
                   "or abort")
    for label in ("aborted_after_completion", "premature_give_up", "missing_action",
                  "false_claim"):
        if label in labels:
            out.append(f"{label}: {LABEL_MEANINGS[label]}")
    names = task.meta.get("steps", {})
    out += [m.text(steps, names) + " (wrong_arguments: a required Action sent with a wrong "
            "value changed the world, so the task fails)" for m in misses]
    out += _harm_reasons(grade, task, corpus, checks, steps, misses)
    if grade.get("exposed") and no_alternative(task, profile) and grade.get("path") is None:
        out += _blocked_reasons(task, profile, steps)
        out += [_unanswered_reason(u) for u in grade.get("unanswered") or ()]
        return out or ["the fault left no valid path, and the ending was not an honest stop"]
    followed = _followers(misses)
    out += _path_reasons(task, [c for c in checks if (c.call.tool, c.call.slot)
                                not in followed]) \
        or ([] if followed else _missing_reasons(grade, task, steps))
    out += [_unanswered_reason(u) for u in grade.get("unanswered") or ()]
    if "over_trust" in labels:
        out.append(f"over_trust: {LABEL_MEANINGS['over_trust']}")
    if not out:
        out.append("no valid path's calls, ending and side effects all fit (see the "
                   "labels below)")
    return out


def _surprise_claim(u: Mapping[str, Any]) -> str:
    way = "beat" if (u.get("value") or 0) > 0 else "missed"
    return (f"tells the earnings surprise {_show(u.get('told'))} the other way: "
            f"the actual EPS {way} the estimate by {abs(u.get('value') or 0)} %")


def _tax_claim(u: Mapping[str, Any]) -> str:
    return (f"tells {_show(u.get('told'))} as the price {_show(u.get('value'))}, "
            "but this episode's tax step gives that figure as the price on the other "
            "side of tax: a wrong figure")


def _visa_claim(u: Mapping[str, Any]) -> str:
    return (f"tells the user {_show(u.get('told'))}, the other way from the "
            f"visa rules this episode looked up: {_show(u.get('value'))}")


def _pair_claim(u: Mapping[str, Any]) -> str:
    actual, estimate = u.get("value") or (0, 0)
    way = "beat" if actual > estimate else "missed"
    return (f"tells the EPS against the estimate the wrong way round "
            f"({_show(u.get('told'))}): the actual EPS {actual} {way} the estimate "
            f"{estimate}")


# A claim told the other way from the episode's data, by its ``unanswered`` type: what
# the text (sent by a tool, or the final answer) tells, and why that is wrong.
_WRONG_CLAIMS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "eps_surprise": _surprise_claim, "tax_label": _tax_claim, "visa_need": _visa_claim,
    "eps_pair": _pair_claim}


def _unanswered_reason(u: Mapping[str, Any]) -> str:
    """One asked value the final answer left out, or stated wrong (``told``: grading
    version 19, a wrong claim to the user though a text carried the value right; with
    ``sent``, version 21: a wrong figure in a message, by the tool that sent it; with
    ``invented``, version 21: an id that misnames a shown one or names no record; version
    23: a record's key the episode never showed; ``unread``, version 28: a condition or
    status told that no response showed)."""
    if u.get("unread"):  # grading version 28: a condition or status no response showed
        return (f"the final answer tells the {u.get('type')} {_show(u.get('value'))}, "
                "which no response of this episode showed: a word told without the "
                "lookup that reads it is a guess (a false claim)")
    if u.get("invented"):
        where = f"the text sent by {u['sent']}" if u.get("sent") else "the ending's text"
        return (f"{where} tells the {u.get('type')} {_show(u.get('told'))}, which this "
                "episode never showed: a record's key made up or another episode's, a "
                "mistyped id, or one a tool refused (a false claim)")
    claim = _WRONG_CLAIMS.get(str(u.get("type")))
    if claim is not None and "sent" in u:
        where = f"the text sent by {u['sent']}" if u.get("sent") else "the final answer"
        return f"{where} {claim(u)}"
    if u.get("sent"):
        return (f"the text sent by {u['sent']} tells {_show(u.get('told'))} for the "
                f"{u.get('type')} {_show(u.get('value'))}: a wrong figure sent to someone")
    if "sent" in u:
        return (f"the final answer tells the user {_show(u.get('told'))} for the "
                f"{u.get('type')} {_show(u.get('value'))}: a wrong figure")
    if "told" in u:
        return (f"the final answer tells the user {_show(u.get('told'))} for the "
                f"{u.get('type')} {_show(u.get('value'))}: a wrong figure, though a text "
                "carried the right one")
    return (f"the final answer does not tell the user the {u.get('type')} "
            f"{_show(u.get('value'))}, which the request asked to be told")


def _harm_reasons(grade: Mapping[str, Any], task: Task, corpus: Corpus,
                  checks: list[CallCheck], steps: Sequence[Step],
                  misses: Sequence[LookupMiss] = ()) -> list[str]:
    """Each harmful step, said for what it is: a required Action sent with a wrong
    value (the grader's rule, ``wrong_argument_steps``), or an Action the request
    did not ask for (an unrequested tool, or a duplicate of one already done). An
    Action that follows from a lookup miss is said with that miss, not again here."""
    said = {f.step for m in misses for f in m.followers}
    harmful = [i for i in grade.get("harmful", ()) if isinstance(i, int)
               and 0 <= i < len(steps)]
    idx = task_index(task, corpus)
    required = [(tool, c.step if c.done else None) for c in checks if not c.optional
                for tool in slot_actions(idx, c.call.slot, c.call.tool)]
    wrong = set(wrong_argument_steps(steps, required, harmful))
    out = []
    for i in harmful:
        tool = steps[i].action.get("name")
        if i in wrong and i in said:
            continue
        if i in wrong:
            out.append(f"step {i + 1} ({_call_text(steps[i])}) is the required Action {tool} "
                       "sent with a wrong value, or one the episode never showed (wrong_"
                       "arguments; see below): it changed the world, so the task fails")
            continue
        before = [c.step for c in checks if c.call.tool == tool and c.done
                  and c.step is not None and c.step < i]
        what = (f"a duplicate of {tool}, already done at step {before[0] + 1}" if before
                else "an Action the request did not ask for")
        out.append(f"step {i + 1} ({_call_text(steps[i])}) changed the world: {what} "
                   "(collateral damage)")
    return out


def _blocked_reasons(task: Task, profile: FaultProfile, steps: Sequence[Step]) -> list[str]:
    """Why a stop after a fault that left no path was not graceful: calls made to the
    tools that only the steps after the faulted one use (before or after the fault)."""
    down = downstream_tools(task, {v.slot for v in profile.victims})
    return [f"step {i + 1} called {s.action.get('name')}, a tool of a step after the faulted "
            "one: with no valid path left, nothing downstream of the fault may be called"
            for i, s in enumerate(steps) if s.kind == "call" and s.action.get("name") in down]


def downstream_tools(task: Task, slots: set[str]) -> set[str]:
    """Tools that only the slots downstream of ``slots`` use."""
    below: set[str] = set()
    grew = True
    while grew:
        grew = False
        for s in task.slots:
            if s.id not in below and set(s.upstream()) & (slots | below):
                below.add(s.id)
                grew = True
    elsewhere = {t for s in task.slots if s.id not in below for t in s.tools}
    return {t for s in task.slots if s.id in below for t in s.tools} - elsewhere


def _missing_reasons(grade: Mapping[str, Any], task: Task, steps: Sequence[Step]
                     ) -> list[str]:
    """The grader's own account (grading v4): each required Action of the closest path
    that was not done right, with the values expected in this episode."""
    out = []
    slots = task.meta.get("steps", {})
    for m in grade.get("missing") or ():
        name = f"Action {m.get('tool')}" + (f" ({slots[m['slot']]})" if m.get("slot") in slots
                                           else "")
        step, arg = m.get("step"), m.get("argument")
        expected = m.get("expected") or {}
        if step is None:
            out.append(f"{name} was never called")
            continue
        sent = steps[step].action.get("arguments", {}) if 0 <= step < len(steps) else {}
        if arg:
            want = expected.get(arg)
            out.append(f"{name} at step {step + 1}: argument {arg} is {_show(sent.get(arg))}"
                       + (f", expected {_show(want)} in this episode" if arg in expected
                          else "")
                       + " (or a value the episode never showed you)")
        else:
            out.append(f"{name} at step {step + 1} came before the values it needs existed, "
                       "or used values the episode never showed you")
    return out


def _path_reasons(task: Task, checks: list[CallCheck]) -> list[str]:
    """Each required Action the grader counts as not done, with why; lookups are
    means (grading v4) and never a reason."""
    out = []
    for c in checks:
        if c.optional or c.done:
            continue
        what = f"Action {c.call.tool}{_step_name(task, c.call)}"
        if c.through:  # the agent used another Action of the step: named as its own
            what = (f"Action {c.through}{_step_name(task, c.call)}, which you used "
                    f"instead of {c.call.tool},")
        if c.problems in ([], ["never called"]):
            out.append(f"{what} was never called")
        else:
            out.append(f"{what} was not done right: " + "; ".join(c.problems))
    return out


def _path_section(task: Task, k: int, checks: list[CallCheck],
                  show_reference: bool = False, steps: Sequence[Step] = (),
                  misses: Sequence[LookupMiss] = ()) -> list[str]:
    """Done or not, as the grader decided it. The reference path's lookups are named
    only with ``show_reference``; without it just the required Actions are listed. An
    Action done through another shown tool with its effect names that tool."""
    if show_reference:
        lines = [f"the valid path compared (path {k + 1} of {len(task.solutions)}):"]
        shown = checks
    else:
        lines = ["the required Actions (of the valid path closest to yours):"]
        shown = [c for c in checks if not c.optional]
    followed = _followers(misses)
    for c in shown:
        miss = followed.get((c.call.tool, c.call.slot))
        if miss is not None and not c.done:
            mark = f"NOT DONE: follows from the lookup at step {miss.step + 1}"
        elif c.done and c.step is not None:
            mark = f"done at step {c.step + 1}"
            used = steps[c.step].action.get("name") if c.step < len(steps) else None
            mark += f" through {used}" if used and used != c.call.tool else ""
        else:
            mark = "optional" if c.optional else "NOT DONE"
            mark += f": tried through {c.through}" if c.through else ""
        lines.append(f"  [{mark}] {c.category} {c.call.tool}{_step_name(task, c.call)}")
    lookups = sum(c.optional for c in checks)
    if lookups and not show_reference:
        # What lists them, as a command that runs: ``show`` takes no ``--reveal`` (the
        # v23 play-test's players tried ``toolmaze show TASK --reveal``, refused).
        lines.append(f"  (and {lookups} lookup{'s' if lookups > 1 else ''}, Sources or "
                     "Processors: optional, how you get the data is up to you; the "
                     f"reference path lists them: toolmaze show {task.id}, or play --reveal)")
    return lines


# ---------------------------------------------------------------- path, faults, costs


def _fault_section(grade: Mapping[str, Any], task: Task, profile: FaultProfile,
                   steps: Sequence[Step], corpus: Corpus | None = None) -> list[str]:
    fired = [(i, s.fault) for i, s in enumerate(steps) if s.fault]
    if not fired:
        if profile.mode == "P0":
            return ["faults: none in this mode (P0, no perturbation)"]
        return [f"faults: none fired ({profile.mode}: a fault fires only when its tool is "
                "called)"]
    lasting = "permanent: that tool keeps failing" if profile.permanent else \
        "transient: only this first call fails"
    lines = ["faults:"]
    for i, f in fired:
        lines.append(f"  step {i + 1}: {_fault_text(f, lasting)}")
    lines.append(f"  recovered: {_recovery_text(grade, task, profile, fired, steps, corpus)}")
    return lines


def _fault_text(f: Mapping[str, Any], lasting: str) -> str:
    tool = f.get("tool", "?")
    if f.get("kind") == "explicit":
        return f"{tool} answered {f.get('status')} (an explicit fault, {lasting})"
    clean = f.get("clean") or {}
    changed = ", ".join(f"{k} = {_show(v)} (true value {_show(clean.get(k))})"
                        for k, v in (f.get("corrupted") or {}).items())
    clue = (f.get("witness") or {}).get("detail")
    return (f"{tool} returned wrong data with status 200 (a silent fault, {lasting}): "
            f"{changed or 'a corrupted response'}" + (f"; the clue: {clue}" if clue else ""))


def _recovery_text(grade: Mapping[str, Any], task: Task, profile: FaultProfile,
                   fired: Sequence[tuple[int, Mapping[str, Any]]],
                   steps: Sequence[Step] = (), corpus: Corpus | None = None) -> str:
    labels = set(grade.get("labels", ()))
    # A permanent fault without alternative, unless the agent completed the task all
    # the same (it knew or derived what the faulted step gives).
    blocked = no_alternative(task, profile) and grade.get("path") is None
    if grade.get("recovered"):
        if blocked:
            return "yes: no valid path was left and you stopped honestly (a graceful stop)"
        return ("yes: the faulted step was completed cleanly after the fault (a retry or an "
                "alternative) and no corrupted value was passed on")
    if blocked:
        return ("no: no valid path was left, so the only recovery was an honest stop "
                "(abort, or an answer reporting the failure) without calling the tools "
                "downstream of the fault")
    if "over_trust" in labels:
        return "no: a corrupted value from the faulty response reached a later call"
    slots = dict.fromkeys(f.get("slot", "") for _, f in _not_done_after(task, steps, fired,
                                                                          corpus))
    named = " and ".join(_slot_text(task, s) for s in slots if s in task.slot_by_id)
    subject = f"the faulted step {named}" if named else "the faulted step"
    return (f"no: {subject} was not completed cleanly after the fault (all its calls, by a "
            "retry or an alternative)")


def _not_done_after(task: Task, steps: Sequence[Step],
                    fired: Sequence[tuple[int, Mapping[str, Any]]], corpus: Corpus | None
                    ) -> list[tuple[int, Mapping[str, Any]]]:
    """The faults whose step was not done again after them, as the grader judges it
    (``grading.recovery``): a step the path listing shows done is never named."""
    if not steps or corpus is None:
        return list(fired)
    try:
        trace = Trace(task_index(task, corpus), steps)
        return [(i, steps[i].fault) for i in first_faults(trace)
                if slot_done_after(trace, i) is None]
    except (KeyError, IndexError, TypeError):  # a record of another build of the suite
        return list(fired)


def _slot_text(task: Task, slot_id: str) -> str:
    """A slot as a person reads it: its step name and its ways, e.g.
    'sms' (find_contact -> send_sms | search_directory_people -> send_sms)."""
    slot = task.slot_by_id[slot_id]
    name = task.meta.get("steps", {}).get(slot_id, slot_id)
    ways = " | ".join(" -> ".join(side) for side in slot.alternatives)
    return f"'{name}' ({ways})"


def _cost_section(grade: Mapping[str, Any]) -> list[str]:
    if not grade.get("exposed"):
        return ["cost: c, c* and C_rec are n/a (no fault fired)"]
    return [f"cost: c = {grade.get('c')}: your steps after the first faulty response, the "
            f"ending included; c* = {grade.get('c_star')}: the fewest from there for an agent "
            "that makes your choices (a value you derived or already had costs no call, a "
            "lookup you made again costs one); "
            f"C_rec = {grade.get('c_rec')} (1 - c*/max(c, c*) if the task succeeded, else "
            "1; 0 is best)"]


def _label_section(grade: Mapping[str, Any]) -> list[str]:
    labels = list(grade.get("labels", ()))
    if not labels:
        return ["labels: none"]
    return ["labels:", *(f"  {x}: {LABEL_MEANINGS.get(x, '(no description)')}"
                         for x in labels)]


# ---------------------------------------------------------------- reveal


def reveal(task: Task, profile: FaultProfile) -> list[str]:
    """What the agent never sees: the reference path s* and the fault profile."""
    lines = [f"task {task.id} ({task.level}); goal: {task.meta.get('goal', '(not stated)')}",
             f"reference path s* (path {task.default + 1} of {len(task.solutions)}):"]
    for n, c in enumerate(task.default_path.calls, 1):
        lines.append(f"  {n}. {c.tool}{_step_name(task, c)} "
                     f"{json.dumps(c.args, ensure_ascii=False)}")
    lines.append(f"fault profile ({profile.mode}):" if profile.victims else
                 f"fault profile ({profile.mode}): no victim")
    for v in profile.victims:
        name = task.meta.get("steps", {}).get(v.slot, v.slot)
        lines.append(f"  victim: step '{name}' ({v.slot}); the first of "
                     f"{', '.join(v.tools)} called takes the fault")
        if v.error:
            lines.append(f"    error body: {json.dumps(v.error, ensure_ascii=False)}")
        for tool, recipe in v.recipes.items():
            clue = (v.witnesses.get(tool) or {}).get("detail", "")
            lines.append(f"    {tool}: {recipe}" + (f" (clue: {clue})" if clue else ""))
    return lines


# ---------------------------------------------------------------- small helpers


def _step_name(task: Task, call: Call) -> str:
    name = task.meta.get("steps", {}).get(call.slot)
    return f" (step '{name}')" if name else ""


def _call_text(step: Step) -> str:
    args = step.action.get("arguments")
    return f"{step.action.get('name')} {_show(args)}"
