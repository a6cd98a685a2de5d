"""The shipped reference suite toolmaze-v1: Table 1, exactness, reproducibility."""

from __future__ import annotations

import itertools

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.spec import DOMAINS
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.stats import table1
from toolmaze_gym.tasks.suite import V1_NAME, load_suite, manifest
from toolmaze_gym.tasks.validation import validate_task

SUITE = load_suite(V1_NAME)
TABLE = table1(SUITE)
RANGES = {"C1": (5, 7), "C2": (5, 9), "C3": (6, 10), "C4": (8, 15)}
MEANS = {"C1": 5.30, "C2": 5.75, "C3": 6.66, "C4": 11.0}
PATHS = {"C1": 100, "C2": 200, "C3": 200, "C4": 600}


def test_hundred_tasks_per_level_with_unique_ids():
    assert [TABLE[lv]["tasks"] for lv in LEVELS] == [100] * 4
    assert len({t.id for t in SUITE}) == 400


@pytest.mark.parametrize("level", LEVELS)
def test_lengths_match_table1(level):
    row = TABLE[level]
    lo, hi = RANGES[level]
    assert lo <= row["min_length"] and row["max_length"] <= hi
    assert abs(row["avg_length"] - MEANS[level]) <= 0.25


@pytest.mark.parametrize("level", LEVELS)
def test_valid_paths_match_table1(level):
    got = TABLE[level]["valid_paths"]
    if level == "C1":
        assert got == 100 and all(len(t.solutions) == 1 for t in SUITE if t.level == "C1")
    else:
        assert abs(got - PATHS[level]) <= 0.15 * PATHS[level]


@pytest.mark.parametrize("level", ["C1", "C2", "C3"])
def test_tool_sets_are_diverse(level):
    assert TABLE[level]["mean_jaccard"] <= 0.06


def test_c4_tool_sets_stay_diverse():
    # The paper reports 0.06; our larger C4 DAGs share money/text glue tools more
    # often (see the issue notes). Guard against regressions.
    assert TABLE["C4"]["mean_jaccard"] <= 0.13


@pytest.mark.parametrize("level", LEVELS)
def test_domains_are_balanced(level):
    primaries = [t.meta["primary_domain"] for t in SUITE if t.level == level]
    counts = {d: primaries.count(d) for d in DOMAINS if d != "General"}
    assert min(counts.values()) >= 18, counts
    assert TABLE[level]["General"] >= 50  # General is glue in most tasks


@pytest.mark.parametrize("task", SUITE, ids=lambda t: t.id)
def test_every_task_validates(task, corpus, world):
    assert validate_task(task, corpus, world) == []



def test_every_task_reads_and_acts(corpus):
    for task in SUITE:
        cats = [corpus[c.tool].category for c in task.default_path.calls]
        assert cats[0] == "Source" or "Source" in cats, task.id
        assert cats[-1] == "Action", task.id


def test_no_query_leaks_a_tool_name_and_every_literal_is_stated():
    names = {n for t in SUITE for n in t.tools}
    for task in SUITE:
        for name in names:
            assert name not in task.query, (task.id, name)
        for e in task.entities:
            from toolmaze_gym.tasks.queries import literal_text

            assert literal_text(e["value"]).lower() in task.query.lower(), (task.id, e)


def test_distractors_are_not_alternatives(corpus):
    for task in SUITE:
        extra = set(task.tools) - set(task.task_tools)
        assert 3 <= len(extra) <= 5, task.id
        peers = {m for t in task.task_tools for g in corpus.groups_of[t] for m in g.tools}
        assert not extra & peers, task.id


def test_tasks_round_trip_through_json():
    from toolmaze_gym.tasks.model import Task

    for task in itertools.islice(SUITE, 0, 400, 37):
        assert Task.from_json(task.to_json()).to_json() == task.to_json()


def test_manifest_names_seed_generator_and_checksums():
    m = manifest(V1_NAME)
    assert m["seed"] == 20260501 and m["per_level"] == 100 and m["generator"]
    assert set(m["files"]) == {"C1.jsonl", "C2.jsonl", "C3.jsonl", "C4.jsonl", "profiles.jsonl"}


def test_simulator_fixture_is_the_default_world(sim: Simulator):
    assert sim.world.seed == 0
