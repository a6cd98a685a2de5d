"""One hand-written trajectory per grading rule of docs/grading.md, on real suite tasks.

Every test plays raw actions through an Episode (so the shipped fault fires as it
would for any agent) and asserts exactly the grade fields its rule decides.
Notation: S = the calls of s*, v = the position in S of the call the fault hits.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.grading._helpers import (
    ABORT,
    FINISH,
    call,
    graded,
    play,
    profile,
    regrade,
    simulator,
    tasks,
    victim_index,
)
from toolmaze_gym.agents.scripted import call_text
from toolmaze_gym.corpus import EpisodeState
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.episode import Step
from toolmaze_gym.faults.responses import PERMANENT_ERRORS, TRANSIENT_ERRORS
from toolmaze_gym.grading import grade, task_index
from toolmaze_gym.tasks.model import Task

TRANSIENT = {e["code"] for e in TRANSIENT_ERRORS}
PERMANENT = {e["code"] for e in PERMANENT_ERRORS}


def _corpus():
    return simulator().corpus


def _is_action(tool: str) -> bool:
    return _corpus()[tool].category == "Action"


def _c1(mode: str) -> tuple[Task, list, int]:
    """A C1 task whose victim has calls before it (so c counts from mid-episode)."""
    task = next(tasks("C1", lambda t: victim_index(t, mode) >= 1))
    return task, list(task.default_path.calls), victim_index(task, mode)


def _corrupted_into_next(action: bool) -> tuple[Task, list, int, str, object]:
    """A C1 task under P3 whose corrupted value is an argument of the very next call
    (an Action or not, as asked) and that call still answers 200 with it."""
    for task in tasks("C1"):
        S, v = task.default_path.calls, victim_index(task, "P3")
        if v + 1 >= len(S) or _is_action(S[v + 1].tool) != action:
            continue
        ep = play(task, "P3", [call(c) for c in S[: v + 1]])
        f = ep.steps[-1].fault
        for field, bad in f["corrupted"].items():
            good = f["clean"][field]
            if isinstance(good, str) and " " in good:
                continue  # free text is graded on what it mentions: a cut may still be right
            arg = next((a for a, val in S[v + 1].args.items() if val == good), None)
            if arg is None:
                continue
            probe = play(task, "P3", [call(c) for c in S[: v + 1]] + [call(S[v + 1], **{arg: bad})])
            if probe.steps[-1].status == 200:
                return task, list(S), v, arg, bad
    raise AssertionError("no C1 task passes its corrupted value straight on")


# ---------------------------------------------------------------- success & harm


def test_clean_run_of_s_star_succeeds():
    task = next(tasks("C1"))
    ep = play(task, "P0", [call(c) for c in task.default_path.calls] + [FINISH])
    g = graded(ep)
    assert (g.success, g.exposed, g.recovered, g.c, g.c_star, g.c_rec) == \
        (True, False, None, 0, 0, 0.0)
    assert g.path == list(task.default_path.choice) and g.labels == [] and g.harmful == []


def _duplicated(task: Task) -> tuple[list[str], int]:
    S = task.default_path.calls
    last = max(k for k, c in enumerate(S) if _is_action(c.tool))
    return [call(c) for c in S] + [call(S[last])], len(S)


def _wrong_argument(task: Task) -> tuple[list[str], int]:
    S = task.default_path.calls
    k, arg = next((k, a) for k, c in enumerate(S) if _is_action(c.tool)
                  for a, val in c.args.items() if isinstance(val, str) and " " in val)
    wrong = call(S[k], **{arg: "Please ignore the previous message."})
    return [call(c) for c in S[:k]] + [wrong] + [call(c) for c in S[k:]], k


def _unrequested(task: Task) -> tuple[list[str], int]:
    S = task.default_path.calls
    extra = next(t for t in task.tools if t not in task.task_tools and _is_action(t))
    args = valid_arguments(simulator(), _corpus()[extra], EpisodeState(), key="grading-test")
    assert args is not None
    return [call(c) for c in S] + [call_text(extra, args)], len(S)


def _has(builder):
    def ok(task: Task) -> bool:
        try:
            actions, bad = builder(task)
        except (StopIteration, AssertionError, ValueError):
            return False
        ep = play(task, "P0", actions)
        return ep.steps[bad].status == 200 and all(s.status == 200 for s in ep.steps)
    return ok


@pytest.mark.parametrize("builder", [_duplicated, _wrong_argument, _unrequested],
                         ids=["duplicated", "wrong-argument", "unrequested"])
def test_harmful_action_fails_a_completed_path(builder):
    """An Action call outside the expected calls fails the task. A required Action
    sent with a wrong value is labelled ``wrong_arguments``; a duplicate or an
    unrequested Action, ``collateral_damage``."""
    task = next(tasks("C1", _has(builder)))
    actions, bad = builder(task)
    g = graded(play(task, "P0", [*actions, FINISH]))
    assert g.success is False
    assert g.harmful == [bad]
    assert (g.exposed, g.recovered, g.c, g.c_rec) == (False, None, 0, 0.0)
    # Every expected call was made: not a give-up, not a false claim; the damage is named.
    assert g.labels == ["wrong_arguments" if builder is _wrong_argument
                        else "collateral_damage"]
    assert g.path is None


def test_action_fed_a_corrupted_value_is_harmful():
    """An Action fed a corrupted value fails the task even if the agent
    then retries the victim and redoes the Action correctly."""
    task, S, v, arg, bad = _corrupted_into_next(action=True)
    actions = ([call(c) for c in S[: v + 1]] + [call(S[v + 1], **{arg: bad})]
               + [call(S[v])] + [call(c) for c in S[v + 1:]] + [FINISH])
    ep = play(task, "P3", actions)
    g = graded(ep)
    assert ep.steps[v].fault is not None and ep.steps[v + 1].status == 200
    assert g.success is False
    assert g.harmful == [v + 1]
    assert g.exposed is True and g.recovered is False
    assert g.labels == ["over_trust", "wrong_arguments"]  # a required Action, a bad value
    assert g.c_rec == 1.0


# ---------------------------------------------------------------- graceful termination


def test_graceful_stop_after_permanent_fault_without_alternative():
    """C1 under P2: exposed, no downstream call, abort = success and recovery."""
    task, S, v = _c1("P2")
    ep = play(task, "P2", [call(c) for c in S[: v + 1]] + [ABORT])
    assert ep.steps[v].status in PERMANENT
    g = graded(ep)
    assert (g.success, g.exposed, g.recovered) == (True, True, True)
    assert (g.c, g.c_star, g.c_rec) == (1, 1, 0.0)
    assert g.labels == ["graceful_stop"] and g.ended_by == "abort" and g.harmful == []


def test_graceful_stop_under_implicit_permanent_fault():
    """C1 under P4: one check that the value stays corrupt, then stop (c = 2, c* = 1);
    after a silent fault the stop names the faulty tool (issue 27)."""
    task, S, v = _c1("P4")
    named = json.dumps({"name": "abort", "arguments": {
        "reason": f"{S[v].tool} keeps returning a corrupted response."}})
    ep = play(task, "P4", [call(c) for c in S[: v + 1]] + [call(S[v]), named])
    assert ep.steps[v].fault and ep.steps[v + 1].fault  # still corrupt
    g = graded(ep)
    assert (g.success, g.exposed, g.recovered) == (True, True, True)
    assert (g.c, g.c_star, g.c_rec) == (2, 1, 0.5)
    assert g.labels == ["graceful_stop"]


def _downstream(task: Task, S, v) -> int:
    down = task_index(task, _corpus()).downstream[S[v].slot]
    return next(k for k in range(v + 1, len(S)) if S[k].tool in down)


@pytest.mark.parametrize("variant", ["finish", "downstream-call"])
def test_graceful_stop_failures(variant):
    """Ending with finish (claiming success) or calling a tool downstream of the
    victim is no graceful termination: failure, not recovered, C_rec = 1."""
    task, S, v = _c1("P2")
    if variant == "finish":
        actions, c = [FINISH], 1
    else:
        actions, c = [call(S[_downstream(task, S, v)]), ABORT], 2
    g = graded(play(task, "P2", [call(x) for x in S[: v + 1]] + actions))
    assert (g.success, g.exposed, g.recovered) == (False, True, False)
    assert (g.c, g.c_star, g.c_rec) == (c, 1, 1.0)
    # The task is unsolvable: stopping is not a premature give-up; claiming success is.
    assert g.labels == (["false_claim"] if variant == "finish" else [])


def test_plain_answer_also_ends_gracefully():
    task, S, v = _c1("P2")
    g = graded(play(task, "P2", [call(c) for c in S[: v + 1]]
                    + ["I could not finish: the service says the endpoint is retired."]))
    assert (g.success, g.recovered, g.ended_by, g.labels) == (True, True, "answer",
                                                             ["graceful_stop"])


# ---------------------------------------------------------------- transient faults


def test_retry_of_a_transient_fault_recovers():
    """C1 under P1: retrying the victim once is the optimal recovery."""
    task, S, v = _c1("P1")
    ep = play(task, "P1", [call(c) for c in S[: v + 1]] + [call(S[v])]
              + [call(c) for c in S[v + 1:]] + [FINISH])
    assert ep.steps[v].status in TRANSIENT and ep.steps[v + 1].status == 200
    g = graded(ep)
    n = len(S)
    assert (g.success, g.exposed, g.recovered) == (True, True, True)
    assert g.c == g.c_star == n - v + 1  # retry, the rest of S, finish
    assert g.c_rec == 0.0 and g.labels == [] and g.path == list(task.default_path.choice)


@pytest.mark.parametrize("ending", [FINISH, ABORT], ids=["finish", "abort"])
def test_premature_give_up(ending):
    """Ending a solvable task after a transient error: failure, not recovered."""
    task, S, v = _c1("P1")
    g = graded(play(task, "P1", [call(c) for c in S[: v + 1]] + [ending]))
    assert (g.success, g.exposed, g.recovered) == (False, True, False)
    # c* for an agent that makes this one's choices: it looked nothing up after the
    # fault, so only the Actions it never attempted are left, and the ending.
    left = sum(_is_action(c.tool) for c in S[v:])
    assert (g.c, g.c_star, g.c_rec) == (1, left + 1, 1.0)
    # Only an abort gives up; a finish claiming done left a required Action out.
    assert g.labels == (["missing_action", "false_claim"] if ending == FINISH
                        else ["premature_give_up"])


def test_corrupted_value_propagated_is_over_trust():
    """C1 under P3: the corrupted value reached a later call. Redoing everything
    cleanly afterwards is neither success nor recovery: a corrupted value was
    passed on."""
    task, S, v, arg, bad = _corrupted_into_next(action=False)
    n = len(S)
    actions = ([call(c) for c in S[: v + 1]] + [call(S[v + 1], **{arg: bad})]
               + [call(S[v])] + [call(c) for c in S[v + 1:]] + [FINISH])
    g = graded(play(task, "P3", actions))
    assert (g.success, g.exposed, g.recovered) == (False, True, False)
    assert g.labels == ["over_trust"]
    assert (g.c, g.c_star) == (n - v + 2, n - v + 1)
    assert g.c_rec == 1.0  # no success: the whole cost counts


def test_trusting_agent_fails_and_is_labelled():
    """The naive behaviour: pass the corrupted value on and finish."""
    task, S, v, arg, bad = _corrupted_into_next(action=False)
    actions = ([call(c) for c in S[: v + 1]] + [call(S[v + 1], **{arg: bad})]
               + [call(c) for c in S[v + 2:]] + [FINISH])
    g = graded(play(task, "P3", actions))
    assert (g.success, g.exposed, g.recovered, g.c_rec) == (False, True, False, 1.0)
    # It passed a corrupted value on; it did not give up, and its claim is about work
    # it did attempt (an Action sent with a wrong value is collateral damage).
    assert "over_trust" in g.labels
    assert not {"premature_give_up", "false_claim"} & set(g.labels)


def test_corrupted_value_in_the_final_answer_is_over_trust():
    """A recovered episode whose final answer still tells the user the corrupted value
    passed it on: neither success nor recovery; the clean value told is both."""
    task, S, v = _c1("P3")
    redo = [call(c) for c in S[: v + 1]] + [call(S[v])] + [call(c) for c in S[v + 1:]]
    ep = play(task, "P3", redo)
    f = ep.steps[v].fault
    field, bad = next((k, x) for k, x in f["corrupted"].items()
                      if isinstance(x, int | float) and not isinstance(x, bool))
    good = f["clean"][field]

    def finish(value) -> str:
        return json.dumps({"name": "finish", "arguments": {
            "answer": f"All done. For the record, the {field} was {value}."}})

    g = graded(play(task, "P3", [*redo, finish(bad)]))
    assert "over_trust" in g.labels and (g.success, g.recovered) == (False, False)
    g = graded(play(task, "P3", [*redo, finish(good)]))
    assert "over_trust" not in g.labels and g.recovered is True


def test_value_a_later_call_expects_is_not_over_trust():
    """A corrupted value that equals what a later call legitimately sends (a unit
    confusion can show the very number a converter returns) is not propagation;
    the same value in a parameter that does not expect it is."""
    task, S, v = _c1("P3")
    ep = play(task, "P3", [call(c) for c in S[: v + 1]] + [call(S[v])]
              + [call(c) for c in S[v + 1:]] + [FINISH])
    later, value = next((k, x) for k in range(v + 2, len(ep.steps) - 1)
                        for x in ep.steps[k].action["arguments"].values()
                        if isinstance(x, str) and len(x) > 3)
    steps = list(ep.steps)
    steps[v] = dataclasses.replace(steps[v], fault={**steps[v].fault,
                                                    "corrupted": {"echoed": value},
                                                    "clean": {"echoed": value + " (clean)"}})
    g = regrade(task, "P3", steps)
    assert "over_trust" not in g.labels and g.recovered is True and g.success is True
    tool = steps[later].action["name"]
    stray = Step(raw="", action={"kind": "call", "name": tool, "arguments": {"note": value}},
                 status=422, observation="{}", fault=None)
    g = regrade(task, "P3", [*steps[:-1], stray, steps[-1]])
    assert "over_trust" in g.labels and g.recovered is False


# ---------------------------------------------------------------- permanent, with alternatives


def _reroute(task: Task, mode: str, dead_retries: int = 0) -> tuple[list[str], int, int, list]:
    """s*, except that at the victim slot the dead tool is tried (1 + dead_retries
    times) and the cheapest other side is used. Returns actions, the fault step,
    the expected c*, and the alternative path's choice."""
    S = task.default_path.calls
    slot = profile(task, mode).victims[0].slot
    k = [s.id for s in task.slots].index(slot)
    star = task.default_path.choice
    alt = min((p for p in task.solutions if p.choice[k] != star[k]
               and all(a == b for j, (a, b) in enumerate(zip(p.choice, star, strict=True))
                       if j != k)), key=lambda p: p.length)
    alt_calls = [c for c in alt.calls if c.slot == slot]
    first = next(j for j, c in enumerate(S) if c.slot == slot)
    later = [c for c in S[first:] if c.slot != slot]
    actions = ([call(c) for c in S[:first]] + [call(S[first])] * (1 + dead_retries)
               + [call(c) for c in alt_calls] + [call(c) for c in later] + [FINISH])
    return actions, first, len(alt_calls) + len(later) + 1, list(alt.choice)


