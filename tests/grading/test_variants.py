"""The grader against agents that do the task differently: competent ones must pass
wherever the careful agent passes, wrong ones must fail wherever they apply.

Each variant (``toolmaze_gym.agents.variants``) plays a fixed sample (every 4th task of
each level: 25 per level x P0-P4) through the env; the slow tests play all 400 x 5.
Assertions are episode by episode; an episode where the variant found nothing to
change is n/a and not counted. What is still misjudged is marked xfail
(strict=False) with the count and the cause.
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from toolmaze_gym.envs.env import ToolMazeEnv

from toolmaze_gym.agents.variants import (
    COMPETENT,
    VARIANTS,
    WRONG,
    Outcome,
    expected,
    facts,
    names_base,
    own_sentence,
    pct_slots,
    play,
    survey,
)
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import SUITE_NAME, V3_NAME, get_task, load_suite

# The suite the sample is drawn from: the default suite (toolmaze-v4), whose whole
# sweep (benchmarks/variants_survey.py) the counts and causes below were written
# against (issue 27, grading version 12).
SUITE = SUITE_NAME
SAMPLE_STRIDE = 4  # every 4th task of a level: 25 a level

# Where a variant's verdict is known to be wrong, with the count over the whole suite
# (benchmarks/variants_survey.py). Grading version 12, toolmaze-v4.
KNOWN = {
    "trust_fault": "11/800 (c1-0004, c1-0012, c1-0038, c1-0064, c1-0080, c1-0084 at P3/P4), "
                   "the variant's doing: the corrupted field of the silent fault (a hotel "
                   "search's total_price) never reaches an Action, since the variant's next "
                   "call sends the true value (c1-0004/P3: 332.72, not the faulted 450.87), "
                   "so nothing corrupted is passed on and success is right; the variant "
                   "counts itself applied",
}


# Variants that fit few tasks (a percent change, an additive Action, an id or text the
# reference run passed on that this episode's run makes otherwise: none in toolmaze-v13's
# sample): the default tests play them on every task they fit, not only the sample's.
EVERY_FIT = ("split_additive", "directional", "other_direction", "wrong_sign", "reference_ids")


def _marked(names):
    return [pytest.param(n, marks=pytest.mark.xfail(strict=False, reason=KNOWN[n]))
            if n in KNOWN else n for n in names]


@cache
def _outcomes(stride: int) -> tuple[Outcome, ...]:
    tasks = [t for lv in LEVELS for t in load_suite(SUITE, [lv])[::stride]]
    return tuple(survey(tasks, MODE_NAMES))


# Variants that find something to change only in a play (a lookup the query already
# answers: 8 tasks of toolmaze-v9, none of them in the sample): the default tests play
# them in every mode on the tasks where they apply at P0.
PLAYED_FIT = ("skip_known",)


@cache
def _fitting(name: str) -> tuple[Outcome, ...]:
    variant, corpus = VARIANTS[name], Simulator().corpus
    tasks = [t for t in load_suite(SUITE) if variant.may_apply(t, corpus)]
    if name in PLAYED_FIT:
        at_p0 = {o.task_id for o in survey(tasks, ["P0"], [variant])
                 if o.variant == name and expected(o) is not None}
        tasks = [t for t in tasks if t.id in at_p0]
    return tuple(survey(tasks, MODE_NAMES, [variant]))


def _misjudged(name: str, stride: int) -> tuple[list[Outcome], int]:
    few = name in EVERY_FIT or name in PLAYED_FIT
    pool = _fitting(name) if few and stride > 1 else _outcomes(stride)
    mine = [o for o in pool if o.variant == name]
    applicable = [o for o in mine if expected(o) is not None]
    return [o for o in applicable if not expected(o)], len(applicable)


def _check(name: str, stride: int) -> None:
    bad, applicable = _misjudged(name, stride)
    assert applicable > 0, f"{name} applied to no episode of the sample"
    want = "success where careful succeeds" if VARIANTS[name].competent else "failure"
    shown = ", ".join(f"{o.task_id}/{o.mode}" for o in bad[:10])
    assert not bad, f"{name}: {len(bad)}/{applicable} episodes not graded {want}: {shown}"


@pytest.mark.parametrize("name", _marked(v.name for v in COMPETENT))
def test_competent_variant_is_graded_as_the_careful_agent(name):
    _check(name, SAMPLE_STRIDE)


@pytest.mark.parametrize("name", _marked(v.name for v in WRONG))
def test_wrong_variant_is_graded_a_failure(name):
    _check(name, SAMPLE_STRIDE)


def test_the_careful_reference_succeeds_on_the_sample():
    """Parity means something only if the reference policy itself passes: the careful
    agent succeeds on nearly every sampled episode (it misses only implicit faults no
    visible check can catch)."""
    by_episode = {(o.task_id, o.mode): o.reference_success for o in _outcomes(SAMPLE_STRIDE)}
    assert sum(by_episode.values()) >= 0.95 * len(by_episode)


def _kinds(name: str) -> set[str]:
    return {k for o in _outcomes(SAMPLE_STRIDE) if o.variant == name and o.applied
            for k in o.detail.split(", ")}


def test_derive_chained_meets_every_slot_shape():
    """A derivation as a step of its own, as the tail of a Source->Processor chain, and
    on one side of an alternative group (alone or as a chain's tail)."""
    assert {"own step", "chain tail", "alt side: own step",
            "alt side: chain tail"} <= _kinds("derive_chained")


def test_own_summary_writes_summaries_formatted_lines_and_reports():
    assert {"text.summarize", "office.text.summarize", "text.format_price",
            "text.weather_report"} <= _kinds("own_summary")


def test_split_additive_splits_rows_texts_and_quantities():
    kinds = {k for o in _fitting("split_additive") if o.applied for k in o.detail.split(", ")}
    assert kinds == {"asked values over two rows", "sentences over two appends",
                     "quantity as 1 + rest"}


def test_an_own_summary_carries_the_lines_facts_in_other_words():
    assert facts("The arena in Toronto seats 238 people.") == ["Toronto", "238"]
    assert facts("The Bank of England held rates at 4.5%.") == ["Bank of England", "4.5%"]
    line = "Price: 248.36 USD (US Dollar)"
    own = own_sentence(line, [248.36, "USD"])
    assert own is not None and "248.36 USD" in own and own != line
    report = own_sentence("Partly cloudy, 22.4 °C (72.3 °F).", ["Partly cloudy", 22.4])
    assert report is not None and "Partly cloudy" in report and "72.3 °F" in report


def test_which_percent_changes_name_their_base():
    """Nine requests say what the change is measured from ("since I bought", "than the
    refund", "compare it with my current net"); three only ask for "the percentage
    difference" of two things, where either direction is right."""
    corpus = Simulator().corpus
    pct = [t for t in load_suite(V3_NAME) if pct_slots(t, corpus)]  # the phrasings of v3
    free = sorted(t.id for t in pct if not names_base(t))
    assert len(pct) == 12
    assert free == ["tmz-v3-c1-0079", "tmz-v3-c4-0061", "tmz-v3-c4-0085"]


# Competent variants misjudged over the whole suite only (the sample passes and keeps
# guarding the rule; issue 27 keeps the cause open).
# (other_tool's 5/1505 on tmz-v8-c3-0070, "Update my tracker at URL: what are my 5 ADA
# worth in USD, ...?", passes since grading version 19: the question read from its
# sentence's start is the tracker's content: grading/asked_facts.in_sentence.)
COMPETENT_WHOLE: dict[str, str] = {}


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason=COMPETENT_WHOLE[n])) if n in COMPETENT_WHOLE else p
                                  for n, p in zip((v.name for v in COMPETENT),
                                                  _marked(v.name for v in COMPETENT),
                                                  strict=True)])
