"""toolmaze-v2: built from the scenario library, solvable, reproducible, disjoint splits."""

from __future__ import annotations

from importlib import resources

import pytest

from toolmaze_gym.cli_scenarios import profiles_buildable
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults.store import profile_lines
from toolmaze_gym.tasks import suite_v2
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.solvability import solvability_problems
from toolmaze_gym.tasks.stats import table1
from toolmaze_gym.tasks.suite import load_suite, manifest, suite_signatures

NAME = suite_v2.SUITE_NAME
SUITE = load_suite(NAME)
TABLE = table1(SUITE)
RANGES = {"C1": (5, 7), "C2": (5, 9), "C3": (6, 10), "C4": (8, 15)}
MEANS = {"C1": 5.30, "C2": 5.75, "C3": 6.66, "C4": 11.0}
PATHS = {"C1": 100, "C2": 200, "C3": 200, "C4": 600}


def test_hundred_tasks_per_level_each_from_a_scenario():
    assert [sum(t.level == lv for t in SUITE) for lv in LEVELS] == [100] * 4
    assert len({t.id for t in SUITE}) == 400
    ids = {s.id for s in load_library()}
    assert all(t.meta["scenario"] in ids and t.meta["goal"] for t in SUITE)


def test_every_suite_task_is_solvable_from_what_the_agent_sees(corpus):
    bad = {t.id: p for t in SUITE if (p := solvability_problems(t, corpus))}
    assert not bad, next(iter(bad.items()))


def test_every_suite_task_passes_the_generator_checks(sim):
    gen = ScenarioGenerator(sim)
    lib = {s.id: s for s in load_library()}
    bad = {t.id: p for t in SUITE if (p := gen.problems(t, lib[t.meta["scenario"]]))}
    assert not bad, next(iter(bad.items()))


@pytest.mark.parametrize("level", LEVELS)
def test_lengths_stay_in_the_paper_ranges(level):
    lengths = [t.default_path.length for t in SUITE if t.level == level]
    lo, hi = RANGES[level]
    assert lo <= min(lengths) and max(lengths) <= hi


@pytest.mark.parametrize("level", ["C1", "C2", "C3"])
def test_table1_holds_for_c1_to_c3(level):
    row = TABLE[level]
    assert abs(row["avg_length"] - MEANS[level]) <= 0.25
    assert abs(row["valid_paths"] - PATHS[level]) <= 0.15 * PATHS[level]
    assert row["mean_jaccard"] <= 0.06
    if level == "C1":
        assert all(len(t.solutions) == 1 for t in SUITE if t.level == "C1")


def test_c4_diversity_holds_and_length_does_not_regress():
    # C4 tasks are not yet as long as the paper's (mean 11.0 calls): the library has
    # too few long C4 goals. Guard the current length until it has them.
    row = TABLE["C4"]
    assert row["mean_jaccard"] <= 0.06
    assert row["min_length"] >= 8 and row["max_length"] <= 15 and row["avg_length"] >= 9.5
    assert abs(row["valid_paths"] - PATHS["C4"]) <= 0.15 * PATHS["C4"]


def test_suite_regenerates_bit_identically(tmp_path):
    sim = Simulator()
    built = suite_v2.build_suite(tmp_path / NAME, profiles=lambda ts: profile_lines(ts, sim),
                                 check=profiles_buildable, jobs=2)
    shipped = manifest(NAME)
    assert built["scenarios"] == shipped["scenarios"], "scenario files changed: rebuild"
    root = resources.files("toolmaze_gym") / "data" / "suites" / NAME
    for name in shipped["files"]:
        assert (tmp_path / NAME / name).read_bytes() == (root / name).read_bytes(), name


def test_train_and_dev_are_solvable_and_never_overlap_the_suite_or_each_other(corpus):
    suite = suite_signatures(NAME)
    train = list(suite_v2.generate_split("train", 24, seed=0))
    dev = list(suite_v2.generate_split("dev", 24, seed=0))
    sig_train = {t.meta["signature"] for t in train}
    sig_dev = {t.meta["signature"] for t in dev}
    assert len(sig_train) == 24 and {t.level for t in train} == set(LEVELS)
    assert not sig_train & suite and not sig_dev & suite and not sig_train & sig_dev
    assert all(solvability_problems(t, corpus) == [] for t in train + dev)


def test_a_procedural_task_is_fixed_by_its_index(corpus):
    a = suite_v2.procedural_task("C3", 77, "train")
    b = suite_v2.procedural_task("C3", 77, "train")
    c = suite_v2.procedural_task("C3", 78, "train")
    assert a.to_json() == b.to_json() and a.to_json() != c.to_json()
    assert a.level == "C3" and solvability_problems(a, corpus) == []
