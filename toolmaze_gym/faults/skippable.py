"""Steps a careful agent may skip, so a fault there would go unmet.

A fault tests recovery only when the agent meets it: its victim must be a call
that every careful way of doing the task makes. A careful agent skips a step when

* it can do without it (``corpus.derivations.can_do_without``): the step is an
  exact derivation (a formatted price, a translation, a VAT rate added) or its
  read outputs are common knowledge (a city's country, the city an airport code
  serves), asked of each side of the step on the tools the fault may fall on (an
  implicit fault corrupts the side's first call alone: toolmaze-v8 c4-0069 put its
  P3/P4 faults on the summarizer before the post, and a careful player who wrote its
  own summary never met them); or
* the grader accepts the task done without it (``grading``): every value later
  steps read from it was already in the request or an earlier response, so the
  step answers nothing new (a conversion from USD to USD, a conversion of 0, a
  lookup the request answers), or nothing the user asked for depends on it; or
* what later calls read of it is elsewhere (``ELSEWHERE``): every value later calls
  read of the step's first call, of the same type, is in the response of a call every
  careful agent makes anyway without it (a call of another step that does not hang on
  this one, about the same thing: it shares a value with the step's arguments).
  toolmaze-v4's play-test met faults in 19 of 21 episodes: c1-0076 P1's
  victim get_stock_quote was skipped because place_stock_order returns the fill price
  the position is valued at, and c3-0008 P4's find_contact because
  lookup_contact_by_email, an earlier step, had already given the phone number.

The first two questions go to the code the grader itself uses, never to a copy: the fault
engine then lays no fault the grader would let an agent walk past (toolmaze-v3's
c3-0009 put its P1 fault on a USD→USD conversion, and careful players reported
"faults: none fired"). ``misplaced_victims`` is the same rule as a static check
over built profiles (``suite_misplaced`` runs it over a whole suite).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.derivations import can_do_without
from toolmaze_gym.tasks.model import Task

# Reasons a step can be skipped, as the check prints them.
DERIVABLE = "a careful agent can do without it (a derivation or common knowledge)"
AT_HAND = ("the grader accepts the task done without it (what it gives is at hand, or "
           "nothing asked needs it)")
ELSEWHERE = ("what later calls read of it, another step every careful agent takes "
             "returns too")

_CACHE: dict[tuple[str, int, bool], tuple[Task, dict[str, str]]] = {}
_CACHE_MAX = 2048


def skip_reasons(task: Task, sim: Simulator, implicit: bool = False) -> dict[str, str]:
    """slot id -> why a careful agent may skip it, for every skippable slot of
    ``task`` (cached per task object: victim choice asks once per mode).

    ``implicit``: the fault would corrupt the slot's first call only (implicit modes),
    so a slot whose first call a careful agent skips is skippable even where an Action
    follows in the slot (find_contact before send_sms); an explicit fault falls on
    whichever of the slot's tools the agent calls first, so that slot's Action meets it.
    """
    key = (task.id, id(task), implicit)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is task:
        return hit[1]
    from toolmaze_gym.tasks.suites import task_simulator

    sim = task_simulator(task, sim)  # the task's world edition
    reasons: dict[str, str] = {}
    for slot in task.slots:
        why = _reason(task, sim, slot.id, implicit)
        if why:
            reasons[slot.id] = why
    if len(_CACHE) > _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = (task, reasons)
    return reasons


def _reason(task: Task, sim: Simulator, slot_id: str, implicit: bool) -> str:
    if _can_do_without(task, sim, slot_id) or _side_done_without(task, sim, slot_id, implicit):
        return DERIVABLE
    if _grader_accepts_without(task, sim, slot_id):
        return AT_HAND
    if _read_elsewhere(task, sim, slot_id, implicit):
        return ELSEWHERE
    return ""


def _can_do_without(task: Task, sim: Simulator, slot_id: str) -> bool:
    corpus = sim.corpus
    reads = [(t, [corpus[x] for x in task.slot_by_id[v].tools])
             for u, v, t in task.edges() if u == slot_id]
    return can_do_without([corpus[t] for t in task.slot_by_id[slot_id].tools], reads)


def _side_done_without(task: Task, sim: Simulator, slot_id: str, implicit: bool) -> bool:
    """Whether some side of the slot lets a careful agent pass every tool the fault may
    fall on: the side's first tool for an implicit fault, all its tools for an explicit
    one. A tool before another of its side feeds only that one, so an agent that
    derives its output calls the next tool without it; the side's last tool feeds the
    later steps (``can_do_without`` on what they read). ``_can_do_without`` asks this of
    the slot's tools together, so a derivation followed by an Action in one side
    escaped it: toolmaze-v8 c4-0069 put its P3/P4 faults on ``generate_tldr`` /
    ``summarize_key_points`` before the message is posted, and a careful player who
    wrote the summary itself never met the fault."""
    corpus = sim.corpus
    reads = [(t, [corpus[x] for x in task.slot_by_id[v].tools])
             for u, v, t in task.edges() if u == slot_id]
    for side in task.slot_by_id[slot_id].alternatives:
        hit = range(1) if implicit else range(len(side))
        if all(can_do_without([corpus[side[i]]], reads if i == len(side) - 1 else [])
               for i in hit):
            return True
    return False


def same_value(a: Any, b: Any) -> bool:
    """Two response values that say the same thing (numbers within float noise, never a
    bool for a number)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return isinstance(a, str) and isinstance(b, str) and a == b


