"""A question when an order will come asks its delivery date of the final answer
(toolmaze-v10 review c4-0024: "shipped to Rome (when will it come?)" and a run that told
the date nowhere passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_reviewed import _grade
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.asked_delivery import asks_when_it_comes
from toolmaze_gym.grading.asked_facts import untold_asks
from toolmaze_gym.tasks.suite import get_task

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v10" / "actions"
TASK = "tmz-v10-c4-0024"


@pytest.mark.parametrize(("query", "asked"), [
    ("Order 3 sunglasses, shipped to Rome (when will it come?).", True),
    ("Order the blender. When will it arrive, and what's the tracking number?", True),
    ("When does the parcel get here?", True),
    ("when will my new headphones be delivered", True),
    ("Order the kettle and tell me when it is due.", False),      # a due date, not this
    ("When will the meeting start?", False),
    ("Order 3 sunglasses, shipped to Rome before I go.", False),
])
def test_a_question_when_it_comes_is_read_in_its_own_words(query, asked):
    assert asks_when_it_comes(query) is asked


def test_the_delivery_date_is_asked_once_though_two_steps_give_it():
    # the shipping quote (2026-08-25) and the order (08/25/2026) give the same day
    asked = untold_asks(get_task(TASK), load_corpus())
    assert asked == (("iso_date", "2026-08-25", "s5", "iso_date@estimated_delivery"),)


def _finish(tmp_path: Path, answer: str, source: str = "c4-0024.ref.txt") -> tuple[dict, str]:
    text = (ACTIONS / source).read_text(encoding="utf-8")
    assert text.endswith("finish Done.\n")
    path = tmp_path / source
    path.write_text(text.replace("finish Done.\n", f"finish {answer}\n"), encoding="utf-8")
    return _grade(path, TASK)


@pytest.mark.parametrize(("answer", "success"), [
    ("Done. The sunglasses (SO-RSEK3XNJ) arrive on Tuesday 25 August.", True),
    ("Booked and ordered; the sunglasses should be in Rome by 2026-08-25.", True),
    ("All set. Delivery: Tue 25 Aug.", True),
    ("Done. The sunglasses arrive on Monday 24 August.", False),          # a wrong day
    ("Done. The sunglasses are on their way.", False),                    # no date
])
def test_c4_0024s_final_answer_tells_when_the_order_comes(answer, success, tmp_path):
    g, reason = _finish(tmp_path, answer)
    assert g["success"] is success, reason


def test_a_run_that_tells_the_date_nowhere_is_explained_by_it():
    g, reason = _grade(ACTIONS / "c4-0024.nodelivery.txt", TASK)
    assert not g["success"]
    assert ('the final answer does not tell the user the iso_date "2026-08-25", which the '
            'request asked to be told') in reason
