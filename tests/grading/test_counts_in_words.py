"""A small count written as a word of the text's own language says it (grading version
21, v21 play-test c1-0068 P1 `spelledout`: an Italian SMS saying "ci sono due cose da
fare" failed for leaving out the 2 action items, though "due (2)" passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.mentions import mentions

SLIPS = Path(__file__).parent.parent / "data" / "played" / "v9-g21" / "probes"
EPISODE = "tmz-v9-c1-0068-P1"
PROBE = SLIPS / f"{EPISODE}.spelledout.actions"


@pytest.mark.parametrize(("text", "value", "ok"), [
    ("Ciao Sara, nelle note della demo ci sono due cose da fare.", 2, True),
    ("Hola Sara, hay dos tareas para el martes 25 de agosto.", 2, True),
    ("Bonjour Sara, il y a trois tâches à faire avant mardi.", 3, True),
    ("Hallo Sara, es gibt zwei Aufgaben bis Dienstag, den 25. August.", 2, True),
    ("Olá Sara, há duas tarefas; criei uma lista com três itens para terça-feira.", 3, True),
    ("Hi Sara, there are two action items from the demo notes.", 2, True),
    # Another count.
    ("Ciao Sara, nelle note della demo ci sono tre cose da fare.", 2, False),
    # Italian "due" is no count in an English text.
    ("Hi Sara, the task is due on Tuesday 25 August.", 2, False),
    # One is left out: "un" is an article too.
    ("Hola Sara, hay un informe para el martes 25 de agosto.", 1, False),
])
def test_a_count_in_words_of_the_texts_language(text, value, ok):
    assert mentions(text, "quantity", value) is ok


def test_due_cose_in_the_italian_sms_tell_two(tmp_path):
    grade = replay_changed(PROBE, EPISODE, "ci sono due cose", "ci sono due cose", tmp_path)
    assert grade["success"], grade


def test_tre_cose_fail(tmp_path):
    grade = replay_changed(PROBE, EPISODE, "ci sono due cose", "ci sono tre cose", tmp_path)
    assert not grade["success"]
