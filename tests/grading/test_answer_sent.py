"""An answer the request sends on is not asked of the final answer (grading version 32;
toolmaze-v15 review c3-0088: "How many are in stock, and how do buyers rate it? Text
them the answer in Portuguese.")."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.grading.answer_sent import left_to_texts, sends_the_answer_on
from toolmaze_gym.grading.asked_facts import all_asks
from toolmaze_gym.tasks.suite import get_task


@pytest.mark.parametrize(("query", "sent"), [
    ("How many are in stock? Text them the answer in Portuguese.", True),
    ("What's the rate? Email Leo the answers.", True),
    ("How many are in stock? Tell me, then text Leo the order number.", False),
    ("What is the answer to the invoice query?", False),
])
def test_a_request_that_sends_its_answer_on(query, sent):
    assert sends_the_answer_on(query) is sent


def test_the_stock_and_rating_are_the_texts_not_the_final_answers():
    task = get_task("tmz-v15-c3-0088")
    asked = all_asks(task, load_corpus())
    assert {a[1] for a in asked} >= {182, 4.6}
    assert {a[1] for a in left_to_texts(task, asked)}.isdisjoint({182, 4.6})
    # no answer sent on: asks a text carries too stay the final answer's
    other = get_task("tmz-v15-c1-0016")
    mine = all_asks(other, load_corpus())
    carried = {(m[2], m[3]) for s in other.slots for i in s.inputs for m in i.mentions
               if len(m) >= 4}
    assert any((a[2], a[3]) in carried for a in mine if len(a) >= 4)
    assert left_to_texts(other, mine) == mine
