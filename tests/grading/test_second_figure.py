"""A figure asked beside an equal one is written as its own (grading version 18;
toolmaze-v7 play-test c4-0020 P4: "the sponsor's 100% match on it as a second figure"
is 4,800 EUR, the pledge's value, and the pledge's mention passed for it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.grading.second_figure import repeats_told, told_times, untold

PLAYED = Path(__file__).parent.parent / "data" / "played" / "v7"
EPISODE = "tmz-v7-c4-0020-P4"
MATCH = "\\nSponsor 100% match: +4,800 EUR."


def test_figures_are_counted_as_written():
    assert told_times("120 runners × 40 EUR = 4,800 EUR. Match: +4,800.00 EUR", 4800) == 2
    assert told_times("4 800 EUR and 4800 EUR", 4800) == 2      # spaced groups
    assert told_times("Total with sponsor match: 9,600 EUR", 4800) == 0
    need = [("money_amount", 4800.0), ("money_amount", 4800.0), ("currency_code", "EUR")]
    assert repeats_told("4,800 EUR pledged, 4,800 EUR matched", need)
    assert not repeats_told("4,800 EUR pledged and matched", need)
    nil = [("money_amount", 0.0), ("money_amount", 0.0), ("currency_code", "JPY")]
    assert repeats_told("RYNI pays no dividend, so nothing to withhold", nil)  # v3 c1-0063


@pytest.mark.parametrize(("new", "success"), [
    (MATCH, True),                                              # as played
    ("\\nThe sponsor matches it: another 4800 EUR.", True),     # other words
    ("", False),                                                # no match line
    ("\\nTotal with sponsor match: 9,600 EUR.", False),         # the match only as a total
])
def test_the_match_is_told_as_a_second_figure(tmp_path, new, success):
    graded = replay_changed(PLAYED / f"{EPISODE}.actions", EPISODE, MATCH, new, tmp_path)
    assert graded["success"] is success


COMPARE = "tmz-v8-c4-0014"  # MSFT's dividend per share and its 2025-Q3 EPS are both 3.32
TRAF = "TRAF: 424.41 USD, pays no dividend, 2025-Q3 EPS 3.03 vs 3.14 expected."
NEWS = "\nMarkets today: Harbor Bank shares jump after profit beat."


def test_an_amount_and_an_eps_of_the_same_value_are_two_figures():
    need = [("money_amount", 3.32), ("eps", 3.32), ("eps", 2.62)]
    assert repeats_told("dividend 3.32 USD; EPS 3.32 vs 2.62", need)
    assert not repeats_told("EPS 3.32 vs 2.62", need)


def _email(body: str) -> bool:
    from tests.grading.test_zone_told import play

    return play(COMPARE, {"body": body + NEWS}, "Sent.")["success"]


@pytest.mark.parametrize(("msft", "success"), [
    ("MSFT: 505.69 USD, dividend 3.32, 2025-Q3 EPS 3.32 vs 2.62.", True),   # the reference
    ("MSFT 505.69 USD | dividend/share 3.32 USD | Q3 EPS 3.32 (est. 2.62)", True),
    ("MSFT: 505.69 USD, dividend 3.32 USD.\nMSFT beat the EPS estimate by 26.72 %.", True),
    ("MSFT: 505.69 USD, 2025-Q3 EPS 3.32 vs 2.62.", False),   # no dividend (v8 review)
    ("MSFT: 505.69 USD, dividend and EPS 3.32 (est. 2.62).", False),  # one figure, two asks
])
def test_msfts_dividend_and_eps_are_each_told(msft, success):
    """v8 blind review c4-0014: one "3.32" answered both asks; each needs its own."""
    assert _email(f"{msft}\n{TRAF}") is success


# -- what the explanation names as missing (issue 27 item 6) ---------------------------

REFERENCE = ("MSFT: 505.69 USD, dividend 3.32, 2025-Q3 EPS 3.32 vs 2.62.\n" + TRAF + NEWS)
OWN_NEWS = "\nMarkets today: Harbor Bank's shares jumped after it beat profit forecasts."


def _why(body: str, own_summary: bool = False, skip: tuple[str, str] = ("", "")) -> str:
    """The closing line that says why the e-mail of c4-0014's reference path, sent with
    ``body`` (after no summarizer call where ``own_summary``, and without the call
    ``skip``, a tool and its symbol), was not done right."""
    import json

    from toolmaze_gym.play import PlaySession
    from toolmaze_gym.tasks.suite import get_task

    task = get_task(COMPARE)
    s = PlaySession(task, "P0", prompt="failure_aware")
    for c in task.default_path.calls:
        if (own_summary and c.tool == "summarize_article") \
                or (c.tool, c.args.get("symbol")) == skip:
            continue
        args = {k: body if k == "body" else v for k, v in c.args.items()}
        s.handle(json.dumps({"name": c.tool, "arguments": args}, ensure_ascii=False))
    s.handle(json.dumps({"name": "finish", "arguments": {"answer": "Sent."}}))
    assert not s.env.record()["grade"]["success"]
    return next(line for line in s.closing().splitlines()
                if "was not done right" in line or "wrong value:" in line)


DIVIDEND = ("the one not told as its own: 3.32 (money_amount, dividend_per_share, from the "
            "response of company_overview (this episode called it as this task asks at "
            "step 2))")


@pytest.mark.parametrize("own_summary", [False, True])
def test_an_email_without_the_dividend_is_told_the_dividend_is_missing(own_summary):
    """v8 c4-0014 (settle.md `no_msft_dividend`): the line named only "3.32 written once";
    with the headline in the agent's own words it named the summary, which counted."""
    body = REFERENCE.replace("dividend 3.32, ", "")
    if own_summary:
        body = body.replace(NEWS, OWN_NEWS)
    line = _why(body, own_summary)
    assert DIVIDEND in line
    assert "does not mention" not in line  # the summary in other words counted


