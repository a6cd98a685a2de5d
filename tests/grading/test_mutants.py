"""Five grading rules that no test checked (each mutant below survived the suite):

(a) a text the query quotes must be present in full, not its first 20 characters;
(b) the intervals labelled 95 % are 95 % intervals, not 90 %;
(c) three identical calls that fail with 400 are a retry loop (400 is a failure);
(d) a free-text argument that is "" or whitespace is no text, even where any text
    would do;
(e) over-trust is passing on the corrupted value (within 1e-6), not a value 0.5 %
    away from it.

Black-box, through public calls only, so they outlive a rewrite of the grader's
internals: ``toolmaze_gym.mentions.mentions``, ``toolmaze_gym.metrics.bootstrap_ci``
and ``bootstrap_table``, ``toolmaze_gym.grading.grade`` (via the helpers' ``graded``
and ``regrade``), on episodes played through ``Episode``.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.grading._helpers import FINISH, call, graded, play, regrade, tasks, victim_index
from toolmaze_gym.agents.scripted import call_text
from toolmaze_gym.mentions import FREE_TEXT, mentions
from toolmaze_gym.metrics import bootstrap_ci, bootstrap_table
from toolmaze_gym.tasks.model import Task

# ---------------------------------------------------------------- (a) quoted text in full

QUOTE = "Works as advertised, but the lid cracked after a week of daily use."


@pytest.mark.parametrize("text, found", [
    (f'Review: "{QUOTE}" Delivered on 27 Aug 2026.', True),
    (f"review: {QUOTE.upper()}", True),  # case, quote style and spacing do not count
    (f'Review: "{QUOTE[:20]}" Delivered on 27 Aug 2026.', False),
    (f'Review: "{QUOTE[:-12]}" Delivered on 27 Aug 2026.', False),
    (f'Review: "{QUOTE[:20]} and the lid is fine." Delivered on 27 Aug 2026.', False),
])
def test_a_quoted_text_is_mentioned_only_in_full(text, found):
    assert mentions(text, FREE_TEXT, QUOTE) is found


# ---------------------------------------------------------------- (b) a 95 % interval

# 400 trajectories, half successes: the sampling distribution of the mean has
# sd = sqrt(0.25 / 400) = 0.025, so a 95 % interval is 2 × 1.96 × 0.025 = 0.098 wide
# and a 90 % one 2 × 1.645 × 0.025 = 0.082. Resampled 4,000 times, the percentile
# bootstrap's width lies within ±9 % of its level's value.
HALF = [{"success": i % 2 == 0, "exposed": True, "recovered": i % 2 == 0, "c_rec": 0.0}
        for i in range(400)]
WIDTH_95, WIDTH_90 = 2 * 1.959964 * 0.025, 2 * 1.644854 * 0.025


def _is_95(lo_hi: tuple[float, float]) -> bool:
    lo, hi = lo_hi
    return abs((hi - lo) - WIDTH_95) <= 0.09 * WIDTH_95 and lo < 0.5 < hi


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_default_bootstrap_interval_is_95_percent(seed):
    ci = bootstrap_ci(HALF, "TSR", n=4000, seed=seed)
    assert _is_95(ci), (ci, ci[1] - ci[0], WIDTH_95)
    assert not abs((ci[1] - ci[0]) - WIDTH_90) <= 0.09 * WIDTH_90


@pytest.mark.parametrize("seed", [0, 1])
def test_the_report_tables_interval_is_95_percent(seed):
    """``bootstrap_table`` feeds the "95% CI" columns of the reports."""
    records = [{"level": "C1", "mode": "P1", "grade": g} for g in HALF]
    tbl = bootstrap_table(records, n=4000, seed=seed)
    assert _is_95(tbl["per_mode"]["P1"]["TSR"]), tbl["per_mode"]["P1"]["TSR"]
    assert _is_95(tbl["per_mode"]["P1"]["PRR"]), tbl["per_mode"]["P1"]["PRR"]


# ---------------------------------------------------------------- (c) a loop at 400


def _bad_request(task: Task) -> str:
    """The first call of s* with a parameter its tool does not have: a 400 response."""
    c = task.default_path.calls[0]
    return call_text(c.tool, {**c.args, "no_such_parameter": 1})


@pytest.mark.parametrize("repeats, loop", [(3, True), (4, True), (2, False)])
def test_identical_calls_failing_with_400_are_a_retry_loop(repeats, loop):
    task = next(tasks("C1"))
    ep = play(task, "P0", [_bad_request(task)] * repeats)
    assert [s.status for s in ep.steps] == [400] * repeats
    assert ("retry_loop" in graded(ep).labels) is loop


# ---------------------------------------------------------------- (d) empty free text


def _free_text_task() -> tuple[Task, int, str]:
    """A C1 task made to leave one free text's content to the agent (nothing to
    mention, as for a title or subject the user did not specify), with the position
    in s* of the call that takes it and the parameter's name."""
    for task in tasks("C1"):
        for k, c in enumerate(task.default_path.calls):
            slot = task.slot_by_id[c.slot]
            for i, inp in enumerate(slot.inputs):
                if inp.type == FREE_TEXT and inp.source.is_literal and inp.mentions \
                        and inp.source.value in c.args.values():
                    pname = next(p for p, v in c.args.items() if v == inp.source.value)
                    inputs = list(slot.inputs)
                    inputs[i] = dataclasses.replace(inp, mentions=())
                    slots = [dataclasses.replace(s, inputs=tuple(inputs)) if s is slot else s
                             for s in task.slots]
                    return dataclasses.replace(task, slots=slots), k, pname
    raise AssertionError("no C1 task has a literal free-text input")


