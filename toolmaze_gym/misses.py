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
required Action the grade lists as not done that this reading finds done used
what the agent's own wrong lookup returned, faithfully: it follows from that
lookup's miss, which is reported instead, naming the argument, what was sent,
what was expected and where that comes from. A wrong lookup whose answer no
missed Action used (the agent looked again with the right arguments, or never
used it) is no miss and is never named.
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
        return (f"step {self.step + 1} ({self.tool} {show(args)}) was called with a wrong value: "
                f"argument {self.argument}: expected {show(self.expected)} ({self.origin}), "
                f"sent {show(self.sent)}. What it returned was used faithfully by {led}: "
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
    own = resolve_path(idx, trace.view, idx.paths[k], own=OwnLookups(_deriver(corpus)))
    done = [c for c in idx.paths[k].cids
            if (idx.calls[c].tool, idx.calls[c].slot) in listed and c not in own.missing]
    out = []
    for cid, (i, arg) in sorted(own.lookups.items(), key=lambda t: t[1][0]):
        call = idx.calls[cid]
        below = idx.down_slots[call.slot]
        followers = tuple(Follower(idx.calls[c].tool, idx.calls[c].slot,
                                   listed[(idx.calls[c].tool, idx.calls[c].slot)].get("step"))
                          for c in done if idx.calls[c].slot in below)
        if not followers:
            continue  # its answer led no missed Action: no miss of its own
        still = {(idx.calls[c].tool, idx.calls[c].slot): (own.expected.get(c, {}),
                                                           own.wrong.get(c, (None, ""))[1])
                 for c in own.missing if idx.calls[c].slot in below}
        origin = origins(corpus, task, call).get(arg)
        said = where(origin, trace.steps[:i]) if origin is not None else "this episode's"
        out.append(LookupMiss(i, call.tool, call.slot, arg,
                              steps[i].action.get("arguments", {}).get(arg),
                              own.expected.get(cid, {}).get(arg), said, followers, still))
    return out


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
