"""Scripted baselines: plan followers that differ only in how they meet failure.

Each is handed the task's plan — s* and the alternatives, what a perfect reader
of the query would understand — and fills arguments from the observations it
actually receives, so corrupted data flows on unless the policy catches it.

naive      follows s*, never retries, trusts all data; stops at the first error.
retry      retries explicit errors up to 3 times, then an alternative, else abort.
validator  like retry, and also checks each response against the tool's
           documented invariants and the request.
oracle     also knows the fault profile and takes the cheapest recovery.
"""

from __future__ import annotations

import json
from typing import Any

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.invariants import violations
from toolmaze_gym.corpus.spec import flat_form
from toolmaze_gym.faults import get_mode
from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.identity_cache import IdentityCache
from toolmaze_gym.tasks.execution import (
    local_values,
    plan_side,
    slot_outputs,
    topological_order,
)
from toolmaze_gym.tasks.model import Slot, Task
from toolmaze_gym.tasks.queries import say_as
from toolmaze_gym.tasks.suites import task_simulator


def call_text(name: str, arguments: dict[str, Any]) -> str:
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


class _Plan:
    """What a plan follower derives from a task before acting: the slot order and how
    each side binds its inputs. Computed once per task (cached) — every rollout of
    the same task would otherwise redo a topological sort and the bindings."""

    def __init__(self, task: Task, corpus: Any) -> None:
        self.order = topological_order(task.slots)
        self.sides = {(s.id, k): plan_side(corpus, side, [(i.role, i.type) for i in s.inputs])
                      for s in task.slots for k, side in enumerate(s.alternatives)}


_PLANS: IdentityCache[_Plan] = IdentityCache(4096)


def _plan(task: Task, corpus: Any) -> _Plan:
    return _PLANS.get(task, corpus, lambda: _Plan(task, corpus))


FINISH = call_text("finish", {"answer": "All requested steps are done."})
ABORT = call_text("abort", {"reason": "A required tool keeps failing and has no alternative."})


class PlanFollower:
    name = "plan"
    max_retries = 0
    checks_data = False

    def __init__(self, sim: Simulator | None = None) -> None:
        self.sim = sim or Simulator()

    # -- episode state --------------------------------------------------------

    def reset(self, task: Task, tools: list[dict[str, Any]] | None = None,
              mode: str = "P0") -> None:
        # What the agent looks up or dry-runs for itself is the task's world edition,
        # the one its episode answers from (an old suite's task: edition 1).
        self.sim = task_simulator(task, self.sim)
        self.task = task
        self.mode = get_mode(mode)
        self.plan = _plan(task, self.sim.corpus)
        self.order: list[Slot] = self.plan.order
        index = {s.id: k for k, s in enumerate(task.slots)}
        self.side = {s.id: task.default_path.choice[index[s.id]] for s in task.slots}
        self.tried: dict[str, set[int]] = {s.id: set() for s in task.slots}
        self.outputs: dict[str, dict[str, Any]] = {}
        self.k = 0
        self._start_slot()

    def _start_slot(self) -> None:
        self.pos = 0
        self.local: dict[str, Any] = {}
        self.bodies: list[dict[str, Any]] = []
        self.pending: tuple[str, dict[str, Any]] | None = None
        self.retries = 0
        if self.k < len(self.order):
            slot = self.order[self.k]
            self.tried[slot.id].add(self.side[slot.id])

    @property
    def slot(self) -> Slot:
        return self.order[self.k]

    # -- policy hooks ------------------------------------------------------------

    def judge(self, name: str, args: dict[str, Any], body: dict[str, Any]) -> str:
        """"ok", "error" (explicit failure) or "bad" (a broken invariant)."""
        if "error" in body:
            return "error"
        if self.checks_data and violations(self.sim.corpus[name], args, body, self.sim.world):
            return "bad"
        return "ok"

    def on_failure(self, verdict: str) -> str:
        """"retry", "switch", "abort" or "finish"."""
        if self.retries < self.max_retries:
            return "retry"
        return "switch" if self._untried() is not None else "abort"

    def _untried(self) -> int | None:
        slot = self.slot
        options = [k for k in range(len(slot.alternatives)) if k not in self.tried[slot.id]]
        return min(options, key=lambda k: (len(slot.alternatives[k]), k)) if options else None

    # -- acting -----------------------------------------------------------------

    def act(self, messages: list[dict[str, Any]]) -> str:
        if self.pending is not None:
            body = _last_tool_body(messages)
            name, args = self.pending
            verdict = self.judge(name, args, body)
            if verdict == "ok":
                self._accept(body)
            else:
                decision = self.on_failure(verdict)
                if decision == "retry":
                    self.retries += 1
                    return call_text(name, args)
                if decision == "switch":
                    self.side[self.slot.id] = self._untried()  # type: ignore[assignment]
                    self._start_slot()
                elif decision == "abort":
                    return self.abort(name)
                else:
                    return self._finish()
        return self._next()

    def abort(self, tool: str) -> str:
        """An honest stop that names the tool that failed: after a silent fault a stop
        that names nothing is no graceful stop (docs/grading.md, endings)."""
        return call_text("abort", {"reason": f"{tool} keeps failing or returning data that "
                                             "contradicts its documentation, and no other "
                                             "tool can do that step; stopping."})

    def asks(self) -> tuple[tuple[Any, ...], ...]:
        """What the final answer must tell: the task's ``answer`` and the facts the
        request asks beside it (``grading.asked_facts``, grading version 18)."""
        from toolmaze_gym.grading.asked_facts import all_asks

        return all_asks(self.task, self.sim.corpus)

    def answered(self) -> list[tuple[str, Any] | None]:
        """Per value the request asks to be told: (type, value) as this episode's
        responses gave it, None where the episode never gave it."""
        out: list[tuple[str, Any] | None] = []
        for m in self.asks():
            if len(m) < 4:
                out.append((m[0], m[1]))
            else:
                got = self.outputs.get(m[2], {})
                # another tool of the slot names the field its own way: its one value of
                # the type asked is the fact (calculate_position_value's for a product)
                same = {repr(v): v for k, v in got.items() if k.partition("@")[0] == m[0]}
                out.append((m[0], got[m[3]]) if m[3] in got
                           else (m[0], *same.values()) if len(same) == 1 else None)
        return out

    def _finish(self) -> str:
        """``finish``, telling the user the values the request asked for (none the
        episode never gave)."""
        told = [say_as(*a) for a in self.answered() if a is not None]
        if not told:
            return FINISH
        return call_text("finish", {"answer": "All requested steps are done. "
                                              "You asked: " + "; ".join(told) + "."})

    def _accept(self, body: dict[str, Any]) -> None:
        slot = self.slot
        side = slot.alternatives[self.side[slot.id]]
        self.local.update(local_values(self.sim.corpus[side[self.pos]].returns, body))
        self.bodies.append(body)
        self.pos += 1
        self.pending = None
        self.retries = 0
        if self.pos == len(side):
            provides = self.sim.corpus.group_by_id[slot.group].provides if slot.group else ()
            try:
                self.outputs[slot.id] = slot_outputs(self.sim.corpus, slot, side, self.bodies,
                                                     provides)
            except (KeyError, StopIteration):
                self.outputs[slot.id] = dict(self.local)
            self.k += 1
            self._start_slot()

    def _next(self) -> str:
        if self.k >= len(self.order):
            return self._finish()
        slot = self.slot
        side = slot.alternatives[self.side[slot.id]]
        plan = self.plan.sides[(slot.id, self.side[slot.id])]
        if plan is None:
            return ABORT
        args: dict[str, Any] = {}
        try:
            for pname, (kind, ref) in plan[self.pos]:
                if kind == "local":
                    args[pname] = self.local[ref]
                else:
                    src = slot.inputs[ref].source
                    args[pname] = src.value if src.is_literal else self.outputs[src.slot][src.ref]
        except KeyError:
            return ABORT
        self.pending = (side[self.pos], args)
        return call_text(side[self.pos], args)


