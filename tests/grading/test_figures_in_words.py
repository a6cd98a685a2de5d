"""Zero and negative figures told in words (issue 28, v4 draft-2 review: c2-0052,
c4-0056): "pays no dividend" says a nil amount, "a loss of 1.11 per share" says EPS
-1.11; a bare "1.11" still does not, and "no dividend" says no other amount. Played
on toolmaze-v3's tasks of the same scenarios."""

from __future__ import annotations

import json

import pytest

from tests.grading._helpers import FINISH, call, graded, profile, simulator, suite
from toolmaze_gym.episode import Episode
from toolmaze_gym.mentions import mentions

ZERO = "tmz-v3-c1-0063"  # RYNI's dividend is 0.0: "... in JPY, before and after withholding"
SIDE = "tmz-v3-c4-0097"  # REDM: dividend 0, 2025-Q1 EPS -2.04 vs -2.71
REF_SIDE = ("ORIR: 489.69 USD, dividend 11.08, 2025-Q1 EPS 16.65 vs 13.15. REDM: 273.07 "
            "USD, {redm}. Markets today: Harbor Bank shares jump after profit beat")


def _mailed(task_id: str, tool: str, body: str) -> bool:
    """Success of the reference path with ``tool``'s body replaced (a draft's id taken
    from the episode's own response)."""
    task = next(t for t in suite() if t.id == task_id)
    ep = Episode(task, "P0", simulator(), profile(task, "P0"), 25)
    for c in task.default_path.calls:
        args = {**c.args, "body": body} if c.tool == tool else dict(c.args)
        if "draft_id" in args:
            args["draft_id"] = json.loads(ep.steps[-1].observation)["draft_id"]
        ep.step(call(c, **args))
    ep.step(FINISH)
    return graded(ep).success


@pytest.mark.parametrize(("body", "success"), [
    ("RYNI pays no dividend, so there is nothing to withhold.", True),
    ("102 RYNI shares pay 0 JPY a year, 0 JPY after withholding.", True),
    # subtly wrong: a dividend that is not there
    ("RYNI pays 0.5 JPY a year, 0.35 JPY after withholding.", False),
    ("RYNI pays a dividend; I will send the figures in JPY later.", False),
])
def test_a_nil_dividend_in_words(body, success):
    assert _mailed(ZERO, "create_draft", body) is success


@pytest.mark.parametrize(("redm", "success"), [
    ("pays no dividend, 2025-Q1 a loss of 2.04 per share vs. an expected loss of 2.71", True),
    ("dividend: none, 2025-Q1 EPS -2.04 vs -2.71", True),
    # subtly wrong: the losses written as profits
    ("pays no dividend, 2025-Q1 EPS 2.04 vs 2.71", False),
])
def test_a_side_by_side_with_a_nil_dividend_and_losses_in_words(redm, success):
    assert _mailed(SIDE, "send_email", REF_SIDE.format(redm=redm)) is success


@pytest.mark.parametrize(("text", "type_name", "value", "said"), [
    ("XOM: a loss of 1.11 per share", "eps", -1.11, True),
    ("XOM: 1.11 a share loss", "eps", -1.11, True),
    ("XOM: EPS 1.11", "eps", -1.11, False),
    ("XOM: EPS 1.11, down from 1.35", "eps", -1.11, False),
    ("SYNJ pays no dividend", "money_amount", 0.0, True),
    ("Nothing to withhold.", "money_amount", 0, True),
    ("SYNJ pays no dividend", "money_amount", 3.8, False),
    ("No rain expected", "money_amount", 0, False),
])
def test_figures_in_words(text, type_name, value, said):
    assert mentions(text, type_name, value) is said
