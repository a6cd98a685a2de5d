"""Where a miss happened: a lookup sent with a wrong value, reported once (issue 27,
item 5).

An agent that searches rental cars for the wrong pickup date and then reserves the
offer it found, and expenses what that offer cost, made one mistake. The grade
reads a lookup the agent did not make as expected through the reference run's
answer (a world fact it may know), so the reservation and the expense both differ
from what the grade expected and both fail; that stays so (grades do not move).
Said as two misses it misleads: the agent would look for two faults. So the path
the grade compared is read once more with the agent's own lookups
(``grading.resolution.OwnLookups``: its own call of the lookup where it sent other
arguments, a derivable Processor it skipped worked out on its own values). A
required Action the grade lists as not done that this reading finds done, and
whose attempt carries a value the wrong lookup's own answer changed (or that sits
below such an Action), used that answer faithfully: it follows from the lookup's
miss, which is reported instead, naming the argument, what was sent, what was
expected and where that comes from. A wrong lookup whose answer no missed Action
used (the agent looked again with the right arguments, or never used it) is no
miss and is never named. This reading is never the grade: read that way, 17 of
the 577 played episodes and 1,232 of the scripted agents' 10,000 records would
grade differently (an exploratory lookup's answer would override a known fact).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym.call_checks import origins, show, where
from toolmaze_gym.corpus import Corpus, Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.episode import Step
from toolmaze_gym.grading import task_index
from toolmaze_gym.grading.resolution import Derive, OwnLookups, resolve_path
from toolmaze_gym.grading.trace import Trace
from toolmaze_gym.mentions import mentions
from toolmaze_gym.tasks.model import Task


@dataclass(frozen=True)
class Follower:
    """A required Action the grade lists as not done that follows from a lookup miss."""

    tool: str
    slot: str
    step: int | None  # the attempt the grade names (0-based)


@dataclass(frozen=True)
class LookupMiss:
    """One lookup sent with a wrong value whose answer later Actions used."""

    step: int  # 0-based
    tool: str
    slot: str
    argument: str
    sent: Any
    expected: Any
    origin: str  # where the expected value comes from, in words
    followers: tuple[Follower, ...]
    corrupted_at: int | None = None  # the silent fault whose corrupted value was sent
    # Required Actions below it that stay not done on the agent's own lookups: (tool,
    # slot) -> what they expected there, and the argument that differs (their own miss,
    # told against what the agent's own lookup gave, not the reference run's).
    own_expected: Mapping[tuple[str, str], tuple[dict[str, Any], str]] = \
        field(default_factory=dict)

    def text(self, steps: Sequence[Step], names: Mapping[str, str]) -> str:
        """The miss in one line, with the Actions that follow from it."""
        args = steps[self.step].action.get("arguments")
        each = [f"Action {f.tool}" + (f" (step '{names[f.slot]}')" if f.slot in names else "")
                + (f" at step {f.step + 1}" if f.step is not None else "")
                for f in self.followers]
        led = each[0] if len(each) == 1 else ", ".join(each[:-1]) + " and " + each[-1]
        they, own = ("it follows", "its") if len(each) == 1 else ("they follow", "their")
        bad = "" if self.corrupted_at is None else \
            f" (the corrupted value of the faulty response at step {self.corrupted_at + 1})"
        return (f"step {self.step + 1} ({self.tool} {show(args)}) was called with a wrong value: "
                f"argument {self.argument}: expected {show(self.expected)} ({self.origin}), "
                f"sent {show(self.sent)}{bad}. What it returned was used faithfully by {led}: "
                f"{they} from this one miss, not from a miss of {own} own")


def lookup_misses(grade: Mapping[str, Any], task: Task, steps: Sequence[Step],
                  corpus: Corpus, k: int) -> list[LookupMiss]:
    """The lookup misses of path ``k`` (the one the grade compared), none for a success."""
    missing = grade.get("missing") or ()
    if grade.get("success") or not missing:
        return []
    idx = task_index(task, corpus)
    trace = Trace(idx, steps)
    listed = {(m.get("tool"), m.get("slot")): m for m in missing if isinstance(m, Mapping)}
    derive = _deriver(corpus)
    own = resolve_path(idx, trace.view, idx.paths[k], own=OwnLookups(derive))
    done = [c for c in idx.paths[k].cids
            if (idx.calls[c].tool, idx.calls[c].slot) in listed and c not in own.missing]
    out = []
    for cid, (i, arg) in sorted(own.lookups.items(), key=lambda t: t[1][0]):
        call = idx.calls[cid]
        below = idx.down_slots[call.slot]
        without = resolve_path(idx, trace.view, idx.paths[k],
                               own=OwnLookups(derive, frozenset({cid})))
        followers = tuple(Follower(idx.calls[c].tool, idx.calls[c].slot,
                                   listed[(idx.calls[c].tool, idx.calls[c].slot)].get("step"))
                          for c in _led(idx, trace, done, listed, below,
                                        _changed(own.outputs, without.outputs,
                                                 {call.slot, *below},
                                                 steps[i].action.get("arguments"))))
        if not followers:
            continue  # its answer led no missed Action: no miss of its own
        still = {(idx.calls[c].tool, idx.calls[c].slot): (own.expected.get(c, {}),
                                                           own.wrong.get(c, (None, ""))[1])
                 for c in own.missing if idx.calls[c].slot in below}
        origin = origins(corpus, task, call).get(arg)
        said = where(origin, trace.steps[:i]) if origin is not None else "this episode's"
        sent = steps[i].action.get("arguments", {}).get(arg)
        out.append(LookupMiss(i, call.tool, call.slot, arg, sent,
                              own.expected.get(cid, {}).get(arg), said, followers,
                              _corrupted_at(steps[:i], sent), still))
    return out


def _led(idx: Any, trace: Trace, done: Sequence[int],
         listed: Mapping[tuple[str, str], Mapping[str, Any]], below: frozenset[str] | set[str],
         changed: list[tuple[str, Any]]) -> list[int]:
    """Of the missed Actions the agent's own lookups find ``done``, those a lookup led:
    below it and sent with a value its own answer changed (``changed``), or below one
    that is (an expense of the reservation the wrong search gave: the grade reads a
    missed Action's own answer already). One whose values came from elsewhere (the
    plan's clean text beside a wrong cost; a text that passes an empty summary's no
    facts) is not led."""
    steps = trace.view.steps

    def attempts(c: int) -> list[int]:  # the step the grade names, else every call
        step = listed[(idx.calls[c].tool, idx.calls[c].slot)].get("step")
        return [step] if isinstance(step, int) and 0 <= step < len(steps) \
            else list(trace.view.by_tool.get(idx.calls[c].tool, ()))

    led = [c for c in done if idx.calls[c].slot in below
           and any(_carries(steps[i].action.get("arguments"), changed) for i in attempts(c))]
    under = {s for c in led for s in idx.down_slots[idx.calls[c].slot]}
    return [c for c in done if c in led or idx.calls[c].slot in under]


def _changed(own: Mapping[str, Mapping[str, Any]], grade: Mapping[str, Mapping[str, Any]],
             slots: set[str], sent: Any) -> list[tuple[str, Any]]:
    """The values of ``slots`` the agent's own lookup changed: this reading's outputs
    that the reading without it does not have, less those the lookup was sent (an id it
    echoes came from upstream, not from it: a product id a faulty search gave)."""
    given = list(sent.values()) if isinstance(sent, Mapping) else []
    return [(key.partition("@")[0], v) for s in slots for key, v in own.get(s, {}).items()
            if v is not None and grade.get(s, {}).get(key) != v and v not in given]


def _carries(args: Any, values: Sequence[tuple[str, Any]]) -> bool:
    """Whether arguments sent carry one of ``values`` (type, value): equal, or told in
    a text as the grader reads values there (``mentions``: 760,461.60 for 760461.6)."""
    if not isinstance(args, Mapping):
        return False
    for a in args.values():
        for type_, v in values:
            if a == v:
                return True
            if isinstance(a, str) and not isinstance(v, (bool, dict, list)):
                try:
                    if mentions(a, type_, v):
                        return True
                except (KeyError, TypeError, ValueError):
                    continue
    return False


def _corrupted_at(before: Sequence[Step], sent: Any) -> int | None:
    """The latest step before whose silent fault corrupted a field to ``sent``: the wrong
    value is then over-trust of that response, and the line says so."""
    for j in range(len(before) - 1, -1, -1):
        fault = before[j].fault or {}
        corrupted = fault.get("corrupted") if isinstance(fault, Mapping) else None
        if isinstance(corrupted, Mapping) and any(
                v == sent and type(v) is type(sent) for v in corrupted.values()):
            return j
    return None


def as_read_on_own_lookups(grade: Mapping[str, Any], misses: Sequence[LookupMiss]
                           ) -> dict[str, Any]:
    """``grade`` with each missed Action below a lookup miss that is a miss of its own
    told against the agent's own lookups (``LookupMiss.own_expected``): for the
    explanation only, never stored."""
    own = {key: v for m in misses for key, v in m.own_expected.items()}
    missing = []
    for m in grade.get("missing") or ():
        hit = own.get((m.get("tool"), m.get("slot"))) if isinstance(m, Mapping) else None
        if hit is not None and hit[0]:
            m = {**m, "expected": hit[0], "argument": hit[1] or m.get("argument")}
        missing.append(m)
    return {**grade, "missing": missing}


def _deriver(corpus: Corpus) -> Derive:
    """A derivable Processor's answer on given arguments, from the simulator (these
    tools read no episode state)."""
    sim = Simulator(corpus)

    def derive(tool: str, args: Mapping[str, Any]) -> dict[str, Any] | None:
        resp = sim.call(tool, dict(args), EpisodeState())
        return resp.body if resp.ok and isinstance(resp.body, dict) else None

    return derive
