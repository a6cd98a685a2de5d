"""Which code builds each reference suite: one entry per suite name.

Every command, the env and the training data ask this registry for a suite's
builder, procedural split generator and per-task generator instead of testing
suite names. ``SUITE_NAME`` (the default everywhere) is ``toolmaze-v15``, built from
the reworked scenario library (issue 28). ``toolmaze-v2`` to
``toolmaze-v14`` (the same builder before the world, the asks, the fault rules and
then the library changed) are kept for loading old runs only, as shipped; ``toolmaze-v1`` still
generates procedural tasks of its kind, but none of them rebuilds bit for bit any
more (``build-suite`` says so).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolmaze_gym.tasks import suite as v1
from toolmaze_gym.tasks import suite_v2 as v2
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suite import SUITE_NAME, SuiteError, suite_of, task_index
from toolmaze_gym.world.edition import LATEST

if TYPE_CHECKING:
    from toolmaze_gym.corpus.simulator import Simulator


@dataclass(frozen=True)
class SuiteKind:
    """A reference suite's name, reference parameters and generators.

    ``build(out_dir, seed, per_level, on_task, jobs, profiles, check)`` writes tasks,
    profiles and manifest; ``generate_split(split, n, seed, levels, exclude_tools,
    exclude_domains, check)`` yields procedural tasks disjoint from the suite;
    ``procedural_task(level, index, split, sim, skip, check=...)`` is the one task an
    env's ``reset(seed)`` plays. ``check`` is an extra acceptance test per task (the
    fault engine's ``profiles_buildable``: tasks never import faults themselves).
    """

    name: str
    seed: int
    per_level: int
    build: Callable[..., dict]
    generate_split: Callable[..., Iterator[Task]]
    procedural_task: Callable[..., Task]
    # Whether ``build`` still reproduces the shipped files: a suite built under older
    # world and fault rules can be loaded and drawn from, not rebuilt bit for bit.
    rebuildable: bool = True


LOAD_ONLY = {"toolmaze-v2": "kept for loading old runs only (its builder became "
                            "toolmaze-v3's when the world, asks and fault rules changed)",
             "toolmaze-v3": "kept for loading old runs only (its builder became "
                            "toolmaze-v4's when the scenario library was reworked, issue 28)",
             "toolmaze-v4": "kept for loading old runs only (its builder became "
                            "toolmaze-v5's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v5": "kept for loading old runs only (its builder became "
                            "toolmaze-v6's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v6": "kept for loading old runs only (its builder became "
                            "toolmaze-v7's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v7": "kept for loading old runs only (its builder became "
                            "toolmaze-v8's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v8": "kept for loading old runs only (its builder became "
                            "toolmaze-v9's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v9": "kept for loading old runs only (its builder became "
                            "toolmaze-v10's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v10": "kept for loading old runs only (its builder became "
                            "toolmaze-v11's when its review's and play-tests' findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v11": "kept for loading old runs only (its builder became "
                            "toolmaze-v12's when its review's and play-test's findings "
                            "were fixed in the library, issue 28)",
             "toolmaze-v12": "kept for loading old runs only (its builder became "
                            "toolmaze-v13's when its review's findings were fixed in "
                            "the library, issue 28)",
             "toolmaze-v13": "kept for loading old runs only (its builder became "
                            "toolmaze-v14's when its review's and a sweep's findings "
                            "were fixed in the library and the world, issue 28)",
             "toolmaze-v14": "kept for loading old runs only (its builder became "
                            "toolmaze-v15's when its review's open conventions were "
                            "fixed in the library, issue 28)"}

KINDS: dict[str, SuiteKind] = {k.name: k for k in (
    SuiteKind(v2.SUITE_NAME, v2.SUITE_SEED, v2.PER_LEVEL, v2.build_suite, v2.generate_split,
              v2.procedural_task),
    SuiteKind(v1.V1_NAME, v1.SUITE_SEED, v1.PER_LEVEL, v1.build_suite, v1.generate_split,
              v1.procedural_task, rebuildable=False),
)}
assert SUITE_NAME in KINDS, "the default suite must have a builder"


# The world edition each shipped suite was built and played on
# (``toolmaze_gym.world.edition``): its tasks' tools answer as they did then, so its
# played episodes replay on the values their players typed.
EDITIONS: dict[str, int] = {"toolmaze-v1": 1, "toolmaze-v2": 1, "toolmaze-v3": 1,
                            "toolmaze-v4": 1, "toolmaze-v5": 2, "toolmaze-v6": 3,
                            "toolmaze-v7": 4, "toolmaze-v8": 5,
                            "toolmaze-v9": 6, "toolmaze-v10": 7,
                            "toolmaze-v11": 8, "toolmaze-v12": 9,
                            "toolmaze-v13": 9, "toolmaze-v14": 10,
                            "toolmaze-v15": 10}


def edition_of(task: Task) -> int:
    """The world edition ``task`` plays on: its shipped suite's (``EDITIONS``) when its
    id names one and it is that suite's task (same signature), else the latest (a
    procedural, dev or custom task is built on today's world)."""
    suite = suite_of(task.id)
    if suite is None:
        return LATEST
    try:
        shipped = task_index(suite).get(task.id)
    except (SuiteError, FileNotFoundError):
        return LATEST
    if shipped is None or shipped.meta.get("signature") != task.meta.get("signature"):
        return LATEST
    return EDITIONS.get(suite, LATEST)


def task_simulator(task: Task, sim: Simulator) -> Simulator:
    """``sim`` as ``task`` is played, graded and shown on: its sibling over the same
    corpus whose world is the task's edition (``edition_of``; the same ``sim`` when
    its world already is)."""
    return sim.at_edition(edition_of(task))


def names() -> list[str]:
    """Suites that can be built and drawn from, the default first."""
    return list(KINDS)


def kind(name: str = SUITE_NAME) -> SuiteKind:
    """The builders of suite ``name``; a clear error for any other name."""
    if name in LOAD_ONLY:
        raise SuiteError(f"{name} is {LOAD_ONLY[name]}; build or generate with "
                         f"{SUITE_NAME}")
    try:
        return KINDS[name]
    except KeyError:
        raise SuiteError(f"no generator for suite {name!r}; choose from "
                         f"{', '.join(KINDS)}") from None


def generate_split(split: str, n: int, seed: int = 0, levels: Iterable[str] = LEVELS,
                   exclude_tools: Iterable[str] = (), exclude_domains: Iterable[str] = (),
                   suite: str = SUITE_NAME,
                   check: Callable[[Task], list[str]] | None = None) -> Iterator[Task]:
    """``n`` procedural tasks of ``suite``'s kind (default v6), disjoint from it.

    Pass ``check=faults.store.profiles_buildable`` for tasks that will be played
    in fault modes: without it a v6 task may have no node an implicit fault can
    fall on, or a victim with no alternative.
    """
    return kind(suite).generate_split(split, n, seed, levels, exclude_tools, exclude_domains,
                                      check)
