"""Trajectory → grade: the one code path for metrics and rewards (DESIGN.md §6).

success   a valid path of S completed (calls with matching arguments, after their
          inputs existed, with clean responses), no harmful Action (one that is
          not an expected call: wrong or corrupted arguments, unrequested,
          duplicated), and the agent ended the episode itself. Where the fault
          leaves no valid path (no alternative under a permanent fault), success
          is graceful termination: exposed, no later call downstream of the
          victim, then ``abort`` or a final answer.
exposed   a fault fired.
recovered (exposed only) every fired victim's slot was completed cleanly after
          the fault (a retry or an alternative) and no corrupted value reached a
          later call; without an alternative, graceful termination.
c, c*     steps after the first perturbed response (the final step counts) and
          the fewest possible from there under the same fault rules.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx

from toolmaze_gym import values
from toolmaze_gym.corpus import Corpus, Simulator
from toolmaze_gym.episode import Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.tasks.enumeration import min_remaining_calls
from toolmaze_gym.tasks.model import Call, SolutionPath, Task

GRADING_VERSION = "1"


@dataclass
class Grade:
    success: bool
    exposed: bool
    recovered: bool | None
    c: int
    c_star: int
    c_rec: float
    labels: list[str] = field(default_factory=list)
    ended_by: str = ""
    path: list[int] | None = None  # the completed solution's choice
    harmful: list[int] = field(default_factory=list)  # step indices
    version: str = GRADING_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------- argument matching


def _same(type_name: str, a: Any, b: Any) -> bool:
    return values.get(type_name).same(a, b)


def matches(corpus: Corpus, call: Call, step: Step) -> bool:
    """Whether ``step`` is ``call``: same tool, equal arguments, nothing else changed."""
    act = step.action
    if act.get("name") != call.tool or not isinstance(act.get("arguments"), dict):
        return False
    spec = corpus[call.tool]
    sent = act["arguments"]
    for p in spec.params:
        if p.name in call.args:
            if p.name not in sent or not _same(p.type, sent[p.name], call.args[p.name]):
                return False
        elif p.name in sent and sent[p.name] != p.default:
            return False
    return set(sent) <= {p.name for p in spec.params}


# ---------------------------------------------------------------- paths


def _deps(task: Task, path: SolutionPath) -> list[list[int]]:
    """For each call of ``path``: indices of calls that must come before it."""
    by_slot: dict[str, list[int]] = {}
    for k, c in enumerate(path.calls):
        by_slot.setdefault(c.slot, []).append(k)
    slots = task.slot_by_id
    deps = []
    for k, c in enumerate(path.calls):
        earlier_in_side = [j for j in by_slot[c.slot] if j < k]
        upstream = [j for u in slots[c.slot].upstream() for j in by_slot[u]]
        deps.append(earlier_in_side + upstream)
    return deps


def match_path(corpus: Corpus, task: Task, path: SolutionPath, steps: Sequence[Step],
               start: int = 0) -> list[int] | None:
    """Earliest clean step index for each call, respecting data dependencies."""
    deps = _deps(task, path)
    chosen: list[int] = []
    for k, call in enumerate(path.calls):
        after = max((chosen[j] for j in deps[k]), default=start - 1)
        idx = next((i for i in range(after + 1, len(steps))
                    if steps[i].clean_ok and matches(corpus, call, steps[i])), None)
        if idx is None:
            return None
        chosen.append(idx)
    return chosen


def _successful_actions(corpus: Corpus, steps: Sequence[Step]) -> list[int]:
    """Steps that changed the world: clean, successful Action calls."""
    return [i for i, s in enumerate(steps) if s.clean_ok and s.action.get("name") in corpus
            and corpus[s.action["name"]].category == "Action"]


# ---------------------------------------------------------------- fault analysis


def _fault_steps(steps: Sequence[Step]) -> list[int]:
    return [i for i, s in enumerate(steps) if s.fault is not None]


def _values_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.split()).lower() == " ".join(b.split()).lower()
    return False


def _leaves(obj: Any):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _leaves(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _leaves(v)
    else:
        yield obj


def propagated(steps: Sequence[Step]) -> bool:
    """Whether a corrupted value was sent in a later call's arguments (over-trust)."""
    for i, s in enumerate(steps):
        if not s.fault or not s.fault.get("corrupted"):
            continue
        bad = [(v, s.fault["clean"].get(k)) for k, v in s.fault["corrupted"].items()]
        for later in steps[i + 1:]:
            if later.kind != "call":
                continue
            for leaf in _leaves(later.action.get("arguments", {})):
                if any(_values_equal(leaf, b) and not _values_equal(leaf, c) for b, c in bad):
                    return True
    return False