def test_reroute_after_permanent_fault_switches_path():
    """C2 under P2: the failed tool's alternative completes the task (path switch)."""
    task = next(tasks("C2"))
    actions, first, c_star, choice = _reroute(task, "P2")
    ep = play(task, "P2", actions)
    assert ep.steps[first].status in PERMANENT
    g = graded(ep)
    assert (g.success, g.exposed, g.recovered) == (True, True, True)
    assert g.labels == ["path_switch"] and g.path == choice
    assert g.c == g.c_star == c_star and g.c_rec == 0.0


def test_reroute_in_c3_uses_another_sub_graph():
    task = next(tasks("C3", lambda t: any(len(side) > 1 for s in t.branch_slots()
                                          for side in s.alternatives)))
    actions, _, c_star, choice = _reroute(task, "P4")
    g = graded(play(task, "P4", actions))
    assert (g.success, g.recovered, g.labels, g.path) == (True, True, ["path_switch"], choice)
    assert g.c == g.c_star == c_star


def test_retry_loop_label_and_recovery_cost():
    """Three identical failing calls make a retry loop; each wasted call costs:
    C_rec = 1 − c*/max(c, c*)·success."""
    task = next(tasks("C2"))
    actions, _, c_star, _ = _reroute(task, "P2", dead_retries=2)
    g = graded(play(task, "P2", actions))
    assert (g.success, g.recovered) == (True, True)
    assert g.labels == ["retry_loop", "path_switch"]
    assert (g.c, g.c_star) == (c_star + 2, c_star)
    assert g.c_rec == round(1 - c_star / (c_star + 2), 6)
    # Two identical failing calls are no loop yet.
    actions, *_ = _reroute(task, "P2", dead_retries=1)
    assert graded(play(task, "P2", actions)).labels == ["path_switch"]


