"""Recovery cost: c* and the remaining optimal cost (the shaping potential).

c* is the fewest agent steps (the final finish/abort included) from just after the
first perturbed response to the end, under the same fault rules: what is left of
the shortest valid path the faults leave open, given the progress made so far.

For a grade, c* counts what an agent that makes *this* agent's choices would still
have to do: the required Actions not done yet, and only those lookups (Sources
and Processors) that this agent called after the fault. A lookup it did not make
again costs nothing: it already had the value, knew it, or derived it itself. So
neither deriving a value nor calling a converter is recovery cost, and c >= c*
(``agent_optimal_after``). The shaping potential (``remaining_optimal``) counts
every call of the cheapest side, since the agent's later choices are unknown then.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading.effects import SENT
from toolmaze_gym.grading.index import TaskIndex, task_index
from toolmaze_gym.grading.trace import Trace
from toolmaze_gym.tasks.enumeration import min_remaining_calls
from toolmaze_gym.tasks.model import Task


def optimal_after(trace: Trace, profile: FaultProfile, limit: int) -> int:
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
            unusable.setdefault(f["slot"], set()).update(idx.fault_sides(f))
    rest = min_remaining_calls(task, completed, unusable, progress)
    if rest is None:
        return 1
    fired = {f["victim"] for f in fault_steps}
    pending = sum(1 for k, v in enumerate(profile.victims)
                  if k not in fired and v.slot not in completed)
    return rest + pending + 1


def tools_called_after(steps: Sequence[Step], first: int) -> Counter[str]:
    """How often the agent called each tool after step ``first`` (its lookups count
    in c* at most that often)."""
    return Counter(s.action.get("name") for s in steps[first + 1:] if s.kind == "call")


def agent_optimal_after(trace: Trace, profile: FaultProfile, limit: int,
                        called: Mapping[str, int]) -> int:
    """c* of a grade: the fewest steps (the final one included) after step ``limit``
    for an agent that makes this agent's choices (``called``: how often it called
    each tool after ``limit``). Per slot, the cheapest usable side (of those whose
    tools the agent called after the fault, where it called any): its Actions not
    made yet, its lookups this agent called again, and one more call where a victim
    that has not fired yet lies on those calls; a lookup tool is counted at most as
    often as the agent called it (one call can serve two slots, a city's geocode).
    Where a permanent fault left no tool for a step and the agent completed the task
    all the same (the values it needed were known or derivable), that step costs
    nothing and the rest is priced as usual, never as the one step of a stop."""
    idx = trace.idx
    completed = trace.best()[1]
    if idx.unsolvable(profile) and trace.faults and trace.faults[0] <= limit \
            and not completed:
        return 1  # nothing left to do but stop
    unusable: dict[str, set[int]] = {}
    fired = set()
    for i in trace.faults:
        f = trace.steps[i].fault
        if i <= limit:
            fired.add(f["victim"])
            if profile.permanent:
                unusable.setdefault(f["slot"], set()).update(idx.fault_sides(f))
    ahead = [(v.slot, set(v.tools)) for k, v in enumerate(profile.victims) if k not in fired]
    faulted = {trace.steps[i].action.get("name") for i in trace.faults if i <= limit}
    by_tool, called = called, _by_kind(idx.corpus, called)
    fixed, lookups = 0, Counter()
    for slot_id in idx.slot_ids:
        gone = unusable.get(slot_id, ())
        usable = [cids for k, cids in enumerate(idx.sides[slot_id]) if k not in gone]
        # The sides this agent went for after the fault, where it went for any.
        chosen = [cids for cids in usable if any(by_tool.get(idx.calls[c].tool) for c in cids)]
        here = [tools for slot, tools in ahead if slot == slot_id]
        hit = [set(v.tools) for k, v in enumerate(profile.victims)
               if k in fired and v.slot == slot_id] if len(chosen) > 1 else []
        spare = _spare_lookups(idx, slot_id, unusable.get(slot_id, set()), faulted, called)
        options = [_side_cost(trace, cids, limit, called, here, hit, spare)
                   for cids in chosen or usable]
        if not options:
            if completed:  # the agent had the slot's values without its tools
                continue
            return 1
        n, tools = min(options, key=lambda o: o[0] + len(o[1]))
        fixed += n
        lookups.update(tools)
    return fixed + sum(min(k, called.get(t, 0)) for t, k in lookups.items()) + 1


def _spare_lookups(idx: TaskIndex, slot_id: str, unusable: set[int], faulted: set[str],
                   called: Mapping[str, int]) -> list[str]:
    """The lookups of a step's unusable sides that the agent called after the fault
    and that are no faulted tool: a side is unusable because one of its tools keeps
    failing, not its other lookups, so a clean get_flight_status beside the other
    side's fare search did the work of that side's flightaware lookup (grading version
    15, v6 play-test c3-0092 P4: C_rec 0.25 for the shortest path the agent had)."""
    return [_kind(idx.corpus, idx.calls[c].tool)
            for k, cids in enumerate(idx.sides[slot_id]) if k in unusable
            for c in cids if idx.calls[c].tool not in idx.actions
            and idx.calls[c].tool not in faulted
            and called.get(_kind(idx.corpus, idx.calls[c].tool))]


def _side_cost(trace: Trace, cids: Sequence[int], limit: int, called: Mapping[str, int],
               ahead: Sequence[set[str]], hit: Sequence[set[str]] = (),
               spare: Sequence[str] = ()) -> tuple[int, list[str]]:
    """What one side still costs such an agent (see ``agent_optimal_after``): the
    Actions it never attempted, and the tools whose calls count at most as often as
    the agent made them after the fault (its lookups, and the Actions it attempted:
    right or wrong, one call each is its choice). A victim that has not fired yet
    costs one call more of the same kind; so does one that fired (``hit``, given
    where the agent used tools of several sides) on a tool of this side that the
    agent did not call again: the faulty answer gave it nothing, so this side is no
    cheaper for a Processor of its kind the agent called on another side. ``spare``:
    lookups of an unusable side the agent called cleanly instead of this side's
    (``_spare_lookups``)."""
    idx = trace.idx
    actions = [c for c in cids if idx.calls[c].tool in idx.actions]
    made = trace.side_progress(actions, -1, limit) if actions else 0
    left = [idx.calls[c].tool for c in actions[made:]]
    never = [t for t in left if not called.get(t) and not _attempted(trace, t, limit)]
    tools = [t for t in left if called.get(t)]
    lookups = [_kind(idx.corpus, idx.calls[c].tool) for c in cids
               if idx.calls[c].tool not in idx.actions]
    tools += [k for k in lookups if called.get(k)]
    skipped = [c for c in cids if idx.calls[c].tool not in idx.actions
               and not called.get(_kind(idx.corpus, idx.calls[c].tool))]
    stood = _stand_ins(trace, skipped, limit)
    tools += stood
    # A skipped lookup whose work a clean lookup of an unusable side did (``spare``).
    tools += [t for t in spare if t not in lookups][:max(0, len(skipped) - len(stood))]
    fixed = len(never)
    for victim in ahead:  # a fault still ahead costs one call more (a retry, a switch)
        # It fires on the first call of the group that the agent makes: a call it did
        # make (a lookup of the group it called after the fault) or one it must make.
        if victim.intersection(never) or any(called.get(_kind(idx.corpus, t))
                                             for t in victim):
            fixed += 1
    side = {idx.calls[c].tool for c in cids}
    fixed += sum(1 for victim in hit
                 if side & victim and not any(called.get(t) for t in side & victim))
    return fixed, tools


def _stand_ins(trace: Trace, skipped: Sequence[int], limit: int) -> list[str]:
    """The tools of the agent's calls after the fault that did the work of lookups
    ``skipped`` (lookups of the side it never called), calls no expected call of
    the path is matched to: a skipped lookup whose value the rest of the path reads
    (an id, a name) was neither known before the fault nor derived when the agent
    first saw it in a later response of another tool (the Stockholm sensor's id from
    ``find_device`` for ``list_room_devices``, v5 c3-0016), so that call costs what
    the lookup would have (grading version 14). ``agent_optimal_after`` counts each
    tool at most as often as the agent called it, a Processor by its kind (``_kind``)
    as the side's own Processors are (grading version 21)."""
    idx, view = trace.idx, trace.view
    out: list[str] = []
    taken: set[int] | None = None
    for cid in skipped:
        wanted = idx.handed_on(cid)
        if not wanted:
            continue
        if taken is None:  # steps that are calls of the path
            taken = set(trace.best()[0].steps.values())
        tool = idx.calls[cid].tool
        # The cheap tests first: a later call of another tool, no call of the path,
        # whose response shows the value; then whether it was known before the fault.
        # An Action done through another tool (``effects``) whose response first showed
        # the value got it from the world, as part of the Action: no lookup's work.
        step = next((j for j in range(limit + 1, len(view.steps))
                     if (j not in taken or SENT in view.steps[j].action)
                     and view.steps[j].clean_ok
                     and view.steps[j].action.get("name") != tool
                     and any(v in (view.steps[j].observation or "") for _, v in wanted)),
                    None)
        if step is not None and SENT not in view.steps[step].action \
                and not any(view.seen(t, v, limit + 1) for t, v in wanted):
            # counted as what it computes: one convert_datetime call that stood in for
            # the time zone lookup is the side's own conversion too, never two calls
            # (v9 play-test c3-0043 P3, the shift made before the conversion)
            out.append(_kind(idx.corpus, view.steps[step].action.get("name")))
    return out


def _kind(corpus: Corpus, tool: str) -> str:
    """What a call counts as: a Processor by what it computes (the agent that called
    convert_datetime would call timezone_convert on the other side), any other tool
    by its name."""
    spec = corpus.tools.get(tool)
    return f"={spec.behaviour}" if spec is not None and spec.category == "Processor" else tool


def _by_kind(corpus: Corpus, called: Mapping[str, int]) -> Counter[str]:
    out: Counter[str] = Counter()
    for tool, n in called.items():
        out[tool] += n
        kind = _kind(corpus, tool)
        if kind != tool:
            out[kind] += n
    return out


def optimal_cost(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
                 first: int) -> int:
    """c*: the fewest steps (final one included) from after step ``first``."""
    return optimal_after(Trace(task_index(task, corpus), steps[: first + 1]), profile,
                    first)


def remaining_optimal(corpus: Corpus, task: Task, profile: FaultProfile,
                      steps: Sequence[Step]) -> int:
    """The fewest steps still needed from the current point (shaping potential)."""
    return optimal_cost(corpus, task, profile, steps, len(steps) - 1)


def _attempted(trace: Trace, tool: str, limit: int) -> bool:
    """Whether the agent called ``tool`` cleanly by step ``limit``."""
    made = trace.view.by_tool.get(tool, ())
    return bool(made) and made[0] <= limit
