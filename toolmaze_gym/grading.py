"""Trajectory → grade: the one code path for metrics and rewards.

The rules are written for users in docs/grading.md; in short:

success   a valid path of S completed (calls with matching arguments, after their
          inputs existed, with clean responses), no collateral damage (an Action
          that is not an expected call: wrong or corrupted arguments, unrequested,
          duplicated, or a slot done again through another alternative), and an
          ending that the endings table (``toolmaze_gym.endings``) accepts:
          ``finish`` or a plain answer after a completed path; where a permanent
          fault left no valid path, an honest stop (``abort``, or an answer that
          reports the failure) by an agent that never called a tool downstream
          of the victim, before or after meeting the fault.
exposed   a fault fired.
recovered (exposed only) every fired victim's slot was completed cleanly after
          the fault (a retry or an alternative) and no corrupted value reached a
          later call; where no path is left, the graceful stop. Judged
          independently of success.
c, c*     steps after the first perturbed response (the final step counts) and
          the fewest possible from there under the same fault rules.
labels    over_trust (a corrupted value reached a later call, free text
          included), retry_loop (≥ 3 identical failing calls), premature_give_up
          (the agent stopped while a valid path was still open), false_claim (an
          answer claiming success where none was achieved), aborted_after_completion,
          collateral_damage, path_switch (a faulted slot was completed by another
          alternative), graceful_stop.

Arguments match through the semantic types' normalisers (ids keep their case,
names and codes ignore it, amounts within the type's tolerance, dates to the day,
datetimes to the minute); free-text arguments match on content
(``toolmaze_gym.mentions``): they must mention the values the task requires
(``Input.mentions``; for tasks without them, the text the slot's input is bound to).

Everything a grade needs about a task (distinct expected calls, data
dependencies per path, sides per slot, downstream tools) is computed once per
(task, corpus) and cached; a trajectory is matched against the expected calls
once, and every later question is a lookup.
"""

from __future__ import annotations

import json
import math
from bisect import bisect_right
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym import endings, values
from toolmaze_gym.corpus import Corpus, Simulator, load_corpus
from toolmaze_gym.episode import ENDINGS, Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.mentions import FREE_TEXT, mentions, mentions_all
from toolmaze_gym.tasks.enumeration import min_remaining_calls
from toolmaze_gym.tasks.execution import plan_side
from toolmaze_gym.tasks.model import Call, SolutionPath, Task

Mentions = tuple[tuple[str, Any], ...]  # (semantic type, value) pairs a text must mention

# 2: harmful lists only Actions that are not expected calls (no longer every Action of
#    an aborted or truncated run); premature_give_up means "no valid path completed" on
#    a solvable (task, P); over_trust ignores values a later call legitimately expects;
#    one step fulfils at most one expected call.
# 3: free text graded on content (required mentions, any wording); one endings table
#    (a finish/answer that reports the failure is a graceful stop, abort after a
#    completed path fails); collateral_damage, false_claim and aborted_after_completion
#    labels; premature_give_up only while a valid path was open; a graceful stop also
#    forbids downstream calls made before the fault; corrupted values mentioned in free
#    text are over-trust.
GRADING_VERSION = "3"
LABELS = ("over_trust", "retry_loop", "premature_give_up", "false_claim",
          "aborted_after_completion", "collateral_damage", "path_switch", "graceful_stop")
RETRY_LOOP = 3  # identical failing calls that make a loop


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
    harmful: list[int] = field(default_factory=list)  # collateral damage: step indices
    version: str = GRADING_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {"success": self.success, "exposed": self.exposed, "recovered": self.recovered,
                "c": self.c, "c_star": self.c_star, "c_rec": self.c_rec,
                "labels": list(self.labels), "ended_by": self.ended_by,
                "path": None if self.path is None else list(self.path),
                "harmful": list(self.harmful), "version": self.version}


# ---------------------------------------------------------------- argument matching


