"""The suite registry: v15 is the default everywhere; v1 to v14 stay loadable by name (and by
their ids), only v1 still generates tasks of its kind, and v2 to v6 are refused for
building or generating."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from toolmaze_gym.cli import build_parser
from toolmaze_gym.faults.store import profile_for, shipped_profiles
from toolmaze_gym.runner import Selection
from toolmaze_gym.tasks import suite_v2, suites
from toolmaze_gym.tasks.suite import (
    SUITE_NAME,
    SuiteError,
    get_task,
    load_suite,
    manifest,
    suite_of,
)


def test_the_default_suite_is_v15():
    assert SUITE_NAME == "toolmaze-v15" == suite_v2.SUITE_NAME == suites.names()[0]
    assert suite_v2.ID_PREFIX == "tmz-v15"
    assert {t.id.rsplit("-", 2)[0] + "-" for t in load_suite()} == {f"{suite_v2.ID_PREFIX}-"}
    assert manifest()["seed"] == suite_v2.SUITE_SEED
    assert manifest()["name"] == SUITE_NAME


def test_every_command_and_the_runner_default_to_v15():
    parser = build_parser()
    args = {"generate": ["--out", "x"], "build-suite": ["--out", "x"], "stats": [],
            "baselines": []}
    for command, rest in args.items():
        ns = parser.parse_args([command, *rest])
        assert (getattr(ns, "suite", None) or ns.tasks) == SUITE_NAME, command
    assert Selection().suite == SUITE_NAME
    # show and play: the suite the task id names, else the default suite (at run time:
    # tests/tasks/test_cli.py, tests/test_cli_play.py)
    assert parser.parse_args(["show", f"{suite_v2.ID_PREFIX}-c1-0000"]).suite is None
    # grade: a run's own tasks.jsonl where it kept one, else the default suite (at run
    # time: tests/test_cli_grade_run_tasks.py)
    assert parser.parse_args(["grade", "run.jsonl"]).tasks is None


def test_v1_still_loads_by_name_with_its_profiles(sim):
    tasks = load_suite("toolmaze-v1")
    assert len(tasks) == 400 and tasks[0].id == "tmz-v1-c1-0000"
    assert get_task("tmz-v1-c2-0004", "toolmaze-v1").level == "C2"
    # an id finds its own suite by itself; a suite named explicitly is searched alone
    assert suite_of("tmz-v1-c2-0004") == "toolmaze-v1"
    assert get_task("tmz-v1-c2-0004") == get_task("tmz-v1-c2-0004", "toolmaze-v1")
    with pytest.raises(SuiteError, match=f"no task 'tmz-v1-c2-0004' in {SUITE_NAME}"):
        get_task("tmz-v1-c2-0004", SUITE_NAME)
    for name in (*(f"toolmaze-v{k}" for k in range(1, 9)), SUITE_NAME):
        task = load_suite(name, ["C3"])[0]
        assert profile_for(task, "P4", sim, name) == shipped_profiles(name)[(task.id, "P4")]


@pytest.mark.parametrize("name", ["toolmaze-v2", "toolmaze-v3", "toolmaze-v4", "toolmaze-v5",
                                  "toolmaze-v6", "toolmaze-v7", "toolmaze-v8",
                                  "toolmaze-v9", "toolmaze-v10", "toolmaze-v11",
                                  "toolmaze-v12", "toolmaze-v13", "toolmaze-v14"])
def test_an_old_library_suite_still_loads_by_name_and_id_but_is_kept_for_old_runs_only(name):
    tasks = load_suite(name)
    old = name.replace("toolmaze-", "tmz-")
    assert len(tasks) == 400 and tasks[0].id == f"{old}-c1-0000"
    assert suite_of(f"{old}-c2-0004") == name
    assert get_task(f"{old}-c2-0004", name).level == "C2"
    assert get_task(f"{old}-c2-0004") == get_task(f"{old}-c2-0004", name)  # by its id alone
    assert manifest(name)["name"] == name
    assert name not in suites.names() and name in suites.LOAD_ONLY
    refused = f"{name} is kept for loading old runs only .*; build or generate with {SUITE_NAME}$"
    with pytest.raises(SuiteError, match=refused):
        suites.kind(name)
    with pytest.raises(SuiteError, match=refused):
        next(iter(suites.generate_split("train", 1, suite=name)))


def test_an_id_of_no_shipped_suite_is_looked_up_in_the_default_suite():
    assert suite_of("tmz-v16-c2-0004") is None and suite_of("tmz-v2-train0-c1-0000") is None
    with pytest.raises(SuiteError, match=f"no task 'tmz-v16-c2-0004' in {SUITE_NAME}$"):
        get_task("tmz-v16-c2-0004")


def test_only_the_default_suite_is_rebuildable():
    assert [n for n in suites.names() if suites.kind(n).rebuildable] == [SUITE_NAME]
    assert suites.kind("toolmaze-v1").rebuildable is False


def test_each_suite_generates_its_own_kind_disjoint_from_itself():
    for name, scenario in ((SUITE_NAME, True), ("toolmaze-v1", False)):
        tasks = list(suites.generate_split("train", 2, seed=9, suite=name))
        assert [bool(t.meta.get("scenario")) for t in tasks] == [scenario] * 2, name
        assert not {t.meta["signature"] for t in tasks} & \
            {t.meta["signature"] for t in load_suite(name)}


def test_procedural_task_depends_on_the_index_alone():
    spec = suites.kind()
    skip = frozenset(t.meta["signature"] for t in load_suite())
    a, b = (spec.procedural_task("C1", 17, "dev", skip=skip) for _ in range(2))
    assert a.to_json() == b.to_json() and a.meta["signature"] not in skip


def test_unknown_suite_names_are_refused_with_the_choices():
    with pytest.raises(SuiteError, match="no generator for suite 'v9'; choose from "
                                         f"{SUITE_NAME}, toolmaze-v1$"):
        suites.kind("v9")
    with pytest.raises(SuiteError):
        next(itertools.islice(suites.generate_split("train", 1, suite="v9"), 1))


def test_every_shipped_suite_names_its_world_edition():
    """An old suite plays on the world it was built and played on (edition 1: v1-v4,
    2: v5, 3: v6, 4: v7, 5: v8, 6: v9, 7: v10, 8: v11, 9: v12 and v13, 10: v14 and v15,
    the default); a task of no shipped suite on the latest (10, the world the default suite was
    built on)."""
    from toolmaze_gym.tasks.suite import shipped_suites
    from toolmaze_gym.world.edition import LATEST

    assert set(shipped_suites()) <= set(suites.EDITIONS)
    assert suites.EDITIONS[SUITE_NAME] == 10 == LATEST == suites.EDITIONS["toolmaze-v14"]
    assert suites.EDITIONS["toolmaze-v13"] == suites.EDITIONS["toolmaze-v12"] == 9
    assert suites.EDITIONS["toolmaze-v11"] == 8
    assert suites.EDITIONS["toolmaze-v10"] == 7
    assert suites.EDITIONS["toolmaze-v9"] == 6
    assert suites.EDITIONS["toolmaze-v8"] == 5
    assert suites.EDITIONS["toolmaze-v7"] == 4
    assert suites.EDITIONS["toolmaze-v6"] == 3
    assert {suites.EDITIONS[f"toolmaze-v{n}"] for n in range(1, 5)} == {1}
    assert suites.EDITIONS["toolmaze-v5"] == 2
    old = get_task("tmz-v4-c4-0043")
    assert suites.edition_of(old) == 1
    assert suites.edition_of(dataclasses.replace(old, id="my-c4-0043")) == LATEST
    # an id of a shipped suite on another task (a custom file reusing it): not that suite's
    other = dataclasses.replace(old, meta={**old.meta, "signature": "changed"})
    assert suites.edition_of(other) == LATEST
