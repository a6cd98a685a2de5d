"""A text asked to greet its reader by name names them (grading version 21;
toolmaze-v9 review c3-0040: "a welcome email greeting them by name" passed with
"Hello," and no name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_reviewed import review_changed
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.arguments import ADDRESSEE, says
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.tasks.suite import get_task

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"


_graded = review_changed
GREETING = "Dear Elif Jensen, we meet"


def test_the_name_is_asked_where_the_request_greets_by_name():
    for tid, name in (("tmz-v9-c3-0040", "Elif Jensen"), ("tmz-v9-c1-0078", "Ana Okafor")):
        task = get_task(tid)
        added = {(m[0], m[1]) for s in with_noted(task, load_corpus()).slots
                 for i in s.inputs for m in i.mentions} \
            - {(m[0], m[1]) for s in task.slots for i in s.inputs for m in i.mentions}
        assert added == {(ADDRESSEE, name)}


@pytest.mark.parametrize(("text", "said"), [
    ("Dear Elif Jensen,", True), ("Hi Elif!", True), ("Dear Ms Jensen,", True),
    ("Sehr geehrte Frau Jensen", True),
    ("Hello,", False), ("Dear Ana,", False), ("Dear Mr Hughes,", False),
    ("Dear Jensen team,", False),
])
def test_a_greeting_by_name(text, said):
    assert says(text, ADDRESSEE, "Elif Jensen") is said


@pytest.mark.parametrize(("greeting", "success"), [
    (GREETING, True),
    ("Dear Elif, we meet", True),                 # the given name alone
    ("Good morning Ms Jensen, we meet", True),    # a title and the family name
    ("Hello, we meet", False),                    # no name (the review's noname)
    ("Dear colleague, we meet", False),
    ("Dear Ana, we meet", False),                 # another name
])
def test_the_welcome_mail_greets_by_name(tmp_path, greeting, success):
    g, out = _graded(tmp_path, ACTIONS / "c3-0040.ref.txt", GREETING, greeting)
    assert g["success"] is success, out
    assert success or '"Elif Jensen" (addressee' in out, out