def matches(corpus: Corpus, call: Call, step: Step,
            texts: Mapping[str, Mentions] | None = None) -> bool:
    """Whether ``step`` is ``call``: same tool, equal arguments, nothing else changed.

    ``texts`` gives, per free-text parameter, the values it must mention (an empty
    tuple: any non-empty text); a free-text parameter it does not name must contain
    the expected text.
    """
    act = step.action
    if act.get("name") != call.tool or not isinstance(act.get("arguments"), dict):
        return False
    return _Matcher(corpus, call, texts)(act["arguments"])


class _Matcher:
    """One expected call's argument check, prepared once: the types are looked up and
    the expected values normalised once (``SemanticType.same`` semantics kept).

    Typed arguments must normalise to the expected value; free-text arguments must
    mention every required value; optional parameters the call does not set must be
    absent or sent with their default; unknown parameters never match.
    """

    __slots__ = ("allowed", "defaults", "required", "texts")

    def __init__(self, corpus: Corpus, call: Call,
                 texts: Mapping[str, Mentions] | None = None) -> None:
        spec = corpus[call.tool]
        self.required = []
        self.texts: list[tuple[str, Mentions]] = []
        for p in spec.params:
            if p.name not in call.args:
                continue
            want = call.args[p.name]
            if p.type == FREE_TEXT:
                need = texts[p.name] if texts and p.name in texts else ((FREE_TEXT, want),)
                self.texts.append((p.name, tuple(need)))
                continue
            t = values.get(p.type)
            try:
                norm = t.normalise(want)
            except (TypeError, ValueError, AttributeError):
                norm = _RAW
            self.required.append((p.name, t.normalise, want, norm))
        self.defaults = {p.name: (values.get(p.type), p.default) for p in spec.params
                         if p.name not in call.args}
        self.allowed = frozenset(p.name for p in spec.params)

    def __call__(self, sent: Mapping[str, Any]) -> bool:
        for name, normalise, want, norm in self.required:
            if name not in sent:
                return False
            got = sent[name]
            if norm is _RAW:
                if got != want:
                    return False
                continue
            try:
                if normalise(got) != norm:
                    return False
            except (TypeError, ValueError, AttributeError):
                if got != want:
                    return False
        for name, need in self.texts:
            got = sent.get(name)
            if not isinstance(got, str) or not got.strip() or not mentions_all(got, need):
                return False
        for name, v in sent.items():
            if name not in self.allowed:
                return False
            if name in self.defaults:
                t, default = self.defaults[name]
                if not (v is None if default is None else t.same(v, default)):
                    return False
        return True


_RAW = object()  # the expected value does not normalise: compare as sent


# ---------------------------------------------------------------- per-task index


@dataclass(frozen=True)
class _Path:
    choice: tuple[int, ...]
    cids: tuple[int, ...]  # expected call ids, in the path's canonical order
    deps: tuple[tuple[int, ...], ...]  # per call: positions (in cids) that must come first


def _deps(task: Task, path: SolutionPath,
          upstream: Mapping[str, Sequence[str]] | None = None) -> list[list[int]]:
    """For each call of ``path``: indices of calls that must come before it."""
    if upstream is None:
        upstream = {s.id: s.upstream() for s in task.slots}
    by_slot: dict[str, list[int]] = {}
    for k, c in enumerate(path.calls):
        by_slot.setdefault(c.slot, []).append(k)
    deps = []
    for k, c in enumerate(path.calls):
        earlier_in_side = [j for j in by_slot[c.slot] if j < k]
        deps.append(earlier_in_side + [j for u in upstream[c.slot] for j in by_slot[u]])
    return deps