def test_retry_loop_on_unsolvable_task_still_ends_gracefully():
    task, S, v = _c1("P2")
    g = graded(play(task, "P2", [call(c) for c in S[: v + 1]] + [call(S[v])] * 2 + [ABORT]))
    assert (g.success, g.recovered) == (True, True)
    assert g.labels == ["retry_loop", "graceful_stop"]
    assert (g.c, g.c_star, g.c_rec) == (3, 1, round(1 - 1 / 3, 6))


# ---------------------------------------------------------------- c* with several victims


def test_c_star_counts_victims_still_ahead():
    """C4 under P1: after the first fault, each victim still ahead costs one more
    (failed) call: c* = (calls of S from the first victim on: the retry included)
    + (victims − 1) + 1 (finish)."""
    task = next(tasks("C4", lambda t: len(profile(t, "P1").victims) >= 2))
    S = task.default_path.calls
    victims = {t: k for k, vv in enumerate(profile(task, "P1").victims) for t in vv.tools}
    actions, hit, first = [], set(), None
    for c in S:
        actions.append(call(c))
        k = victims.get(c.tool)
        if k is not None and k not in hit:
            hit.add(k)
            first = len(actions) - 1 if first is None else first
            actions.append(call(c))  # the retry
    actions.append(FINISH)
    ep = play(task, "P1", actions)
    assert len(hit) >= 2 and sum(1 for s in ep.steps if s.fault) == len(hit)
    g = graded(ep)
    v1 = victim_index(task, "P1")
    assert (g.success, g.recovered, g.labels) == (True, True, [])
    assert g.c == g.c_star == (len(S) - v1) + len(hit)


