"""No two tasks of a level are the same request with other names."""

from __future__ import annotations

from dataclasses import replace

import pytest

from toolmaze_gym.tasks import suite_v2
from toolmaze_gym.tasks.repeats import repeats, request_of, same_scenarios
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import SuiteError, get_task

SCENARIO = "tr-car-share-request"  # three phrasings; v3 repeated one at C1 (0012, 0038, 0093)


def _v3(level: str) -> list:
    return [get_task(f"tmz-v3-{level}-{k:04d}") for k in range(100)]


def test_v3s_requests_with_other_names_are_found():
    """The counter-examples: one scenario and phrasing, two tasks of a level."""
    c1 = repeats(_v3("c1"))
    assert ("tmz-v3-c1-0012", "tmz-v3-c1-0038") in c1
    assert ("tmz-v3-c1-0038", "tmz-v3-c1-0093") in c1
    assert ("tmz-v3-c4-0003", "tmz-v3-c4-0052") in repeats(_v3("c4"))
    a, b = get_task("tmz-v3-c4-0003"), get_task("tmz-v3-c4-0052")
    assert request_of(a) == request_of(b) and a.query != b.query


def test_one_phrasing_in_two_levels_is_no_repeat():
    a, b = get_task("tmz-v3-c1-0012"), get_task("tmz-v3-c3-0007")
    assert request_of(a)[1] == request_of(b)[1] == SCENARIO
    assert repeats([a, b]) == []


def _builder(distinct: bool) -> suite_v2.LevelBuilder:
    library = [sc for sc in load_library() if sc.id == SCENARIO]
    return suite_v2.LevelBuilder("C1", 7, library, distinct=distinct)


def test_the_builder_takes_each_phrasing_once_per_level_then_stops():
    sc = next(sc for sc in load_library() if sc.id == SCENARIO)
    builder, seen = _builder(True), set()
    tasks = [builder.task(k, f"t{k}", seen) for k in range(len(sc.phrasings))]
    assert repeats(tasks) == []
    assert sorted(t.meta["phrasing"] for t in tasks) == list(range(len(sc.phrasings)))
    with pytest.raises(SuiteError):
        builder.task(len(tasks), "one-too-many", seen)


def test_without_the_rule_the_builder_repeats_a_request():
    """The check is not vacuous: procedural splits (distinct=False) do repeat."""
    builder, seen = _builder(False), set()
    tasks = [builder.task(k, f"t{k}", seen) for k in range(4)]
    assert repeats(tasks)


def test_one_request_written_as_two_scenarios_is_refused(tmp_path):
    """v3's c1-0056 and c1-0079 came from two scenarios with the same steps bound the
    same way (sh-swap-order-for-another, us-cancel-order-and-buy-alternative): the
    library now has one, with the other's phrasings, and refuses a renamed copy."""
    lib = load_library()
    assert same_scenarios(lib) == []
    a, b = get_task("tmz-v3-c1-0056"), get_task("tmz-v3-c1-0079")
    assert {a.meta["scenario"], b.meta["scenario"]} == {
        "sh-swap-order-for-another", "us-cancel-order-and-buy-alternative"}
    assert "us-cancel-order-and-buy-alternative" not in {sc.id for sc in lib}
    swap = next(sc for sc in lib if sc.id == "sh-swap-order-for-another")
    assert len(swap.phrasings) == 6
    push = swap.steps[-1]
    untitled = replace(push, id="tell", args=tuple(x for x in push.args if x.role != "title"))
    copy = replace(swap, id="copy", steps=(*swap.steps[:-1], untitled))
    assert same_scenarios([*lib, copy]) == [("sh-swap-order-for-another", "copy")]
    other = replace(copy, steps=copy.steps[1:])  # no cancellation: another request
    assert same_scenarios([*lib, other]) == []
