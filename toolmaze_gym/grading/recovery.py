"""Whether the agent recovered from the faults it met, and whether it switched paths.

Recovery must agree with what the path listing of an explanation shows: Sources
and Processors are means, so a faulted slot is done again after the fault when
what it is *for* was done cleanly after the fault, not only when every call of one
of its sides was made in order. Per fired victim's slot, after the fault:

* a side was completed cleanly (a retry, or an alternative); or
* the calls of a side that the path cannot do without were made cleanly: its
  Actions where it has any, else its Sources (a Processor's rule the agent may apply
  itself, a summary it may write itself); or
* for a slot of lookups only, every value it provides reached the agent in clean
  responses of other tools (the fact read elsewhere).

A switch is a faulted slot done after the fault by a side other than the faulted
one, or with a tool of the slot that no faulted side uses (a search through another
directory, then the faulted side's Action).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolmaze_gym.corpus.derivations import derivable
from toolmaze_gym.grading.trace import Trace

MIN_SHOWN = 4  # shorter provided values (a count, a code) say nothing on their own


def recovered_and_switched(trace: Trace, over_trust: bool, success: bool
                           ) -> tuple[bool, bool]:
    """(recovered, switched): every fired victim's slot done after its fault (or the
    task succeeded after it) and no corrupted value passed on; whether a slot was
    done by another side or tool than the faulted one."""
    recovered, switched = not over_trust, False
    for i in first_faults(trace):
        done = slot_done_after(trace, i)
        recovered = recovered and (done is not None or success)
        switched = switched or (done is not None and _switched(trace, i, done))
    return recovered, switched


def first_faults(trace: Trace) -> list[int]:
    """The step of each fired victim's first fault on a slot of this task."""
    seen: set[Any] = set()
    out = []
    for i in trace.faults:
        ev = trace.steps[i].fault
        if ev["victim"] in seen or ev.get("slot") not in trace.idx.sides:
            continue
        seen.add(ev["victim"])
        out.append(i)
    return out


def slot_done_after(trace: Trace, i: int) -> int | None:
    """How the slot of the fault at step ``i`` was done after it: the side (its index),
    -1 when its values reached the agent through other tools, None when not done."""
    slot_id = trace.steps[i].fault["slot"]
    side = trace.slot_completed_after(slot_id, i)
    if side is not None:
        return side
    idx = trace.idx
    last = len(trace.steps) - 1
    for k, cids in enumerate(idx.sides[slot_id]):
        need = _essential(trace, cids)
        if need and trace.side_progress(need, i, last) == len(need):
            return k
    if _lookups_only(trace, slot_id) and _values_reached(trace, i):
        return -1
    return None


def _essential(trace: Trace, cids: tuple[int, ...]) -> list[int]:
    """The calls of a side the path cannot do without: its Actions, else its Sources
    (but one of common knowledge, a city's time zone, the agent may skip), else the
    rest of them (a side of Processors: the retried conversion)."""
    idx = trace.idx
    specs = {c: idx.corpus[idx.calls[c].tool] for c in cids}
    cids = tuple(c for c in cids if not (specs[c].category == "Source"
                                         and derivable(specs[c]))) or cids
    for kind in ("Action", "Source"):
        found = [c for c in cids if specs[c].category == kind]
        if found:
            return found
    return list(cids)


def _lookups_only(trace: Trace, slot_id: str) -> bool:
    idx = trace.idx
    return all(idx.calls[c].tool not in idx.actions for side in idx.sides[slot_id]
               for c in side)


def _values_reached(trace: Trace, i: int) -> bool:
    """Every value of some length that the slot provides (this episode's, else the
    reference run's) appears in a clean response after step ``i`` of a tool that is
    neither the faulted one nor downstream of the slot."""
    ev = trace.steps[i].fault
    slot_id = ev["slot"]
    provided: Mapping[str, Any] = trace.best()[0].outputs.get(slot_id, {})
    shown = [str(v) for v in provided.values()
             if isinstance(v, (str, int, float)) and not isinstance(v, bool)
             and len(str(v)) >= MIN_SHOWN]
    if not shown:
        return False
    skip = trace.idx.downstream[slot_id] | {ev.get("tool")}
    bodies = [s.observation for s in trace.steps[i + 1:] if s.clean_ok
              and s.action.get("name") not in skip]
    return all(any(v in body for body in bodies) for v in shown)


def _switched(trace: Trace, i: int, done: int) -> bool:
    """Whether the slot of the fault at step ``i``, done as ``done`` says, was done by
    another side or tool than the faulted one."""
    idx = trace.idx
    ev = trace.steps[i].fault
    faulted = idx.fault_sides(ev)
    if done not in faulted:
        return True
    slot_id = ev["slot"]
    own = {idx.calls[c].tool for k in faulted for c in idx.sides[slot_id][k]}
    others = set(idx.slot_by_id[slot_id].tools) - own
    return any(s.clean_ok and s.action.get("name") in others for s in trace.steps[i + 1:])