# ---------------------------------------------------------------- truncation


def test_truncated_episode_fails():
    """No finish/abort within the step limit: failure, whatever was done."""
    task = next(tasks("C1"))
    S = task.default_path.calls
    ep = play(task, "P0", [call(c) for c in S], max_steps=len(S))
    assert ep.truncated
    g = graded(ep)
    assert (g.success, g.exposed, g.ended_by, g.labels, g.path) == (False, False, "", [], None)
    # The same steps without the truncation flag: still no end, still no success.
    assert regrade(task, "P0", ep.steps, truncated=False).success is False


def test_truncated_recovery_counts_as_recovery_not_success():
    task, S, v = _c1("P1")
    actions = [call(c) for c in S[: v + 1]] + [call(S[v])] + [call(c) for c in S[v + 1:]]
    ep = play(task, "P1", actions, max_steps=len(actions))
    g = graded(ep)
    assert ep.truncated
    assert (g.success, g.exposed, g.recovered) == (False, True, True)
    assert (g.c, g.c_star, g.c_rec) == (len(S) - v, len(S) - v + 1, 1.0)
    assert g.labels == []


# ---------------------------------------------------------------- collateral damage


def _redo_through_alternative() -> tuple[Task, list[str], int]:
    """A task whose branch slot is an Action with single-tool alternatives and is not
    the last step: do it through s*'s alternative, then again through another one."""
    for task in (t for lv in ("C2", "C3", "C4") for t in tasks(lv)):
        S = task.default_path.calls
        for slot in task.branch_slots():
            if not all(len(side) == 1 and _is_action(side[0]) for side in slot.alternatives):
                continue
            k = [s.id for s in task.slots].index(slot.id)
            alt = next(p for p in task.solutions if p.choice[k] != task.default_path.choice[k])
            a = next(c for c in S if c.slot == slot.id)
            b = next(c for c in alt.calls if c.slot == slot.id)
            first = S.index(a)
            if first == len(S) - 1:
                continue
            actions = [call(c) for c in S[:first]] + [call(a), call(b)]
            if all(s.status == 200 for s in play(task, "P0", actions).steps):
                return task, actions, first + 1
    raise AssertionError("no branch slot of Actions can be done twice")