def _slot_calls(task: Task, slot_id: str, side: int) -> list[Call] | None:
    for p in task.solutions:
        k = [s.id for s in task.slots].index(slot_id)
        if p.choice[k] == side:
            return [c for c in p.calls if c.slot == slot_id]
    return None


def slot_completed_after(corpus: Corpus, task: Task, slot_id: str, steps: Sequence[Step],
                         start: int) -> int | None:
    """The side of ``slot_id`` completed cleanly, in order, after step ``start``."""
    slot = task.slot_by_id[slot_id]
    for side in range(len(slot.alternatives)):
        calls = _slot_calls(task, slot_id, side) or []
        i = start
        ok = True
        for call in calls:
            i = next((j for j in range(i + 1, len(steps))
                      if steps[j].clean_ok and matches(corpus, call, steps[j])), None)
            if i is None:
                ok = False
                break
        if ok and calls:
            return side
    return None


def downstream_tools(task: Task, slot_id: str) -> set[str]:
    g = nx.DiGraph()
    g.add_nodes_from(s.id for s in task.slots)
    g.add_edges_from((u, v) for u, v, _ in task.edges())
    by_id = task.slot_by_id
    return {t for s in nx.descendants(g, slot_id) for t in by_id[s].tools}


def no_alternative(task: Task, profile: FaultProfile) -> bool:
    """A permanent fault on a slot without alternatives leaves no valid path."""
    return profile.permanent and any(
        not task.slot_by_id[v.slot].is_branch for v in profile.victims)


# ---------------------------------------------------------------- costs


def side_of(task: Task, slot_id: str, tool: str) -> set[int]:
    slot = task.slot_by_id[slot_id]
    return {k for k, side in enumerate(slot.alternatives) if tool in side}


def optimal_cost(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
                 first: int) -> int:
    """c*: the fewest steps (final one included) from after step ``first``."""
    before = steps[: first + 1]
    if no_alternative(task, profile) and any(s.fault for s in before):
        return 1
    completed = {s.id for s in task.slots
                 if slot_completed_after(corpus, task, s.id, before, -1) is not None}
    progress: dict[str, dict[int, int]] = {}
    for slot in task.slots:
        if slot.id in completed:
            continue
        for k in range(len(slot.alternatives)):
            calls = _slot_calls(task, slot.id, k) or []
            n, i = 0, -1
            for call in calls:
                i = next((j for j in range(i + 1, len(before))
                          if before[j].clean_ok and matches(corpus, call, before[j])), None)
                if i is None:
                    break
                n += 1
            progress.setdefault(slot.id, {})[k] = n
    unusable: dict[str, set[int]] = {}
    fired = {s.fault["victim"] for s in before if s.fault}
    for s in before:
        if s.fault and profile.permanent:
            unusable.setdefault(s.fault["slot"], set()).update(
                side_of(task, s.fault["slot"], s.fault["tool"]))
    rest = min_remaining_calls(task, completed, unusable, progress)
    if rest is None:
        return 1
    pending = sum(1 for k, v in enumerate(profile.victims)
                  if k not in fired and v.slot not in completed)
    return rest + pending + 1


def remaining_optimal(corpus: Corpus, task: Task, profile: FaultProfile,
                      steps: Sequence[Step]) -> int:
    """The fewest steps still needed from the current point (shaping potential)."""
    return optimal_cost(corpus, task, profile, steps, len(steps) - 1)


# ---------------------------------------------------------------- the grade


