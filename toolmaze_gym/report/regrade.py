"""Grades derived again from the trajectories: a stored grade is a cache, checked and
never trusted.

Why: a record's grade was written by whatever code ran the episode. A later grader
(``GRADING_VERSION``) or a hand edit makes it disagree with what the steps show, and
tables built on stored grades printed such numbers as fact (hand-edited grades gave a
TSR of 100). Re-grading costs about 2 ms a record (a full 2,000-episode suite run in
about 4 s, against hours to produce a model's run), so ``report`` and ``grade`` always
derive the grade from the steps and use the stored one only to say how many records
disagreed, and under which versions they were stored. No opt-out: a faster path that
trusted the cache would bring the hand-edited numbers back.

The steps themselves are checked too (``replay``): each record's actions are replayed
against its task and mode, and a record whose statuses, fault events or responses the
replay does not give back (relabelled, edited, or from another simulator) is scored a
failure in every measure (not success, and exposed without recovery in a fault mode):
left in, it could only lower a figure, and leaving it out would let an edit drop a
failure. The output counts such records and names the first few.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym.report.records import Located
from toolmaze_gym.report.replay import replay_mismatch
from toolmaze_gym.runner import RunError
from toolmaze_gym.tasks.model import Task

# A record's task, and the suite whose shipped fault profile it plays (None: built from
# the task and mode, as the env does for a task file); LookupError(message) if unknown.
TaskFinder = Callable[[dict[str, Any]], tuple[Task, str | None]]
NAMED = 3  # records that disagree with their replay named in the output, at most


@dataclass
class Regraded:
    """What re-grading found, for the report's header and the command's last line."""

    records: list[dict[str, Any]] = field(default_factory=list)
    stored: int = 0  # records that came with a grade
    disagreed: int = 0  # stored grades that differ from the trajectory's grade
    versions: Counter = field(default_factory=Counter)  # other stored versions → records
    # (where, what differs) of each record whose steps its replay does not give back
    unreplayable: list[tuple[str, str]] = field(default_factory=list)

    @property
    def missing(self) -> int:
        return len(self.records) - self.stored

    def said(self) -> str:
        """``"N of M stored grades disagreed with the trajectories"`` and the details."""
        parts = [f"{self.disagreed} of {self.stored} stored grades disagreed with the "
                 "trajectories"]
        parts += [f"{k} {'was' if k == 1 else 'were'} stored under grading version {v}"
                  for v, k in sorted(self.versions.items())]
        if self.missing:
            parts.append(f"{self.missing} had no stored grade")
        return "; ".join(parts)

    def replay_said(self) -> str:
        """``"N of M records disagreed with a replay of their actions"``, naming the
        first few and what differed."""
        n = len(self.unreplayable)
        text = f"{n} of {len(self.records)} records disagreed with a replay of their " \
               "actions against their task and mode"
        if not n:
            return text
        named = ", ".join(f"{where}: {what}" for where, what in self.unreplayable[:NAMED])
        more = f", and {n - NAMED} more" if n > NAMED else ""
        return f"{text}, scored as failures ({named}{more})"

    def lines(self) -> list[str]:
        """Markdown lines for a report's header."""
        from toolmaze_gym.grading import GRADING_VERSION

        warn = "**Warning:** " if self.disagreed else ""
        replay_warn = "**Warning:** " if self.unreplayable else ""
        return ["", f"Grades re-derived from the trajectories under grading version "
                f"{GRADING_VERSION} (docs/grading.md); the figures use them.",
                f"{replay_warn}{self.replay_said()}.", f"{warn}{self.said()}."]


def _fresh_grade(rec: dict[str, Any], task: Task, suite: str | None, sim: Any,
                 where: str) -> dict[str, Any]:
    """The record's mode and grade derived from its steps, and (``replay``) what a
    replay of its actions found different, if anything."""
    from toolmaze_gym.episode import Step
    from toolmaze_gym.faults import get_mode
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.grading import grade

    try:
        mode = get_mode(str(rec["mode"])).name
        steps = [Step.from_dict(s) for s in rec["steps"]]
        if any(not isinstance(s.action, dict) or "kind" not in s.action for s in steps):
            raise ValueError("a step has no parsed action")
    except KeyError as exc:
        raise RunError(f"{where}: malformed record (a step lacks the field "
                       f"{exc.args[0]})") from None
    except (ValueError, TypeError, AttributeError) as exc:
        raise RunError(f"{where}: malformed record ({exc})") from None
    profile = profile_for(task, mode, sim) if suite is None else \
        profile_for(task, mode, sim, suite)
    try:
        g = grade(task, profile, steps, bool(rec.get("truncated")), corpus=sim.corpus)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        # the steps have the env's shape (checked on reading) but hold values the env
        # never writes, e.g. a fault event without its victim: a hand-edited record
        raise RunError(f"{where}: malformed record (its steps cannot be graded: "
                       f"{type(exc).__name__} {exc})") from None
    fresh = {"mode": mode, "grade": g.to_dict()}
    problem = replay_mismatch(task, profile, rec["steps"], sim)
    return fresh if problem is None else {**fresh, "replay": problem}


def _failed(grade: dict[str, Any], mode: str) -> dict[str, Any]:
    """``grade`` at its worst in every measure: not a success, and in a fault mode
    exposed, not recovered, at full recovery cost."""
    from toolmaze_gym.faults import get_mode

    faulty = get_mode(mode).faulty
    return {**grade, "success": False, "exposed": faulty, "recovered": False,
            "c_rec": 1.0 if faulty else grade["c_rec"]}


def _same(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Equal grades, whatever version each names."""
    return {k: v for k, v in old.items() if k != "version"} == \
        {k: v for k, v in new.items() if k != "version"}


def regrade(records: Iterable[Located], find: TaskFinder, sim: Any = None,
            into: Regraded | None = None) -> Regraded:
    """Each record with its grade derived again from its steps (and its level and mode
    from its task), and how the stored grades compared; ``into`` adds them to an
    earlier result (several sources, one count)."""
    from toolmaze_gym.corpus import Simulator
    from toolmaze_gym.grading import GRADING_VERSION

    sim = sim or Simulator()
    out = into if into is not None else Regraded()
    for where, rec in records:
        try:
            task, suite = find(rec)
        except LookupError as exc:
            raise RunError(f"{where}: {exc.args[0]}") from None
        fresh = _fresh_grade(rec, task, suite, sim, where)
        old = rec.get("grade")
        if old is not None:
            out.stored += 1
            out.disagreed += not _same(old, fresh["grade"])
            version = str(rec.get("grading_version") or old.get("version") or "?")
            if version != GRADING_VERSION:
                out.versions[version] += 1
        if "replay" in fresh:
            out.unreplayable.append((where, fresh["replay"]))
            fresh["grade"] = _failed(fresh["grade"], fresh["mode"])
        stale = {k: v for k, v in rec.items() if k != "replay"}  # an earlier finding
        out.records.append({**stale, **fresh, "level": task.level,
                            "grading_version": GRADING_VERSION})
    return out