class TaskIndex:
    """What grading needs to know about one task, computed once."""

    def __init__(self, task: Task, corpus: Corpus) -> None:
        self.task = task
        self.calls: list[Call] = []
        self.matchers: list[_Matcher] = []
        self.by_tool: dict[str, list[int]] = {}
        ids: dict[tuple[str, str, str], int] = {}  # (slot, tool, arguments) -> call id
        self.paths: list[_Path] = []
        self.corpus = corpus
        upstream = {s.id: s.upstream() for s in task.slots}
        for p in task.solutions:
            cids = []
            for c in p.calls:
                key = (c.slot, c.tool, repr(sorted(c.args.items())))
                if key not in ids:
                    ids[key] = len(self.calls)
                    self.calls.append(c)
                    self.matchers.append(_Matcher(corpus, c, _text_mentions(corpus, task, c)))
                    self.by_tool.setdefault(c.tool, []).append(ids[key])
                cids.append(ids[key])
            self.paths.append(_Path(tuple(p.choice), tuple(cids),
                                    tuple(tuple(d) for d in _deps(task, p, upstream))))
        self.slot_ids = [s.id for s in task.slots]
        self.fixed = frozenset(s.id for s in task.slots if not s.is_branch)
        position = {s: k for k, s in enumerate(self.slot_ids)}
        # The calls of each side of each slot (identical in every path choosing it).
        self.sides: dict[str, list[tuple[int, ...]]] = {}
        for s in task.slots:
            sides = []
            for k in range(len(s.alternatives)):
                path = next((p for p in self.paths if p.choice[position[s.id]] == k), None)
                sides.append(() if path is None else
                             tuple(c for c in path.cids if self.calls[c].slot == s.id))
            self.sides[s.id] = sides
        self.side_of = {(s.id, t): frozenset(k for k, side in enumerate(s.alternatives)
                                             if t in side)
                        for s in task.slots for t in s.tools}
        children: dict[str, set[str]] = {s: set() for s in self.slot_ids}
        parents: dict[str, set[str]] = {s: set() for s in self.slot_ids}
        for v, us in upstream.items():  # data edges, and values read through free text
            for u in us:
                children[u].add(v)
                parents[v].add(u)
        by_id = task.slot_by_id
        self.down_slots = {s: frozenset(_closure(s, children)) for s in self.slot_ids}
        self.downstream = {s: frozenset(t for d in self.down_slots[s] for t in by_id[d].tools)
                           for s in self.slot_ids}
        self.upstream = {s: _closure(s, parents) for s in self.slot_ids}
        # (tool, parameter) -> values some expected call sends there.
        self.expected_args: dict[tuple[str, str], list[Any]] = {}
        for c in self.calls:
            for k, v in c.args.items():
                self.expected_args.setdefault((c.tool, k), []).append(v)


    def unsolvable(self, profile: FaultProfile) -> bool:
        """``no_alternative`` for this task: a permanent fault on a slot without
        alternatives leaves no valid path."""
        return profile.permanent and any(v.slot in self.fixed for v in profile.victims)


def _text_mentions(corpus: Corpus, task: Task, call: Call) -> dict[str, Mentions]:
    """The values each free-text parameter of ``call`` must mention, from the task data.

    A slot input's ``mentions`` (what a subject or body must state) pass to the
    parameter bound to it. A literal text the user did not write in the query (a
    template the task generator filled in, with nothing to mention) requires
    nothing but some text. Parameters absent from the result fall back, in the
    matcher, to the text they are bound to (a sentence the query quotes, an
    upstream tool's text): that text must appear in the argument.
    """
    slot = task.slot_by_id[call.slot]
    own = [i for i in slot.inputs if i.type == FREE_TEXT and i.source.is_literal
           and (i.mentions or not mentions(task.query, FREE_TEXT, i.source.value))]
    if not own:
        return {}
    side = next((a for a in slot.alternatives if call.tool in a), ())
    plan = plan_side(corpus, side, [(i.role, i.type) for i in slot.inputs]) if side else None
    if plan is None:
        return {}
    out: dict[str, Mentions] = {}
    for pname, (kind, ref) in plan[side.index(call.tool)]:
        if kind == "input" and slot.inputs[ref] in own:
            out[pname] = tuple((t, v) for t, v in slot.inputs[ref].mentions)
    return out