def test_an_email_without_msfts_eps_names_msfts_eps_not_trafs_estimate():
    """v8 c4-0014: without "2025-Q3 EPS 3.32 vs 2.62" the line blamed TRAF's estimate 3.14
    ("step 6 is not the get_earnings_report call this task asks for")."""
    line = _why(REFERENCE.replace(", 2025-Q3 EPS 3.32 vs 2.62", ""))
    assert "does not mention 2.62 (eps, from the response of get_earnings_report (this " \
           "episode called it as this task asks at step 3))" in line
    assert "the one not told as its own: 3.32 (eps, eps_actual, from the response of " \
           "get_earnings_report (this episode called it as this task asks at step 3))" in line
    assert "3.14" not in line.partition("which does not mention")[2]
    assert "does not count" not in line


def test_msfts_overview_never_called_is_no_wrong_value_of_trafs():
    """v8 c4-0014: MSFT's company_overview never called, the e-mail without its dividend
    was told "step 4 (company_overview {"symbol": "TRAF"}) was called with a wrong value:
    ... expected "MSFT"": the misses reading took TRAF's own call for MSFT's."""
    line = _why(REFERENCE.replace("dividend 3.32, ", ""), skip=("company_overview", "MSFT"))
    assert "was called with a wrong value" not in line
    assert "the one not told as its own: 3.32 (money_amount, dividend_per_share, from the " \
           "response of company_overview, which this episode had called cleanly before " \
           "this step only for other values (step 4))" in line


def test_an_email_without_msfts_price_names_the_msft_quote():
    line = _why(REFERENCE.replace("MSFT: 505.69 USD, ", "MSFT: "))
    assert "does not mention 505.69 (money_amount, from the response of finance_quote_lookup " \
           "(this episode called it as this task asks at step 1))" in line
    assert "424.41" not in line.partition("which does not mention")[2]


@pytest.mark.parametrize(("text", "left"), [
    ("MSFT: 505.69 USD, 2025-Q3 EPS 3.32 vs 2.62.", [0]),     # the EPS told: the dividend left
    ("MSFT: 505.69 USD, dividend 3.32.", [1]),
    ("MSFT: dividend and EPS 3.32 (est. 2.62).", [0]),        # the nearer word tells
    ("MSFT: 3.32 vs 2.62.", [0, 1]),                          # no word: either may be missing
])
def test_an_explanation_reads_which_ask_a_figure_tells_by_the_word_before_it(text, left):
    assert untold(text, 3.32, ["dividend_per_share", "eps_actual"]) == left