def _last_tool_body(messages: list[dict[str, Any]]) -> dict[str, Any]:
    for m in reversed(messages):
        if m.get("role") == "tool":
            try:
                body = json.loads(m.get("content") or "{}")
            except json.JSONDecodeError:
                return {"error": {"message": "unparseable response"}}
            if not isinstance(body, dict):
                return {"error": {"message": "not an object"}}
            return flat_form(body)  # nested response objects back to dotted field names
    return {"error": {"message": "no tool response"}}


class NaiveAgent(PlanFollower):
    name = "naive"

    def on_failure(self, verdict: str) -> str:
        return "finish"


class RetryAgent(PlanFollower):
    name = "retry"
    max_retries = 3


class ValidatorAgent(PlanFollower):
    name = "validator"
    max_retries = 3
    checks_data = True


class OracleAgent(PlanFollower):
    """Knows the fault profile: predicts each fault and recovers at minimum cost."""

    name = "oracle"

    def reset(self, task: Task, tools: list[dict[str, Any]] | None = None,
              mode: str = "P0") -> None:
        self.profile = profile_for(task, get_mode(mode).name, self.sim)
        self.victim_of = {t: k for k, v in enumerate(self.profile.victims) for t in v.tools}
        self.assigned: dict[int, str] = {}
        super().reset(task, tools, mode)
        if self.profile.permanent:
            for v in self.profile.victims:
                slot = task.slot_by_id[v.slot]
                if slot.is_branch:
                    self.side[slot.id] = self._sacrifice(slot)
            self.k = 0
            self.tried = {s.id: set() for s in task.slots}
            self._start_slot()

    @staticmethod
    def _sacrifice(slot: Slot) -> int:
        """Under a permanent fault the first group tool called breaks: spend that
        failure on a side the oracle would not use anyway."""
        best = min(range(len(slot.alternatives)), key=lambda k: (len(slot.alternatives[k]), k))
        others = [k for k in range(len(slot.alternatives)) if k != best]
        return max(others, key=lambda k: (len(slot.alternatives[k]), -k))

    def judge(self, name: str, args: dict[str, Any], body: dict[str, Any]) -> str:
        v = self.victim_of.get(name)
        if v is None or not self.mode.faulty:
            return "error" if "error" in body else "ok"
        taken = self.assigned.get(v)
        if taken is None:
            self.assigned[v] = name
            return "bad"
        return "bad" if taken == name and self.profile.permanent else "ok"

    def on_failure(self, verdict: str) -> str:
        if not self.profile.permanent:
            return "retry"
        return "switch" if self._untried() is not None else "abort"


SCRIPTED = {a.name: a for a in (NaiveAgent, RetryAgent, ValidatorAgent, OracleAgent)}