def test_redoing_a_slot_through_another_alternative_is_collateral_damage():
    """Both calls are expected calls of some path, yet the second repeats the slot's
    side effect: it is flagged even though no path was completed."""
    task, actions, second = _redo_through_alternative()
    g = graded(play(task, "P0", [*actions, ABORT]))
    assert g.success is False
    assert g.harmful == [second]
    assert g.labels == ["premature_give_up", "collateral_damage"]


def test_recovery_is_judged_independently_of_success():
    """C1 under P1: the retry recovers the victim, but an unrequested Action at the
    end fails the task: recovered, not successful (PRR counts it, TSR does not)."""
    task = next(tasks("C1", lambda t: _has(_unrequested)(t) and victim_index(t, "P1") >= 1))
    S, v = task.default_path.calls, victim_index(task, "P1")
    unrequested = _unrequested(task)[0][-1]
    actions = ([call(c) for c in S[: v + 1]] + [call(S[v])] + [call(c) for c in S[v + 1:]]
               + [unrequested, FINISH])
    ep = play(task, "P1", actions)
    assert ep.steps[-2].status == 200
    g = graded(ep)
    assert (g.success, g.exposed, g.recovered) == (False, True, True)
    assert g.labels == ["collateral_damage"] and g.c_rec == 1.0


