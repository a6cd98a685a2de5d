"""Building hand-written trajectories against real suite tasks.

A trajectory is made by sending raw actions through an ``Episode`` (the engine
fires the shipped faults exactly as for any agent), so every step carries the
observation and fault record a real run would; some tests then edit a Step by
hand. Tasks are picked by level and by the structure a rule needs, not by id, from
``PINNED`` (toolmaze-v3, load only: its tasks never change, so a rebuild of the
default suite cannot take away the structure a test was written against).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

from toolmaze_gym.agents.scripted import call_text
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Episode, Step
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.grading import Grade, grade
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.model import Call, SolutionPath, Task
from toolmaze_gym.tasks.suite import SUITE_NAME, V3_NAME, get_task, load_suite, suite_of

FINISH = json.dumps({"name": "finish", "arguments": {"answer": "Done: every step succeeded."}})
ABORT = json.dumps({"name": "abort", "arguments": {"reason": "The tool is gone for good."}})


@cache
def simulator() -> Simulator:
    return Simulator()


PINNED = V3_NAME  # the suite the hand-written trajectories pick their tasks from


@cache
def suite() -> tuple[Task, ...]:
    return tuple(load_suite(PINNED))


def profile(task: Task, mode: str):
    """The shipped profile of a task, from the suite its id names (v1 to v3), else
    from the default suite."""
    found = shipped_profiles(suite_of(task.id) or SUITE_NAME).get((task.id, mode))
    if found is None:
        raise KeyError(f"no shipped profile for {task.id} {mode}")
    return found


def call(c: Call, **override: Any) -> str:
    return call_text(c.tool, {**c.args, **override})


def tasks(level: str, where: Callable[[Task], bool] = lambda t: True,
          name: str = PINNED) -> Iterable[Task]:
    return (t for t in load_suite(name, [level]) if where(t))


def victim_index(task: Task, mode: str, path: SolutionPath | None = None) -> int:
    """Position in ``path`` (default s*) of the first call the fault lands on."""
    path = path or task.default_path
    tools = {t for v in profile(task, mode).victims for t in v.tools}
    return next(k for k, c in enumerate(path.calls) if c.tool in tools)


def play(task: Task, mode: str, actions: Sequence[str], max_steps: int = 25) -> Episode:
    ep = Episode(task, mode, simulator(), profile(task, mode), max_steps)
    for a in actions:
        if ep.done:
            raise AssertionError("the episode ended before the script did")
        ep.step(a)
    return ep


def graded(ep: Episode) -> Grade:
    return grade(ep.task, ep.profile, ep.steps, ep.truncated, simulator())


def regrade(task: Task, mode: str, steps: Sequence[Step], truncated: bool = False) -> Grade:
    return grade(task, profile(task, mode), steps, truncated, simulator())


def statuses(ep: Episode) -> list[int | None]:
    return [s.status for s in ep.steps]


def played(task_id: str, mode: str, lines: Sequence[str]) -> dict[str, Any]:
    """The grade of ``lines`` played through ``toolmaze play`` as a user types them;
    ``{last.FIELD}`` in a line is the previous response's field (a draft's id)."""
    s = PlaySession(get_task(task_id), mode, prompt="failure_aware")
    for line in lines:
        if "{last." in line:
            last = json.loads(s.steps[-1].observation)
            line = re.sub(r"\{last\.(\w+)\}", lambda m, r=last: str(r[m.group(1)]), line)
        s.handle(line)
    return s.env.record()["grade"]
