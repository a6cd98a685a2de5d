"""A value asked to be told to the user is not asked of a text sent for other details
(grading version 21, toolmaze-v9 review c1-0032): "how much a SYNJ share costs in CAD
today? ... with the alert details emailed to lena.varga@northwind.io" asks the CAD
price of the final answer and the alert of the e-mail."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.asked_elsewhere import step_clauses, without_asked_elsewhere
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.tasks.suite import get_task

TASK = "tmz-v9-c1-0032"
EPISODE = f"{TASK}-P0"
ACTIONS = Path(__file__).parents[1] / "data/reviews/v9/actions"
SPLIT = ACTIONS / "c1-0032.splitcad.txt"
REF = ACTIONS / "c1-0032.ref.txt"
MAIL_WORDS = ("email", "emailed", "send")


def test_a_clause_runs_back_to_its_comma_and_on_to_its_stop():
    query = ("I'd like a price alert at 95% of where it trades now, with the alert details "
             "emailed to lena.varga@northwind.io.")
    assert step_clauses(query, MAIL_WORDS) == [
        "with the alert details emailed to lena.varga@northwind.io"]


def _mail_asks(query: str | None = None) -> list:
    task = get_task(TASK)
    if query is not None:
        task = replace(task, query=query)
    corpus = load_corpus()
    task = without_asked_elsewhere(with_noted(task, corpus), corpus)
    return [m[1] for i in task.slot_by_id["s5"].inputs for m in i.mentions]


@pytest.mark.parametrize(("mail", "asked"), [
    ("with the alert details emailed to lena.varga@northwind.io.", False),
    # the clause names the price too, or points back at what was asked: still asked there
    ("with the price and the alert details emailed to lena.varga@northwind.io.", True),
    ("with all that and the alert details emailed to lena.varga@northwind.io.", True),
    ("and email lena.varga@northwind.io.", True),  # names nothing it holds
])
def test_the_cad_price_is_asked_of_the_mail_only_where_its_clause_names_it(mail, asked):
    query = ("Could you check how much a SYNJ share costs in CAD today? I'd like a price "
             f"alert at 95% of where it trades now, {mail}")
    got = _mail_asks(query)
    assert (467.04 in got) is asked
    assert ("CAD" in got) is asked  # the currency written after it goes with it
    assert 326.91 in got  # the alert's threshold stays asked


@pytest.mark.parametrize(("source", "old", "new", "success"), [
    (SPLIT, "xx", "xx", True),  # the alert in the mail, the CAD price in the finish
    (REF, "xx", "xx", True),
    # a finish without the CAD price leaves the asked price untold
    (SPLIT, "A SYNJ share costs 467.04 CAD today (344.12 USD). ", "", False),
    (SPLIT, "467.04 CAD", "476.04 CAD", False),  # a wrong price
])
def test_the_price_is_asked_of_the_finish(tmp_path, source, old, new, success):
    if old == "xx":
        old = new = "SYNJ"
    assert replay_changed(source, EPISODE, old, new, tmp_path)["success"] is success


def test_a_list_before_the_text_s_cue_is_one_clause():
    """v3 c3-0039: "I'd like the purchase cost, the annual dividend, the 2025-Q3 results
    and the savings interest side by side in a spreadsheet": the commas part a list, so
    the purchase cost stays asked of the spreadsheet."""
    query = ("Help me decide. I'd like the purchase cost, the annual dividend, the 2025-Q3 "
             "results and the savings interest side by side in a spreadsheet titled \"X\".")
    assert step_clauses(query, ("spreadsheet",)) == [
        "I'd like the purchase cost, the annual dividend, the 2025-Q3 results and the "
        "savings interest side by side in a spreadsheet titled \"X\""]
    task = get_task("tmz-v3-c3-0039")
    corpus = load_corpus()
    noted = with_noted(task, corpus)
    assert without_asked_elsewhere(noted, corpus) is noted


def test_an_abbreviation_is_no_clause_stop():
    """toolmaze-v10 c1-0010: "I'd like the 2026-Q1 earnings of 6758 (actual vs. estimated
    EPS), an alert ..., and a summary for #facilities": the post's clause runs back over
    "vs." to the sentence's start and names both EPS figures, so the post keeps both."""
    corpus = load_corpus()
    task = without_asked_elsewhere(with_noted(get_task("tmz-v10-c1-0010"), corpus), corpus)
    post = task.slot_by_id["s5"]
    assert {m[1] for i in post.inputs for m in i.mentions} == {19.04, 21.19}