def _typed_values(spec, body: dict[str, Any]) -> list[tuple[str, Any]]:
    """(type, value) of every non-echo field of a response, as given and canonical."""
    out = []
    for f in spec.returns:
        v = body.get(f.name)
        if v is None or f.echo:
            continue
        out.append((f.type, v))
        canonical = f.to_canonical(v)
        if not same_value(canonical, v):
            out.append((f.type, canonical))
    return out


def _downstream(task: Task, slot_id: str) -> set[str]:
    """``slot_id`` and every slot that hangs on it through the DAG's edges."""
    out, edges = {slot_id}, task.edges()
    grew = True
    while grew:
        grew = False
        for u, v, _ in edges:
            if u in out and v not in out:
                out.add(v)
                grew = True
    return out


def _about(call: Any, looked_up: list[Any]) -> bool:
    """Whether ``call`` is about what the victim looked up: one of its arguments or
    response values is one of the victim's arguments (the order placed for the symbol
    quoted, the contact found by e-mail with the name searched for). A date or an amount
    another call returns for another thing is a coincidence, not the value (v4 c4-0081:
    a shipping estimate's delivery date equal to the late order's)."""
    values = [*call.args.values(), *call.response.values()]
    return any(same_value(a, v) for a in looked_up for v in values)


def _read_elsewhere(task: Task, sim: Simulator, slot_id: str, implicit: bool) -> bool:
    """Whether every value a later call of s* sends from the response of the slot's
    first call (the call an implicit fault corrupts) is, with its type, in the response
    of a call of s* that does not hang on the slot: an agent may take it there instead
    (place_stock_order's fill price for get_stock_quote's price). An Action is never
    skippable (the grader requires each): no slot with one, or with ``implicit`` none
    whose first tool is one; nor is a step nothing later reads, nor one whose read
    values only it gives."""
    corpus = sim.corpus
    slot = task.slot_by_id[slot_id]
    tools = [side[0] for side in slot.alternatives] if implicit else slot.tools
    if any(corpus[t].category == "Action" for t in tools):
        return False
    calls = task.default_path.calls
    k = next((i for i, c in enumerate(calls) if c.slot == slot_id), None)
    if k is None:
        return False
    from toolmaze_gym.corpus.alternatives import canonical_arguments

    first = calls[k]
    sent: list[Any] = []
    for c in calls[k + 1:]:
        sent += list(c.args.values())
        sent += list(canonical_arguments(corpus[c.tool], c.args).values())
    stated = [e.get("value") for e in task.entities]
    read = [(t, v) for t, v in _typed_values(corpus[first.tool], first.response)
            if any(same_value(v, x) for x in sent) and not any(same_value(v, x) for x in stated)]
    if not read:
        return False
    hanging = _downstream(task, slot_id)
    about = list(first.args.values())
    elsewhere = [tv for c in calls if c.slot not in hanging and _about(c, about)
                 for tv in _typed_values(corpus[c.tool], c.response)]
    return all(any(t == t2 and same_value(v, v2) for t2, v2 in elsewhere) for t, v in read)