def test_competent_variant_over_the_whole_suite(name):
    _check(name, 1)


# Known over the whole suite only (the sample passes, so its test keeps guarding).
WHOLE: dict[str, str] = {}


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=False, reason=WHOLE[n])) if n in WHOLE else p
                                  for n, p in zip((v.name for v in WRONG),
                                                  _marked(v.name for v in WRONG), strict=True)])
def test_wrong_variant_over_the_whole_suite(name):
    _check(name, 1)


def test_an_own_summary_of_its_own_notes_names_its_own_ticket():
    """The complaint notes the agent writes (v7: longer than their summary, v6 review
    c4-0022) name the ticket it opened; its own summary of them names that ticket, not
    the reference run's, and the call time in one piece (toolmaze-v7 c3-0006: "Ticket
    TKT-XQ3ZQ4ME; 08:00; UTC; Wednesday; 26; August" posted beside its own TKT-UQHF5LUQ)."""
    env = ToolMazeEnv(level=None, mode=None)
    agent = VARIANTS["own_summary"](env.sim)
    grade = play(env, agent, get_task("tmz-v7-c3-0006"), "P0")
    calls = [m["tool_calls"][0]["function"] for m in env.messages if m.get("tool_calls")]
    bodies = [m["content"] for m in env.messages if m["role"] == "tool"]
    ticket = next(json.loads(b)["ticket_id"] for c, b in zip(calls, bodies, strict=True)
                  if c["name"] == "create_ticket")
    posted = next(json.loads(c["arguments"])["text"] for c in calls
                  if c["name"] == "post_slack_message")
    assert agent.applied and "office.text.summarize" in agent.detail
    assert ticket in posted and "08:00 UTC on Wednesday 26 August" in posted
    assert grade["success"]
