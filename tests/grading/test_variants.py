"""The grader against agents that do the task differently: competent ones must pass
wherever the careful agent passes, wrong ones must fail wherever they apply.

Each variant (``toolmaze_gym.agents.variants``) plays a fixed sample (every 4th task of
each level: 25 per level x P0-P4) through the env; the slow tests play all 400 x 5.
Assertions are episode by episode; an episode where the variant found nothing to
change is n/a and not counted. What is still misjudged is marked xfail
(strict=False) with the count and the cause.
"""

from __future__ import annotations

from functools import cache

import pytest

from toolmaze_gym.agents.variants import COMPETENT, VARIANTS, WRONG, Outcome, expected, survey
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import load_suite

SAMPLE_STRIDE = 4  # every 4th task of a level: 25 a level

# Where a variant's verdict is known to be wrong, with the count on the default sample
# (benchmarks/variants_survey.py prints the whole suite's).
V3 = {
    "reference_ids": "1/43: the e-mail carrying the reference text failed (a P2 fault on "
                     "the mail group) and the retry through the other tool carried the "
                     "variant's own text, so nothing wrong reached the world; the variant "
                     "counts itself applied",
    "trust_fault": "12/200: the corrupted value flows only into a free text the request "
                   "left open (asks = []), where the variant writes the reference template, "
                   "so nothing corrupted is passed on; the variant counts itself applied",
}


def _marked(names):
    return [pytest.param(n, marks=pytest.mark.xfail(strict=False, reason=V3[n]))
            if n in V3 else n for n in names]


@cache
def _outcomes(stride: int) -> tuple[Outcome, ...]:
    tasks = [t for lv in LEVELS for t in load_suite(levels=[lv])[::stride]]
    return tuple(survey(tasks, MODE_NAMES))


def _misjudged(name: str, stride: int) -> tuple[list[Outcome], int]:
    mine = [o for o in _outcomes(stride) if o.variant == name]
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


@pytest.mark.slow
@pytest.mark.parametrize("name", _marked(v.name for v in COMPETENT))
def test_competent_variant_over_the_whole_suite(name):
    _check(name, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", _marked(v.name for v in WRONG))
def test_wrong_variant_over_the_whole_suite(name):
    _check(name, 1)