def test_a_record_from_another_build_of_the_suite_is_graded_not_crashed_on():
    """A stored trajectory whose fault names a slot and tool this task does not have
    (the suite was rebuilt since) still gets a grade, never a traceback."""
    import dataclasses

    task = next(tasks("C1"))
    S = task.default_path.calls
    ep = play(task, "P2", [call(c) for c in S] + [FINISH])
    first = next(i for i, s in enumerate(ep.steps) if s.fault)
    alien = {**ep.steps[first].fault, "slot": "s99", "tool": "no_such_tool"}
    steps = list(ep.steps)
    steps[first] = dataclasses.replace(steps[first], fault=alien)
    g = grade(task, ep.profile, steps)
    assert g.exposed and g.success is False


def test_a_chain_value_of_common_knowledge_needs_no_call():
    """Round 7 (c4-0036-P1): convert_datetime with Miami's time zone, the agent never
    asking get_city_timezone (the chain's first tool: a city's zone is known), is the
    landing step done, so the retried 429 on it was recovered."""
    from pathlib import Path

    from tests.grading._helpers import played
    lines = (Path(__file__).parent.parent / "data" / "played" / "v3-round7" /
             "tmz-v3-c4-0036-P1.actions").read_text(encoding="utf-8").splitlines()
    assert played("tmz-v3-c4-0036", "P1", lines)["recovered"] is True