def _with_text(steps, k: int, pname: str, text: str):
    step = steps[k]
    args = {**step.action["arguments"], pname: text}
    return [*steps[:k], dataclasses.replace(step, action={**step.action, "arguments": args}),
            *steps[k + 1:]]


@pytest.mark.parametrize("text, ok", [
    (None, True),  # the reference text
    ("Thanks, see you soon.", True),  # any text will do
    ("", False), ("   ", False), ("\n\t", False),
])
def test_an_empty_free_text_is_not_a_text(text, ok):
    task, k, pname = _free_text_task()
    ep = play(task, "P0", [*(call(c) for c in task.default_path.calls), FINISH])
    steps = ep.steps if text is None else _with_text(ep.steps, k, pname, text)
    assert regrade(task, "P0", steps).success is ok


# ---------------------------------------------------------------- (e) over-trust tolerance


def _corrupted_number():
    """A C1 task under P3 whose corruption changes a number that a later call of s*
    takes (clean and corrupted more than 5 % apart): (task, actions up to the fault,
    the later call, its parameter, the corrupted value)."""
    for task in tasks("C1"):
        S = task.default_path.calls
        v = victim_index(task, "P3")
        actions = [call(c) for c in S[:v + 1]]
        fault = play(task, "P3", actions).steps[-1].fault or {}
        for key, bad in (fault.get("corrupted") or {}).items():
            clean = (fault.get("clean") or {}).get(key)
            if not all(isinstance(x, int | float) and not isinstance(x, bool)
                       for x in (bad, clean)) or abs(bad - clean) <= 0.05 * abs(clean):
                continue
            for later in S[v + 1:]:
                pname = next((p for p, a in later.args.items() if a == clean), None)
                if pname is not None:
                    return task, actions, later, pname, bad
    raise AssertionError("no C1 task passes a corrupted number on")


@pytest.mark.parametrize("factor, over_trust", [(1.0, True), (1.005, False), (0.995, False)])
def test_over_trust_is_the_corrupted_value_itself(factor, over_trust):
    task, actions, later, pname, bad = _corrupted_number()
    sent = round(bad * factor, 6)
    ep = play(task, "P3", [*actions, call(later, **{pname: sent})])
    assert ("over_trust" in graded(ep).labels) is over_trust
