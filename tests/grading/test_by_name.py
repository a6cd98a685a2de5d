"""A text asked to greet its reader by name names them (grading version 21;
toolmaze-v9 review c3-0040: "a welcome email greeting them by name" passed with
"Hello," and no name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.arguments import ADDRESSEE, says
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.tasks.suite import get_task

# The reference path of toolmaze-v11's c3-0006, the welcome scenario of v9's c3-0040 (whose
# v9 task is read as built since the scenario changed: tests/data/reviews/v9/verdicts.tsv)
REFERENCE = Path(__file__).parent.parent / "data" / "by_name" / "tmz-v11-c3-0006.ref.txt"
GREETING = "Dear Ines Souza, we meet"


def _graded(tmp_path: Path, old: str, new: str) -> tuple[dict, str]:
    text = REFERENCE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / REFERENCE.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return _replay(path, "tmz-v11-c3-0006-P0")


def test_the_name_is_asked_where_the_request_greets_by_name():
    # (v9's c3-0040 and c1-0078, of the same scenario, are read as built since it changed)
    for tid, name in (("tmz-v11-c3-0006", "Ines Souza"),):
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
    ("Dear Ines, we meet", True),                 # the given name alone
    ("Good morning Ms Souza, we meet", True),     # a title and the family name
    ("Hello, we meet", False),                    # no name (the v9 review's noname)
    ("Dear colleague, we meet", False),
    ("Dear Ana, we meet", False),                 # another name
])
def test_the_welcome_mail_greets_by_name(tmp_path, greeting, success):
    g, out = _graded(tmp_path, GREETING, greeting)
    assert g["success"] is success, out
    assert success or '"Ines Souza" (addressee' in out, out