def _grader_accepts_without(task: Task, sim: Simulator, slot_id: str) -> bool:
    """Whether the grader calls a success the reference run (s*) with ``slot_id``'s
    calls left out, and matches every later call that reads the step: the values it
    sends from the step passed the grader's test of what the agent could have had (a
    lookup is never matched for an id only the skipped step could give). The asked
    values the episode still has are told; one asked of the skipped step itself is left
    untold (the agent would have to know it)."""
    if not any(c.slot == slot_id for c in task.default_path.calls):
        return False
    # Imported here: the grader and the episode load the fault engine themselves.
    from toolmaze_gym.grading import grade
    from toolmaze_gym.grading.index import task_index
    from toolmaze_gym.grading.trace import Trace

    steps = _reference_without(task, sim, slot_id)
    if steps is None or not grade(task, _no_faults(task), steps, False, sim).success:
        return False
    idx = task_index(task, sim.corpus)
    best = Trace(idx, steps).best()[0]
    readers = {v for u, v, _ in task.edges() if u == slot_id}
    return all(cid in best.steps for cid in best.path.cids
               if idx.calls[cid].slot in readers)


def _no_faults(task: Task) -> Any:
    from toolmaze_gym.faults.profiles import FaultProfile

    return FaultProfile(task.id, "P0", ())


def _reference_without(task: Task, sim: Simulator, skip: str) -> list | None:
    """The steps of s* played in the env without ``skip``'s calls, then a finish that
    tells the asked values (None if the episode ended early)."""
    from toolmaze_gym.agents.scripted import call_text
    from toolmaze_gym.episode import Episode
    from toolmaze_gym.grading.asked_facts import all_asks
    from toolmaze_gym.tasks.queries import say_as

    ep = Episode(task, "P0", sim, _no_faults(task))
    for c in task.default_path.calls:
        if c.slot != skip and not ep.done:
            ep.step(call_text(c.tool, c.args))
    if ep.done:
        return None
    told = "".join(f" {say_as(m[0], m[1])}." for m in all_asks(task, sim.corpus)
                   if len(m) < 3 or m[2] != skip)
    ep.step(json.dumps({"name": "finish", "arguments": {"answer": f"Done.{told}"}},
                       ensure_ascii=False))
    return list(ep.steps)


def misplaced_victims(task: Task, profiles: Iterable[Any], sim: Simulator) -> list[str]:
    """A line per fault victim of ``profiles`` (``FaultProfile``s of ``task``) that a
    careful agent may skip: a fault there is one no careful player meets."""
    from toolmaze_gym.faults.modes import get_mode

    lines = []
    for p in profiles:
        reasons = skip_reasons(task, sim, implicit=not get_mode(p.mode).explicit)
        lines += [f"{task.id} {p.mode}: victim {v.slot} ({', '.join(v.tools)}): "
                  f"{reasons[v.slot]}" for v in p.victims if v.slot in reasons]
    return lines


def suite_misplaced(source: str, sim: Simulator | None = None) -> list[str]:
    """``misplaced_victims`` over every task of a suite and its profiles: a shipped
    suite by name, or a ``build-suite --out`` directory (profiles checked against its
    manifest). The lead runs it over a new suite before shipping it; empty means every
    fault sits where every careful agent goes::

        python -c "from toolmaze_gym.faults.skippable import suite_misplaced as s;
                   print(*s('runs/v4-build'), sep=chr(10))"
    """
    from pathlib import Path

    from toolmaze_gym.faults.store import read_profiles
    from toolmaze_gym.tasks.files import load_tasks

    sim = sim or Simulator()
    if Path(source).is_dir():
        profiles = read_profiles(Path(source), source)
    else:
        from toolmaze_gym.faults.store import shipped_profiles

        profiles = shipped_profiles(source)
    by_task: dict[str, list[Any]] = {}
    for (task_id, _), p in sorted(profiles.items()):
        by_task.setdefault(task_id, []).append(p)
    return [line for task in load_tasks(source)
            for line in misplaced_victims(task, by_task.get(task.id, ()), sim)]