def _labels(steps: Sequence[Step], success: bool, graceful: bool, solvable: bool,
            ended: bool, switched: bool) -> list[str]:
    labels = []
    if propagated(steps):
        labels.append("over_trust")
    failing = Counter(json.dumps([s.action.get("name"), s.action.get("arguments")],
                                 sort_keys=True, default=str)
                      for s in steps if s.kind == "call" and (s.fault or (s.status or 0) >= 400))
    if failing and max(failing.values()) >= 3:
        labels.append("retry_loop")
    if ended and solvable and not success:
        labels.append("premature_give_up")
    if switched:
        labels.append("path_switch")
    if graceful:
        labels.append("graceful_stop")
    return labels


def _unexpected_actions(corpus: Corpus, task: Task, steps: Sequence[Step],
                        actions: Sequence[int]) -> list[int]:
    """Actions that match no expected call of s*, or repeat one already made."""
    expected = [c for c in task.default_path.calls if corpus[c.tool].category == "Action"]
    used: set[int] = set()
    bad = []
    for i in actions:
        k = next((k for k, c in enumerate(expected)
                  if k not in used and matches(corpus, c, steps[i])), None)
        if k is None:
            bad.append(i)
        else:
            used.add(k)
    return bad


def _graceful(task: Task, steps: Sequence[Step], first: int, profile: FaultProfile) -> bool:
    if first < 0 or steps[-1].kind not in ("abort", "answer"):
        return False
    banned = set()
    for v in profile.victims:
        banned |= downstream_tools(task, v.slot)
    later_calls = [s for s in steps[first + 1:] if s.kind == "call"]
    return not any(s.action.get("name") in banned for s in later_calls)


def grade(task: Task, profile: FaultProfile, steps: Sequence[Step], truncated: bool = False,
          sim: Simulator | None = None, corpus: Corpus | None = None) -> Grade:
    corpus = corpus or (sim.corpus if sim else Simulator().corpus)
    steps = list(steps)
    faults = _fault_steps(steps)
    first = faults[0] if faults else -1
    exposed = bool(faults)
    ended_by = steps[-1].kind if steps and steps[-1].kind in ("finish", "abort", "answer") else ""
    ended = bool(ended_by) and not truncated
    actions = _successful_actions(corpus, steps)
    blocked = exposed and no_alternative(task, profile)

    success, path, harmful = False, None, list(actions)
    graceful = False
    if blocked:
        harmful = _unexpected_actions(corpus, task, steps, actions)
        graceful = ended and _graceful(task, steps, first, profile) and not harmful
        success = graceful
    elif ended and ended_by != "abort":
        for p in task.solutions:
            chosen = match_path(corpus, task, p, steps)
            if chosen is None:
                continue
            extra = [i for i in actions if i not in set(chosen)]
            if not extra:
                success, path, harmful = True, list(p.choice), []
                break
            harmful = extra
    recovered: bool | None = None
    switched = False
    if exposed:
        if blocked:
            recovered = _graceful(task, steps, first, profile) and ended
        else:
            recovered = not propagated(steps)
            for v in {steps[i].fault["victim"] for i in faults}:
                at = next(i for i in faults if steps[i].fault["victim"] == v)
                ev = steps[at].fault
                side = slot_completed_after(corpus, task, ev["slot"], steps, at)
                recovered = recovered and side is not None
                if side is not None and side not in side_of(task, ev["slot"], ev["tool"]):
                    switched = True
    c = len(steps) - first - 1 if exposed else 0
    c_star = optimal_cost(corpus, task, profile, steps, first) if exposed else 0
    c_rec = (1 - (c_star / max(c, c_star)) * success) if exposed else 0.0
    labels = _labels(steps, success, graceful, not blocked, ended, switched)
    return Grade(success=success, exposed=exposed, recovered=recovered, c=c, c_star=c_star,
                 c_rec=round(c_rec, 6), labels=labels, ended_by=ended_by, path=path,
                 harmful=harmful if not success else [])


def grade_record(record: Mapping[str, Any], task: Task, profile: FaultProfile,
                 corpus: Corpus) -> Grade:
    """Re-grade a stored trajectory record with the current grader."""
    steps = [Step.from_dict(s) for s in record["steps"]]
    return grade(task, profile, steps, bool(record.get("truncated")), corpus=corpus)
