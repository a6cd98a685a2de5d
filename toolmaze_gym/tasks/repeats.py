"""Tasks of one level that are the same request with other names.

Two tasks from one scenario and one phrasing differ only in the literals drawn
into the phrasing's placeholders (another city, another person, another order):
a reader sees one request twice, and the level measures one thing twice. The
suite builder takes each (scenario, phrasing) at most once per level
(``suite_v2.LevelBuilder``); this module finds the pairs in built tasks. Two
scenarios with the same steps bound the same way (ids and param names aside) are
one request written twice, which the per-scenario rule cannot see: the library
refuses them (``same_scenarios``).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import TYPE_CHECKING

from toolmaze_gym.tasks.model import Task

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

Request = tuple[str, str, int]  # level, scenario, phrasing


def request_of(task: Task) -> Request | None:
    """The request a task is an instance of, or None for a task not built from a
    scenario (v1's assembled tasks carry no phrasing)."""
    sc, phr = task.meta.get("scenario"), task.meta.get("phrasing")
    if sc is None or phr is None:
        return None
    return task.level, str(sc), int(phr)


def repeats(tasks: Iterable[Task]) -> list[tuple[str, str]]:
    """Pairs of task ids (in the order given) of one level that are one request
    with other names."""
    by_request: dict[Request, list[str]] = {}
    for t in tasks:
        req = request_of(t)
        if req is not None:
            by_request.setdefault(req, []).append(t.id)
    return [pair for ids in by_request.values() for pair in combinations(ids, 2)]


def shape(sc: Scenario) -> tuple:
    """What a scenario asks, names aside: each step's capability and how each of its
    arguments is bound (a parameter or an earlier step's field); free texts are the
    wording of a report (a push with a title or without one asks the same)."""
    return tuple(sorted((st.use, tuple(sorted((a.role, a.kind) for a in st.args
                                              if a.kind != "text")))
                        for st in sc.steps))


def same_scenarios(scenarios: Iterable[Scenario]) -> list[tuple[str, str]]:
    """Pairs of scenario ids (in the order given) that are one request written twice."""
    by_shape: dict[tuple, list[str]] = {}
    for sc in scenarios:
        by_shape.setdefault(shape(sc), []).append(sc.id)
    return [pair for ids in by_shape.values() for pair in combinations(ids, 2)]