def _closure(start: str, edges: Mapping[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(edges[s])
    return seen


_INDEX_LIMIT = 4096
_INDEX: OrderedDict[tuple[int, int], tuple[Task, Corpus, TaskIndex]] = OrderedDict()
_ACTIONS: dict[int, tuple[Corpus, frozenset[str]]] = {}


def task_index(task: Task, corpus: Corpus) -> TaskIndex:
    """The cached index of ``task`` (tasks are treated as immutable once graded)."""
    key = (id(task), id(corpus))
    hit = _INDEX.get(key)
    if hit is not None and hit[0] is task and hit[1] is corpus:
        _INDEX.move_to_end(key)
        return hit[2]
    idx = TaskIndex(task, corpus)
    _INDEX[key] = (task, corpus, idx)
    if len(_INDEX) > _INDEX_LIMIT:
        _INDEX.popitem(last=False)
    return idx


def _action_tools(corpus: Corpus) -> frozenset[str]:
    hit = _ACTIONS.get(id(corpus))
    if hit is None or hit[0] is not corpus:
        hit = _ACTIONS[id(corpus)] = (corpus, frozenset(
            n for n, s in corpus.tools.items() if s.category == "Action"))
    return hit[1]


# ---------------------------------------------------------------- one trajectory


class _Trace:
    """A trajectory matched once against the task's expected calls."""

    def __init__(self, idx: TaskIndex, corpus: Corpus, steps: Sequence[Step]) -> None:
        self.idx = idx
        self.steps = steps
        self.pos: dict[int, list[int]] = {}  # call id -> clean steps that are that call
        self.actions: list[int] = []  # clean, successful Action calls (world changed)
        self.faults: list[int] = []
        actions = _action_tools(corpus)
        for i, s in enumerate(steps):
            if s.fault is not None:
                self.faults.append(i)
            if not s.clean_ok:
                continue
            name = s.action.get("name")
            args = s.action.get("arguments")
            if isinstance(args, dict):
                for cid in idx.by_tool.get(name, ()):
                    if idx.matchers[cid](args):
                        self.pos.setdefault(cid, []).append(i)
            if name in actions:
                self.actions.append(i)

    def match_path(self, path: _Path, start: int = 0) -> list[int] | None:
        """Earliest clean step for each call, after its dependencies, one call per step."""
        chosen: list[int] = []
        used: set[int] = set()
        for k, cid in enumerate(path.cids):
            found = self.pos.get(cid)
            if not found:
                return None
            after = max((chosen[j] for j in path.deps[k]), default=start - 1)
            j = bisect_right(found, after)
            while j < len(found) and found[j] in used:
                j += 1
            if j == len(found):
                return None
            chosen.append(found[j])
            used.add(found[j])
        return chosen

    def side_progress(self, cids: Sequence[int], start: int, limit: int) -> int:
        """How many of ``cids`` were made cleanly, in order, in steps (start, limit]."""
        i, n = start, 0
        for cid in cids:
            found = self.pos.get(cid, ())
            j = bisect_right(found, i)
            if j == len(found) or found[j] > limit:
                break
            i = found[j]
            n += 1
        return n

    def slot_completed_after(self, slot_id: str, start: int, limit: int | None = None
                             ) -> int | None:
        """The first side of ``slot_id`` completed cleanly, in order, after step ``start``."""
        limit = len(self.steps) - 1 if limit is None else limit
        for k, cids in enumerate(self.idx.sides[slot_id]):
            if cids and self.side_progress(cids, start, limit) == len(cids):
                return k
        return None


# ---------------------------------------------------------------- fault analysis


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


def _field_type(corpus: Corpus | None, tool: str, name: str) -> str:
    spec = corpus.tools.get(tool) if corpus is not None else None
    out = spec.output(name) if spec is not None else None
    return out.type if out is not None else ""


def _is_free_text(corpus: Corpus | None, tool: str, pname: str) -> bool:
    spec = corpus.tools.get(tool) if corpus is not None else None
    p = spec.param(pname) if spec is not None else None
    return p is not None and p.type == FREE_TEXT


def _propagated(steps: Sequence[Step], idx: TaskIndex | None) -> bool:
    """Whether a corrupted value was sent in a later call's arguments (over-trust).

    A value that the later call's expected arguments also hold there is not
    counted: the agent may have it from a clean source (a unit conversion can
    produce the very number a unit-confusion corruption shows). In a free-text
    argument the corrupted value counts when the text mentions it (an e-mail
    quoting the wrong price) and not the clean one.
    """
    corpus = idx.corpus if idx is not None else None
    bad: list[tuple[int, Any, Any, str]] = []
    for i, s in enumerate(steps):
        f = s.fault
        if f and f.get("corrupted"):
            clean = f.get("clean") or {}
            bad += [(i, v, clean.get(k), _field_type(corpus, f.get("tool", ""), k))
                    for k, v in f["corrupted"].items()]
    if not bad:
        return False
    for j in range(bad[0][0] + 1, len(steps)):
        later = steps[j]
        args = later.action.get("arguments")
        if later.kind != "call" or not isinstance(args, dict):
            continue
        live = [(b, c, t) for i, b, c, t in bad if i < j]
        name = later.action.get("name")
        for pname, value in args.items():
            expected = idx.expected_args.get((name, pname), ()) if idx else ()
            if isinstance(value, str) and _is_free_text(corpus, name, pname):
                if any(mentions(value, t, b) and not mentions(value, t, c)
                       and not any(mentions(e, t, b) for e in expected)
                       for b, c, t in live if b is not None and not isinstance(b, dict | list)):
                    return True
                continue
            for leaf in _leaves(value):
                if any(_values_equal(leaf, b) and not _values_equal(leaf, c) for b, c, _ in live) \
                        and not any(_values_equal(leaf, e) for e in expected):
                    return True
    return False


def propagated(steps: Sequence[Step], task: Task | None = None,
               corpus: Corpus | None = None) -> bool:
    """Over-trust: a corrupted value reached a later call (see ``_propagated``)."""
    idx = task_index(task, corpus or load_corpus()) if task is not None else None
    return _propagated(steps, idx)


def no_alternative(task: Task, profile: FaultProfile) -> bool:
    """A permanent fault on a slot without alternatives leaves no valid path."""
    return profile.permanent and any(
        not task.slot_by_id[v.slot].is_branch for v in profile.victims)


def side_of(task: Task, slot_id: str, tool: str) -> set[int]:
    slot = task.slot_by_id[slot_id]
    return {k for k, side in enumerate(slot.alternatives) if tool in side}


def match_path(corpus: Corpus, task: Task, path: SolutionPath, steps: Sequence[Step],
               start: int = 0) -> list[int] | None:
    """Earliest clean step index for each call of ``path``, respecting data dependencies."""
    idx = task_index(task, corpus)
    k = next(i for i, p in enumerate(task.solutions) if p is path or p == path)
    return _Trace(idx, corpus, steps).match_path(idx.paths[k], start)


def slot_completed_after(corpus: Corpus, task: Task, slot_id: str, steps: Sequence[Step],
                         start: int) -> int | None:
    """The side of ``slot_id`` completed cleanly, in order, after step ``start``."""
    return _Trace(task_index(task, corpus), corpus, steps).slot_completed_after(slot_id, start)


# ---------------------------------------------------------------- costs


def _optimal(trace: _Trace, profile: FaultProfile, limit: int) -> int:
    """The fewest steps (the final finish/abort included) after step ``limit``."""
    idx = trace.idx
    task = idx.task
    fault_steps = [trace.steps[i].fault for i in trace.faults if i <= limit]
    blocked = idx.unsolvable(profile)
    if blocked and fault_steps:
        return 1  # nothing left to do but stop
    completed: set[str] = set()
    progress: dict[str, dict[int, int]] = {}
    for slot_id in idx.slot_ids:
        done = {k: trace.side_progress(cids, -1, limit)
                for k, cids in enumerate(idx.sides[slot_id])}
        if any(cids and done[k] == len(cids) for k, cids in enumerate(idx.sides[slot_id])):
            completed.add(slot_id)
        else:
            progress[slot_id] = done
    if blocked:
        # Not exposed yet: complete what the victim needs, meet the fault, stop.
        need = set().union(*(idx.upstream[v.slot] for v in profile.victims)) - completed
        rest = min_remaining_calls(task, completed | (set(idx.slot_ids) - need), None,
                                   progress)
        return (rest or 0) + 1 + 1
    unusable: dict[str, set[int]] = {}
    if profile.permanent:
        for f in fault_steps:
            unusable.setdefault(f["slot"], set()).update(idx.side_of[(f["slot"], f["tool"])])
    rest = min_remaining_calls(task, completed, unusable, progress)
    if rest is None:
        return 1
    fired = {f["victim"] for f in fault_steps}
    pending = sum(1 for k, v in enumerate(profile.victims)
                  if k not in fired and v.slot not in completed)
    return rest + pending + 1


def optimal_cost(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
                 first: int) -> int:
    """c*: the fewest steps (final one included) from after step ``first``."""
    return _optimal(_Trace(task_index(task, corpus), corpus, steps[: first + 1]), profile,
                    first)


def remaining_optimal(corpus: Corpus, task: Task, profile: FaultProfile,
                      steps: Sequence[Step]) -> int:
    """The fewest steps still needed from the current point (shaping potential)."""
    return optimal_cost(corpus, task, profile, steps, len(steps) - 1)


# ---------------------------------------------------------------- the grade


def _failing_loop(steps: Sequence[Step]) -> bool:
    failing = Counter(json.dumps([s.action.get("name"), s.action.get("arguments")],
                                 sort_keys=True, default=str)
                      for s in steps if s.kind == "call" and (s.fault or (s.status or 0) >= 400))
    return bool(failing) and max(failing.values()) >= RETRY_LOOP


def _unexpected_actions(trace: _Trace) -> list[int]:
    """Actions that are no expected call, repeat one already made, or do a slot's work
    a second time through another alternative."""
    idx = trace.idx
    used: set[int] = set()
    side_used: dict[str, int] = {}
    bad = []
    for i in trace.actions:
        cid = next((c for c in idx.by_tool.get(trace.steps[i].action["name"], ())
                    if c not in used and i in trace.pos.get(c, ())), None)
        if cid is None:
            bad.append(i)
            continue
        slot = idx.calls[cid].slot
        sides = {k for k, cids in enumerate(idx.sides[slot]) if cid in cids}
        if slot in side_used and side_used[slot] not in sides:
            bad.append(i)
            continue
        side_used.setdefault(slot, min(sides))
        used.add(cid)
    return bad


def _downstream_calls(idx: TaskIndex, trace: _Trace, profile: FaultProfile) -> list[int]:
    """Steps, before or after the fault, that call a tool downstream of a victim.

    A tool counts when only downstream slots use it, or when the step is one of a
    downstream slot's expected calls (a tool can serve an upstream slot too).
    """
    down: set[str] = set()
    for v in profile.victims:
        down |= idx.down_slots[v.slot]
    elsewhere = {t for s in idx.slot_ids if s not in down
                 for t in idx.task.slot_by_id[s].tools}
    only_down = {t for s in down for t in idx.task.slot_by_id[s].tools} - elsewhere
    down_steps = {i for cid, found in trace.pos.items() if idx.calls[cid].slot in down
                  for i in found}
    return [i for i, s in enumerate(trace.steps) if s.kind == "call"
            and (s.action.get("name") in only_down or i in down_steps)]


def _no_path_left(trace: _Trace, profile: FaultProfile) -> bool:
    """Whether the faults met so far leave no valid path (the task is blocked)."""
    if not trace.faults:
        return False
    if trace.idx.unsolvable(profile):
        return True
    if not profile.permanent:
        return False
    unusable: dict[str, set[int]] = {}
    for i in trace.faults:
        f = trace.steps[i].fault
        unusable.setdefault(f["slot"], set()).update(trace.idx.side_of[(f["slot"], f["tool"])])
    return min_remaining_calls(trace.idx.task, set(), unusable) is None


def _situation(completed: bool, blocked: bool, unsolvable: bool) -> str:
    if completed:
        return endings.COMPLETED
    if blocked:
        return endings.BLOCKED
    return endings.DOOMED if unsolvable else endings.OPEN


def _completed_path(trace: _Trace) -> tuple[_Path | None, list[int] | None]:
    """The completed path with the fewest extra Actions, and those extra Actions
    (None when no path was completed)."""
    best: tuple[_Path | None, list[int] | None] = (None, None)
    for p in trace.idx.paths:
        chosen = trace.match_path(p)
        if chosen is None:
            continue
        taken = set(chosen)
        extra = [i for i in trace.actions if i not in taken]
        if best[1] is None or len(extra) < len(best[1]):
            best = (p, extra)
        if not extra:
            break
    return best


def _recovered(trace: _Trace, over_trust: bool) -> tuple[bool, bool]:
    """(recovered, switched): every fired victim's slot completed cleanly after its
    fault and no corrupted value reached a later call; whether another side did it."""
    idx, steps = trace.idx, trace.steps
    recovered, switched = not over_trust, False
    seen: set[int] = set()
    for i in trace.faults:
        ev = steps[i].fault
        if ev["victim"] in seen:
            continue
        seen.add(ev["victim"])
        side = trace.slot_completed_after(ev["slot"], i)
        recovered = recovered and side is not None
        if side is not None and side not in idx.side_of[(ev["slot"], ev["tool"])]:
            switched = True
    return recovered, switched


def grade(task: Task, profile: FaultProfile, steps: Sequence[Step], truncated: bool = False,
          sim: Simulator | None = None, corpus: Corpus | None = None) -> Grade:
    """The grade of one trajectory (see the module docstring and docs/grading.md)."""
    corpus = corpus or (sim.corpus if sim else load_corpus())
    steps = list(steps)
    idx = task_index(task, corpus)
    trace = _Trace(idx, corpus, steps)
    faults = trace.faults
    first = faults[0] if faults else -1
    exposed = bool(faults)
    last = steps[-1].kind if steps else ""
    ended_by = last if last in ENDINGS else ""
    ending = ended_by if not truncated else ""
    over_trust = _propagated(steps, idx)

    path, extra = _completed_path(trace)
    completed = path is not None
    harmful = extra if completed else _unexpected_actions(trace)
    blocked = not completed and _no_path_left(trace, profile)
    situation = _situation(completed, blocked, idx.unsolvable(profile))
    verdict = endings.judge(situation, ending, steps[-1].action.get("text", "") if ending
                            else "")
    probed = blocked and bool(_downstream_calls(idx, trace, profile))
    graceful = blocked and verdict.ok and not probed
    success = verdict.ok and not harmful and not probed

    recovered: bool | None = None
    switched = False
    if exposed:
        if blocked:
            recovered = graceful
        else:
            recovered, switched = _recovered(trace, over_trust)
    c = len(steps) - first - 1 if exposed else 0
    c_star = _optimal(trace, profile, first) if exposed else 0
    c_rec = (1 - (c_star / max(c, c_star)) * success) if exposed else 0.0

    found = set(verdict.labels)
    found |= {"over_trust"} if over_trust else set()
    found |= {"retry_loop"} if _failing_loop(steps) else set()
    found |= {"collateral_damage"} if harmful else set()
    found |= {"path_switch"} if switched else set()
    found |= {"graceful_stop"} if graceful else set()
    return Grade(success=success, exposed=exposed, recovered=recovered, c=c, c_star=c_star,
                 c_rec=round(c_rec, 6), labels=[x for x in LABELS if x in found],
                 ended_by=ended_by, path=list(path.choice) if success and path else None,
                 harmful=[] if success else harmful)


def grade_record(record: Mapping[str, Any], task: Task, profile: FaultProfile,
                 corpus: Corpus | None = None) -> Grade:
    """Re-grade a stored trajectory record with the current grader."""
    steps = [Step.from_dict(s) for s in record["steps"]]
    return grade(task, profile, steps, bool(record.get("truncated")), corpus=corpus)
