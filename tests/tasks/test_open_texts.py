"""A text the user leaves open is graded by its asks, never by the author's sentence
(issue 28, item 2; c3-0087: "record my third ... with the description in Spanish")."""

from __future__ import annotations

import dataclasses

import pytest

from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.arguments import TEXT_FACTS
from toolmaze_gym.grading.index import TaskIndex
from toolmaze_gym.mentions import FREE_TEXT, mentions
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.open_texts import open_text_problems
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import Scenario, load_library
from toolmaze_gym.tasks.suite import get_task

LIB = {s.id: s for s in load_library()}
FIXED = ["et-shared-hotel-my-share-spanish", "et-parents-flight-translated-trip"]


def hidden_sentences(task: Task) -> list[str]:
    """Texts an agent's own rendering is graded on that the request never shows: a
    literal text (the author's template, filled) that the query does not quote."""
    out = []
    for exp in TaskIndex(task, load_corpus()).expected:
        for _, spec in exp.texts:
            entries = [*spec.own, *(m for _, alt in spec.alts for m in alt)]
            out += [r.value for t, r in entries if t in (TEXT_FACTS, FREE_TEXT)
                    and r.kind == "literal" and isinstance(r.value, str)
                    and not mentions(task.query, FREE_TEXT, r.value)]
    return out


def test_no_scenario_translates_an_open_text_without_asks():
    corpus = load_corpus()
    assert [p for s in LIB.values() for p in open_text_problems(s, corpus)] == []


def test_c3_0087_the_v3_task_graded_an_own_translation_on_the_authors_sentence():
    """The fixture: as v3 shipped it, the Spanish description had to carry the facts
    of an English sentence found nowhere in the request."""
    task = get_task("tmz-v3-c3-0087")
    assert hidden_sentences(task) == [
        "My share (1 of 3) of hotel booking HR-R7PKQ7LM in Mexico City, 4 nights from "
        "2026-08-23"]


def _v3_form(sid: str) -> Scenario:
    """The scenario with its texts' asks taken away, as toolmaze-v3 had them."""
    sc = LIB[sid]
    steps = tuple(dataclasses.replace(s, args=tuple(
        dataclasses.replace(a, mention=()) if a.kind == "text" else a for a in s.args))
        for s in sc.steps)
    return dataclasses.replace(sc, steps=steps)


@pytest.mark.parametrize("sid", FIXED)
def test_the_check_flags_the_v3_form_of_the_fixed_scenarios(sid):
    problems = open_text_problems(_v3_form(sid), load_corpus())
    assert len(problems) == 1 and "translated with no asks" in problems[0]


@pytest.mark.parametrize("sid", FIXED)
def test_tasks_built_from_the_v3_form_grade_on_the_authors_sentence(sid):
    level = LIB[sid].levels[0]
    task = ScenarioGenerator().generate(_v3_form(sid), level, "test", f"t-{level}")
    assert len(hidden_sentences(task)) == 1


@pytest.mark.parametrize("sid", FIXED)
def test_tasks_built_from_the_fixed_scenarios_grade_by_asks_only(sid):
    level = LIB[sid].levels[0]
    task = ScenarioGenerator().generate(LIB[sid], level, "test", f"t-{level}")
    assert hidden_sentences(task) == []
