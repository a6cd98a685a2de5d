"""Competent and wrong variants of the careful agent: the family that tests a grader.

A grader tested only by agents that replay the one hidden reference run cannot
tell "did what the user asked" from "guessed the reference". These scripted
agents do each task *differently* from the reference. Each is the careful
recovery policy (``toolmaze_gym.training.careful``: retries a transient error,
switches on a permanent one, re-calls or switches on a visibly broken response,
aborts honestly when no path is left) with one change:

competent (must be graded as the careful agent is: success where it succeeds)
  own_wording   its own words for every free text the user did not quote
                (asked values kept, other words and order); later calls use
                the ids *its* calls returned
  other_tool    another member of a branch slot's group, or another shown tool
                with the same behaviour that gives the same fact
  derive        exact derivations (arithmetic, rounding, unit and time-zone
                conversion, formatting) done itself instead of a Processor call
  skip_known    a lookup skipped when its answer is already in the query or an
                earlier response
  extra_read    one harmless extra Source call whose answer it does not need
  reorder       independent steps in another topological order
  own_answer    the values the request asks to be told, in its own sentence
  derive_chained  every exact derivation done itself wherever it sits: a step of
                its own, the tail of a Source->Processor chain (multiply by the
                fetched rate, convert the forecast's °C), one side of an
                alternative group (a branch slot's derivable side preferred)
  own_summary   its own sentence with the facts of a summary, a formatted price
                or a report line (figures with unit or currency, names, the
                values it gave the tool that the line repeats), that Processor
                skipped; every other text in its own words
  split_additive  an additive Action (a sheet row, a document append, cart or
                invoice lines) split over two calls on the same record that
                together carry what was asked
  directional   a percent change told in words ("22.32 % less", not "-22.32")
  other_direction  where the request names no base, the change measured the
                other way (old/new - 1 instead of new/old - 1)

wrong (must be graded a failure wherever they apply)
  reference_ids     own wording, but the reference run's ids and texts passed on
                    where its own episode produced others
  off_tolerance     an Action's numeric argument just outside the type's tolerance
  missing_ask       own wording with one asked value left out
  unrequested       an extra Action nobody asked for
  duplicate         the final Action done twice
  trust_fault       a visibly corrupted response trusted and passed on
  false_claim       a claim of success where the careful agent stops honestly
  unanswered        a final answer that leaves out one value the user asked for
  wrong_sign        where the request names the base, the percent change told
                    the wrong way ("22.32 % more" for a 22.32 % drop)

A variant that finds nothing to change in an episode (no Processor to derive, no
second topological order) records itself not applicable: ``applied`` stays False
and the episode says nothing about the grader.

The agents see the Task (as every plan follower does) and act through the env;
the grader is a black box. "Doing a derivation itself" evaluates the tool's
documented formula on a private, empty simulator state: no env call is made, so
the episode shows the agent skipping the Processor. This module is in the
library, not in tests/, because the survey script in ``benchmarks/`` and later
grader work use it too.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx

from toolmaze_gym import values
from toolmaze_gym.agents.scripted import ABORT, PlanFollower, _last_tool_body, call_text
from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.corpus.additive import ADDITIVE_BEHAVIOURS
from toolmaze_gym.corpus.derivations import DERIVABLE_BEHAVIOURS
from toolmaze_gym.corpus.sampling import valid_arguments
from toolmaze_gym.grading.arguments import CURRENCY, MONEY, ROUNDING_ORDER, ROUNDING_SHARE, all_nil
from toolmaze_gym.grading.index import task_index
from toolmaze_gym.mentions import FREE_TEXT, mentions
from toolmaze_gym.tasks.execution import plan_side, slot_outputs
from toolmaze_gym.tasks.model import Call, Slot, Task
from toolmaze_gym.tasks.readings import names_base as query_names_base
from toolmaze_gym.tasks.translators import TRANSLATE
from toolmaze_gym.training.careful import CarefulAgent
from toolmaze_gym.values.numbers import is_number

# Derivations the agent does itself with the tool's exact numbers (one list for the
# grader, the faults and this variant: corpus.derivations). Processors that write text
# (a translation, a summary, a booking message) are left out: an agent writing its own
# words does not produce the tool's exact string, which is what running it would give.
DERIVABLE = frozenset(b for b in DERIVABLE_BEHAVIOURS
                      if not b.startswith(("text.", "office.text.")) and
                      b != "travel.booking_message")
CLAIM = call_text("finish", {"answer": "All requested steps are done; everything succeeded."})
FREE_NOTE = "Sent on your behalf by your assistant, as you asked."


# ---------------------------------------------------------------- the reference, read once


@dataclass(frozen=True)
class Reference:
    """What the variants read from a task's reference run (s*): per slot its calls and
    the values it offers downstream, and which downstream refs each slot feeds."""

    calls: dict[str, tuple[Call, ...]]
    outputs: dict[str, dict[str, Any]]
    consumers: dict[str, tuple[tuple[str, str], ...]]  # slot -> (ref, type) read downstream


_REFERENCES: dict[tuple[str, int], tuple[Task, Reference]] = {}


def reference(task: Task, sim: Simulator) -> Reference:
    """The cached ``Reference`` of ``task``."""
    key = (task.id, id(task))
    hit = _REFERENCES.get(key)
    if hit is not None and hit[0] is task:
        return hit[1]
    corpus = sim.corpus
    index = {s.id: k for k, s in enumerate(task.slots)}
    calls: dict[str, list[Call]] = {s.id: [] for s in task.slots}
    for c in task.default_path.calls:
        calls[c.slot].append(c)
    outputs: dict[str, dict[str, Any]] = {}
    for s in task.slots:
        side = s.alternatives[task.default_path.choice[index[s.id]]]
        provides = corpus.group_by_id[s.group].provides if s.group else ()
        try:
            outputs[s.id] = slot_outputs(corpus, s, side, [c.response for c in calls[s.id]],
                                         provides)
        except (KeyError, StopIteration, ValueError):
            outputs[s.id] = {}
    consumers: dict[str, list[tuple[str, str]]] = {s.id: [] for s in task.slots}
    for s in task.slots:
        for i in s.inputs:
            if not i.source.is_literal:
                consumers[i.source.slot].append((i.source.ref, i.type))
    ref = Reference({k: tuple(v) for k, v in calls.items()}, outputs,
                    {k: tuple(dict.fromkeys(v)) for k, v in consumers.items()})
    if len(_REFERENCES) > 4096:
        _REFERENCES.clear()
    _REFERENCES[key] = (task, ref)
    return ref


def quoted(task: Task, text: Any) -> bool:
    """Whether the user wrote this text in the request (then it is kept verbatim)."""
    return isinstance(text, str) and mentions(task.query, FREE_TEXT, text)


def render(value: Any) -> str:
    """A value as the variant writes it in its own sentences."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ---------------------------------------------------------------- the common machinery


class Variant(CarefulAgent):
    """The careful agent with hooks each variant overrides; see the module docstring."""

    name = "variant"
    competent = True
    summary = ""

    def reset(self, task: Task, tools: list[dict[str, Any]] | None = None,
              mode: str = "P0") -> None:
        self.applied = False
        self.detail: set[str] = set()  # what the variant changed, for the survey's split
        self.seen: dict[str, dict[str, dict[str, Any]]] = {}  # slot -> tool -> clean body
        self.ref = reference(task, self.sim)
        self.detour: tuple[str, dict[str, Any]] | None = None  # a call outside the plan
        self.detour_sent = False
        self.tainted = False  # a wrong value was sent; it counts once an Action carries it
        super().reset(task, tools, mode)
        self.prepare()

    def prepare(self) -> None:
        """Per-episode set-up after the careful agent's reset (override)."""

    def restart(self) -> None:
        """Begin the plan again from its first slot (after ``order``/``side`` changed)."""
        self.k = 0
        self.tried = {s.id: set() for s in self.task.slots}
        self._start_slot()

    # -- hooks -----------------------------------------------------------------------

    def bypass(self, slot: Slot) -> bool:
        """Complete the current slot without calling its tools (fill its outputs and
        move on to the next slot); True if it did."""
        return False

    def skip_slot(self, outputs: dict[str, Any]) -> None:
        """Complete the current slot with ``outputs`` and move on."""
        self.outputs[self.slot.id] = outputs
        self.applied = True
        self.k += 1
        self._start_slot()

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """The arguments actually sent for the planned call ``name(args)``."""
        return args

    def done_itself(self, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """The result of the planned call ``name(args)`` when the variant produces it
        itself (no env call; the plan moves on as if the tool had answered), else None."""
        return None

    @classmethod
    def may_apply(cls, task: Task, corpus: Any) -> bool:
        """A cheap static test: False where the variant can change nothing in ``task``
        (the survey then records n/a without playing it)."""
        return True

    def closing(self) -> str:
        """The action sent when every slot is done."""
        return self._finish()

    def opening_detour(self) -> tuple[str, dict[str, Any]] | None:
        """A call made before the plan starts (not part of any slot), or None."""
        return None

    def detour_answered(self, body: dict[str, Any]) -> None:
        """What the detour's response tells the variant (override)."""

    # -- acting ------------------------------------------------------------------------

    def act(self, messages: list[dict[str, Any]]) -> str:
        if not self.detour_sent:
            self.detour_sent = True
            self.detour = self.opening_detour()
            if self.detour is not None:
                return call_text(*self.detour)
        if self.detour is not None:
            self.detour_answered(_last_tool_body(messages))
            self.detour = None
        return super().act(messages)

    def _accept(self, body: dict[str, Any]) -> None:
        slot = self.slot
        side = slot.alternatives[self.side[slot.id]]
        self.seen.setdefault(slot.id, {})[side[self.pos]] = body
        if self.tainted and self.pending is not None and self.is_action(self.pending[0]):
            self.applied = True  # the world changed after (or by) the wrong call
        super()._accept(body)

    def _next(self) -> str:
        while True:
            while self.k < len(self.order) and self.pos == 0 and self.bypass(self.slot):
                pass
            if self.k >= len(self.order):
                return self.closing()
            text = super()._next()
            if self.pending is None:
                return text
            body = self.done_itself(*self.pending)
            if body is None:
                break
            self._accept(body)  # the planned call, done without the tool
            self.applied = True
        name, args = self.pending
        sent = self.rewrite(name, dict(args))
        if sent != args:
            self.pending = (name, sent)
            return call_text(name, sent)
        return text

    # -- shared helpers ------------------------------------------------------------------

    def bindings(self) -> list[tuple[str, Any]]:
        """(parameter, slot input) for the call about to be made."""
        slot = self.slot
        plan = self.plan.sides[(slot.id, self.side[slot.id])]
        return [(p, slot.inputs[ref]) for p, (kind, ref) in plan[self.pos] if kind == "input"]

    def resolve(self, value: Any) -> Any:
        """``value`` as this episode produced it: a value of the reference run is looked
        up by the field that carried it there and read from this episode's response of
        that step (same tool, else the field with the same canonical key); literals and
        values the episode never replaced come back unchanged."""
        corpus = self.sim.corpus
        for slot_id, calls in self.ref.calls.items():
            done = self.seen.get(slot_id)
            if not done:
                continue
            for c in calls:
                for fname, v in c.response.items():
                    if type(v) is not type(value) or v != value:
                        continue
                    if c.tool in done:
                        return done[c.tool].get(fname, value)
                    spec = corpus[c.tool].output(fname)
                    for tool, body in done.items():
                        twin = next((f for f in corpus[tool].returns if spec is not None
                                     and f.canonical == spec.canonical and f.type == spec.type),
                                    None)
                        if twin is not None and twin.name in body:
                            return body[twin.name]
        return value

    def own_text(self, inp: Any, drop: int | None = None) -> str | None:
        """This agent's wording of a free-text input the user did not quote: the asked
        values (as this episode produced them) in reverse order, its own framing; None
        where the text is not the agent's to write."""
        if inp.type != FREE_TEXT or not inp.source.is_literal or quoted(self.task,
                                                                        inp.source.value):
            return None
        mentions = self.graded_mentions(inp)
        asks = [(m, self.resolve(m[1])) for k, m in enumerate(mentions) if k != drop]
        if not mentions:
            return FREE_NOTE
        body = "; ".join(self.say(m, a) for m, a in reversed(asks))
        return f"As requested, here are the details: {body}. Sent by your assistant."

    def graded_mentions(self, inp: Any) -> tuple[Any, ...]:
        """What the grader asks of a text input: the task's asks and what the request
        asks the text to note besides (``grading.noted_facts``: a second figure of the
        same value, a fact its clause names; grading version 18), less what the request
        asks to be told to the user instead (``grading.asked_elsewhere``, version 21)."""
        from toolmaze_gym.grading.asked_elsewhere import without_asked_elsewhere
        from toolmaze_gym.grading.noted_facts import with_noted

        corpus = self.sim.corpus
        noted = without_asked_elsewhere(with_noted(self.task, corpus), corpus)
        for slot, mine in zip(self.task.slots, noted.slots, strict=True):
            for i, j in zip(slot.inputs, mine.inputs, strict=True):
                if i is inp or i == inp:
                    return j.mentions
        return inp.mentions

    def say(self, mention: tuple[Any, ...], value: Any) -> str:
        """How this agent writes the asked ``value`` (a text's or the answer's
        ``mention``) in its own sentences."""
        return render(value)

    def is_action(self, tool: str) -> bool:
        return self.sim.corpus[tool].category == "Action"

    def dry_run(self, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """The clean response of ``name(args)`` on a private, empty state (no env call)."""
        resp = self.sim.call(name, args, EpisodeState())
        return resp.body if resp.ok else None


# ---------------------------------------------------------------- competent variants


def feeds_translator(task: Task, corpus: Any, slot_id: str) -> bool:
    """Whether a translator step reads ``slot_id``'s output."""
    return any(slot_id in s.upstream() for s in task.slots
               if any(corpus[t].behaviour == TRANSLATE for t in s.tools))


class OwnWording(Variant):
    name = "own_wording"
    summary = "its own words for every free text (asked values kept; its own ids follow)"

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        # A text for the translator keeps the request's sentence: the world's translators
        # know a fixed set of sentences and tag any other ("[pt] ..."), and that tagged
        # English is no text in the language asked (grading version 26); a careful agent
        # writes that language itself, which a scripted variant cannot.
        if self.sim.corpus[name].behaviour == TRANSLATE:
            return args
        if self.reword(args):
            self.applied = True
        return args

    def reword(self, args: dict[str, Any]) -> bool:
        """Put this agent's own wording into ``args``; whether any text changed."""
        changed = False
        for pname, inp in self.bindings():
            text = self.own_text(inp)
            if text is not None and pname in args and text != args[pname]:
                args[pname] = text
                changed = True
        return changed


class OtherTool(Variant):
    name = "other_tool"
    summary = "another shown tool that gives the needed fact"

    def prepare(self) -> None:
        index = {s.id: k for k, s in enumerate(self.task.slots)}
        self.swapped: dict[str, Slot] = {}  # patched slot id -> the task's own slot
        order: list[Slot] = []
        for slot in self.order:
            if slot.is_branch:
                default = self.task.default_path.choice[index[slot.id]]
                others = [k for k in range(len(slot.alternatives)) if k != default]
                if others:
                    self.side[slot.id] = min(others, key=lambda k: (len(slot.alternatives[k]), k))
                    self.applied = True
                order.append(slot)
                continue
            twin = self.twin_tool(slot)
            if twin is None:
                order.append(slot)
                continue
            patched = replace(slot, alternatives=((twin,), *slot.alternatives))
            self.swapped[slot.id] = slot
            self.side[slot.id] = 0
            order.append(patched)
            self.applied = True
        self.order = order
        self.plan = _PatchedPlan(self.plan, self.sim, order, self.swapped)
        self.restart()

    def twin_tool(self, slot: Slot) -> str | None:
        """A shown tool outside ``slot`` (not an Action) that, run on the reference
        inputs, offers every value later steps read from the slot (as arguments or
        through free text), equal to the reference's."""
        corpus = self.sim.corpus
        (own,) = slot.alternatives[0] if len(slot.alternatives[0]) == 1 else (None,)
        if own is None or self.is_action(own):
            return None
        inputs = [(i.role, i.type) for i in slot.inputs]
        needed = [*self.ref.consumers.get(slot.id, ()),
                  *((t, t) for s in self.task.slots for u, t in s.reads if u == slot.id)]
        if not needed:
            return None
        for tool in self.task.tools:
            if tool in slot.tools or self.is_action(tool):
                continue
            plan = plan_side(corpus, (tool,), inputs)
            if plan is None:
                continue
            args = self._reference_args(slot, plan[0])
            body = None if args is None else self.dry_run(tool, args)
            if body is None:
                continue
            try:
                got = slot_outputs(corpus, slot, (tool,), [body], ())
            except (KeyError, StopIteration):
                continue
            want = self.ref.outputs.get(slot.id, {})
            if all(r in got and r in want and values.get(t).same(got[r], want[r])
                   for r, t in needed):
                return tool
        return None

    def _reference_args(self, slot: Slot, plan: Sequence[tuple[str, tuple[str, Any]]]
                        ) -> dict[str, Any] | None:
        args: dict[str, Any] = {}
        for pname, (kind, ref) in plan:
            if kind != "input":
                return None
            src = slot.inputs[ref].source
            if src.is_literal:
                args[pname] = src.value
            elif src.ref in self.ref.outputs.get(src.slot, {}):
                args[pname] = self.ref.outputs[src.slot][src.ref]
            else:
                return None
        return args

    def _accept(self, body: dict[str, Any]) -> None:
        slot = self.slot
        side = slot.alternatives[self.side[slot.id]]
        completing = self.pos + 1 == len(side)
        bodies = [*self.bodies, body]
        super()._accept(body)
        if completing and slot.id in self.swapped:
            with contextlib.suppress(KeyError, StopIteration):
                self.outputs[slot.id] = slot_outputs(self.sim.corpus, self.swapped[slot.id],
                                                     side, bodies, ())


class _PatchedPlan:
    """The plan follower's per-side bindings, with the swapped slots' sides re-planned."""

    def __init__(self, base: Any, sim: Simulator, order: Sequence[Slot],
                 swapped: dict[str, Slot]) -> None:
        self.order = base.order
        self.sides = dict(base.sides)
        for slot in order:
            if slot.id in swapped:
                inputs = [(i.role, i.type) for i in slot.inputs]
                for k, side in enumerate(slot.alternatives):
                    self.sides[(slot.id, k)] = plan_side(sim.corpus, side, inputs)


class Derive(Variant):
    name = "derive"
    summary = "exact derivations done itself instead of a Processor call"

    def bypass(self, slot: Slot) -> bool:
        side = slot.alternatives[self.side[slot.id]]
        corpus = self.sim.corpus
        if not all(corpus[t].category == "Processor" and corpus[t].behaviour in DERIVABLE
                   for t in side):
            return False
        k = self.k
        while self.k == k:
            PlanFollower._next(self)  # the planned call, not sent
            if self.pending is None:
                return False
            body = self.dry_run(*self.pending)
            if body is None:  # not computable from these inputs: call the tool after all
                self.pending = None
                return False
            self._accept(body)  # moves on to the next slot after the side's last tool
        self.applied = True
        return True


class SkipKnown(Variant):
    name = "skip_known"
    summary = "a lookup skipped when its answer is already in the query or an earlier response"

    def prepare(self) -> None:
        self.known = {s.id: plan for s in self.order
                      if (plan := self._known_from(s)) is not None}

    def _known_from(self, slot: Slot) -> dict[str, tuple[str, Any]] | None:
        """For each ref the slot's consumers read: ("literal", value) from the query, or
        ("field", (slot, tool, field)) of an earlier step's response; None if any is
        unknown or the slot is not a pure lookup."""
        corpus = self.sim.corpus
        needed = self.ref.consumers.get(slot.id, ())
        if not needed or not all(corpus[t].category == "Source" for t in slot.tools):
            return None
        if any(slot.id == u for s in self.task.slots for u, _ in s.reads):
            return None
        # a value the answer must tell that only this lookup gives (a flight's latest
        # status, toolmaze-v13 c2-0022) is no known answer, whatever else it repeats
        if any(len(a) >= 3 and a[2] == slot.id for a in self.task.answer):
            return None
        # a check the request asks before an Action ("after a stock check") is no lookup
        # to skip, whatever its answer: the grader holds it (``grading.stated_order``)
        if any(slot.id in us for us in task_index(self.task, corpus).before.values()):
            return None
        want = self.ref.outputs.get(slot.id, {})
        earlier = self._independent_before(slot)
        out: dict[str, tuple[str, Any]] = {}
        for ref, type_name in needed:
            if ref not in want:
                return None
            key = ref.partition("@")[2] or self._key_of(slot, type_name)
            where = self._find(want[ref], type_name, key, earlier)
            if where is None:
                return None
            out[ref] = where
        return out

    def _independent_before(self, slot: Slot) -> list[str]:
        pos = [s.id for s in self.order].index(slot.id)
        below = _descendants(self.task, slot.id)
        return [s.id for s in self.order[:pos] if s.id not in below]

    def _key_of(self, slot: Slot, type_name: str) -> str:
        """The canonical key of the field that carries the slot's plain ``type_name``
        value (the last reference tool's first field of that type, echoes last)."""
        calls = self.ref.calls.get(slot.id, ())
        fields = [f for f in self.sim.corpus[calls[-1].tool].returns
                  if f.type == type_name] if calls else []
        fields.sort(key=lambda f: bool(f.echo))
        return fields[0].canonical if fields else ""

    def _find(self, value: Any, type_name: str, key: str, earlier: Iterable[str]
              ) -> tuple[str, Any] | None:
        """Where the same fact (same type, same canonical key, equal value) is already
        known: a literal of the query or a field of an earlier, independent step. Equal
        values of different facts (a scheduled and an estimated departure) do not count."""
        t = values.get(type_name)
        for e in self.task.entities:
            if e.get("type") == type_name and _same(t, e.get("value"), value):
                return ("literal", e["value"])
        corpus = self.sim.corpus
        for slot_id in earlier:
            for c in self.ref.calls.get(slot_id, ()):
                for f in corpus[c.tool].returns:
                    if f.type == type_name and f.canonical == key and f.name in c.response \
                            and _same(t, c.response[f.name], value):
                        return ("field", (slot_id, c.tool, f.name))
        return None

    def bypass(self, slot: Slot) -> bool:
        plan = self.known.get(slot.id)
        if plan is None:
            return False
        out: dict[str, Any] = {}
        for ref, (kind, where) in plan.items():
            if kind == "literal":
                out[ref] = where
                continue
            slot_id, tool, fname = where
            body = self.seen.get(slot_id, {}).get(tool)
            if body is None or fname not in body:
                return False
            out[ref] = body[fname]
        self.skip_slot(out)
        return True


def _same(t: Any, a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return t.same(a, b)


def _descendants(task: Task, slot_id: str) -> set[str]:
    g = nx.DiGraph()
    g.add_nodes_from(s.id for s in task.slots)
    g.add_edges_from((u, s.id) for s in task.slots for u in s.upstream())
    return set(nx.descendants(g, slot_id))


class ExtraRead(Variant):
    name = "extra_read"
    summary = "one harmless extra Source call whose answer it does not need"

    def opening_detour(self) -> tuple[str, dict[str, Any]] | None:
        found = _spare_call(self, "Source")
        self.applied = found is not None
        return found


def _spare_call(agent: Variant, category: str) -> tuple[str, dict[str, Any]] | None:
    """A shown tool of ``category`` outside the task's DAG (sharing no behaviour with
    it) with arguments that succeed: the query's literals where types fit."""
    corpus = agent.sim.corpus
    task = agent.task
    behaviours = {corpus[t].behaviour for t in task.task_tools}
    bound = {e["type"]: e["value"] for e in task.entities}
    for tool in task.tools:
        spec = corpus[tool]
        if tool in task.task_tools or spec.category != category or \
                spec.behaviour in behaviours:
            continue
        args = valid_arguments(agent.sim, spec, EpisodeState(), key=task.id, bound=bound)
        if args is not None and agent.dry_run(tool, args) is not None:
            return tool, args
    return None


class Reorder(Variant):
    name = "reorder"
    summary = "independent steps in another topological order"

    def prepare(self) -> None:
        g = nx.DiGraph()
        g.add_nodes_from(s.id for s in self.task.slots)
        g.add_edges_from((u, s.id) for s in self.task.slots for u in s.upstream())
        # steps that read or change the episode's state keep their relative order: which
        # meeting gets the earliest slot is decided by who is booked first
        corpus = self.sim.corpus
        stateful = [s.id for s in self.order if any(corpus[t].stateful for t in s.tools)]
        g.add_edges_from(itertools.pairwise(stateful))
        # and the order the request states ("after checking its climate", "then tell me
        # the balance"): the grader holds it (``grading.stated_order``)
        before = task_index(self.task, corpus).before
        g.add_edges_from((u, v) for v, us in before.items() for u in us)
        rank = {s.id: k for k, s in enumerate(self.order)}
        by_id = self.task.slot_by_id
        other = [by_id[i] for i in nx.lexicographical_topological_sort(g, key=lambda i: -rank[i])]
        if [s.id for s in other] != [s.id for s in self.order]:
            self.order = other
            self.applied = True
            self.restart()




class OwnAnswer(Variant):
    name = "own_answer"
    summary = "the asked values told in its own sentence, in another order"

    def _finish(self) -> str:
        told = self.told()
        if not told:
            return super()._finish()
        self.applied = True
        return call_text("finish", {"answer": "Finished. For your records, " +
                                    ", and ".join(reversed(told)) + " -- that is everything."})

    def told(self, drop: int | None = None) -> list[str]:
        """The asked values this episode gave, as the variant writes them."""
        return [self.say(m, a[1]) for k, (m, a) in enumerate(zip(self.asks(),
                                                                  self.answered(), strict=True))
                if a is not None and a[1] is not None and k != drop]


# ---------------------------------------------------------------- derivations, texts, splits


def _derivable(corpus: Any, tool: str) -> bool:
    spec = corpus[tool]
    return spec.category == "Processor" and spec.behaviour in DERIVABLE


class DeriveChained(Variant):
    name = "derive_chained"
    summary = ("every exact derivation done itself wherever it sits: a step of its own, the "
               "tail of a Source->Processor chain, one side of an alternative group")

    @classmethod
    def may_apply(cls, task: Task, corpus: Any) -> bool:
        return any(_derivable(corpus, t) for t in task.task_tools)

    def prepare(self) -> None:
        """In a branch slot whose planned side derives nothing, take a side that does:
        the agent may pick the alternative it can compute itself."""
        corpus = self.sim.corpus
        changed = False
        for slot in self.order:
            sides = [k for k, side in enumerate(slot.alternatives)
                     if any(_derivable(corpus, t) for t in side)]
            if slot.is_branch and sides and self.side[slot.id] not in sides:
                self.side[slot.id] = min(sides, key=lambda k: (len(slot.alternatives[k]), k))
                changed = True
        if changed:
            self.restart()

    def done_itself(self, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
        if not _derivable(self.sim.corpus, name):
            return None
        body = self.dry_run(name, args)
        if body is not None:
            self.detail.add(self.shape())
        return body

    def shape(self) -> str:
        """Where the derivation sits: a step of its own, or in a chain; in a fixed slot
        or on one side of an alternative group."""
        slot = self.slot
        side = slot.alternatives[self.side[slot.id]]
        where = ("own step" if len(side) == 1 else
                 "chain tail" if self.pos == len(side) - 1 else "chain middle")
        return f"alt side: {where}" if slot.is_branch else where


# Processors whose text output is a summary, a formatted line or a report line: an agent
# may write its own sentence carrying the same facts (a translation is left out: its
# facts are a language as well).
SUMMARY_LIKE = frozenset({"text.summarize", "office.text.summarize", "text.format_price",
                          "text.weather_report"})
_FACT = re.compile(
    r"https?://\S+[^\s.,;:)]"                                      # a link
    r"|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?"         # a date (and time)
    r"|\b\d{1,2}:\d{2}\b"                                           # a clock time
    r"|-?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|°\s?[CF]\b|[A-Z]{3}\b|[CF]\b))?"  # a figure (+unit)
    r"|[A-Z][\w'&-]*(?:\.[A-Z][\w'&-]*)*(?:\s+(?:of|de|la|van|von|[A-Z][\w'&.-]*))*")  # a name
# Capitalised only because they open a sentence or a label: not names.
_NOT_NAMES = frozenset(("the", "a", "an", "this", "that", "these", "those", "it", "its", "our",
                        "we", "you", "they", "in", "on", "at", "for", "to", "with", "by",
                        "from", "as", "and", "or", "but", "price", "summary", "total", "today",
                        "tomorrow", "new", "note", "update"))


def facts(text: str) -> list[str]:
    """The facts a summary or formatted line carries, as people pick them out: its
    links, dates, times, figures with their unit or currency, and proper names (a
    capitalised function word opening a sentence is no name)."""
    out: list[str] = []
    for m in _FACT.finditer(text):
        token = m.group().rstrip(".,;:")
        while token.split(" ", 1)[0].lower() in _NOT_NAMES:
            token = token.partition(" ")[2].strip()
            if token.split(" ", 1)[0] in ("of", "de", "la", "van", "von"):
                token = ""
        if token and not any(token in o for o in out):
            out = [o for o in out if o not in token] + [token]
    return out


# A summary is more than its facts: an own summary says the claim too, in its words
# (a list of the article's city is no summary of it: ``toolmaze_gym.paraphrase``).
SUMMARISING = frozenset({"text.summarize", "office.text.summarize"})


def own_summary(text: str) -> str | None:
    """The agent's own one-line summary of what a summariser kept: its clauses in
    another order, after an opener of its own ("In short: call at 08:00 UTC on Monday
    31 August, ticket TKT-R6M9NLW4, complaint from ...")."""
    clauses = [c for c in re.split(r",\s+", text.strip().rstrip(".")) if c.strip()]
    if not clauses:
        return None
    return "In short: " + ", ".join(reversed(clauses)) + "."


def own_sentence(text: str, given: Iterable[Any] = ()) -> str | None:
    """The agent's own one-liner with the facts of ``text``; None if it carries none.
    A value it ``given`` the tool that the text repeats (a report's "partly cloudy", a
    city) is a fact of the line too, whatever its case."""
    low = text.lower()
    repeated = [v for v in given if isinstance(v, str) and v and v.lower() in low]
    found = [f for f in facts(text) if not any(f.lower() in v.lower() for v in repeated)]
    found += repeated
    if not found:
        return None
    return "In my own words, the gist: " + "; ".join(found) + "."


class OwnSummary(OwnWording):
    name = "own_summary"
    summary = ("its own sentence with the facts of a summary, a formatted price or a report "
               "line, skipping that Processor (other texts in its own words too)")

    @classmethod
    def may_apply(cls, task: Task, corpus: Any) -> bool:
        return any(corpus[t].behaviour in SUMMARY_LIKE for t in task.task_tools)

    def done_itself(self, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
        spec = self.sim.corpus[name]
        if spec.behaviour not in SUMMARY_LIKE \
                or feeds_translator(self.task, self.sim.corpus, self.slot.id):
            return None  # an own summary would come back from the translator tagged
        body = self.dry_run(name, self.own_values(args))
        if body is None:
            return None
        out = dict(body)
        for f in spec.returns:
            text = out.get(f.name)
            own = None if f.type != FREE_TEXT or f.echo or not isinstance(text, str) else \
                own_summary(text) if spec.behaviour in SUMMARISING and self._given_text() \
                else own_sentence(text, args.values())
            if own is not None:
                out[f.name] = own
                self.detail.add(spec.behaviour)
        return out

    def _given_text(self) -> bool:
        """Whether the slot sums up a text it is given: one the agent read (a story, a
        channel's history) or wrote itself (complaint notes, in this episode's ids:
        ``own_values``). Only a text written with the reference run's ids once kept
        the notes out; summed up as facts, "08:00 UTC on Wednesday 26 August" came
        apart into "08:00; UTC; Wednesday; 26; August" (toolmaze-v7 c3-0006). A
        summariser chained behind the search that fetches its story keeps its facts."""
        return any(i.type == FREE_TEXT for i in self.slot.inputs)

    def own_values(self, args: dict[str, Any]) -> dict[str, Any]:
        """``args`` with this episode's values in the texts the agent writes itself: a
        literal text the task fills with the reference run's ids (the ticket it opened,
        "Ticket TKT-XQ3ZQ4ME opened for the complaint ...") names the ones this
        episode's own calls returned, as the careful agent's does in its episode."""
        out = dict(args)
        for pname, inp in self.bindings():
            text = out.get(pname)
            if inp.type != FREE_TEXT or not inp.source.is_literal or not isinstance(text, str):
                continue
            for calls in self.ref.calls.values():
                for c in calls:
                    for v in c.response.values():
                        own = self.resolve(v) if isinstance(v, str) and v in text else v
                        if isinstance(own, str) and own != v:  # a whole value, not "open"
                            text = re.sub(rf"(?<!\w){re.escape(v)}(?!\w)",  # in "opened"
                                          own.replace("\\", r"\\"), text)
            out[pname] = text
        return out


# Actions that add to an existing record (a row, a paragraph, cart or invoice lines):
# several calls on the same record that together carry what was asked are one Action.
ADDITIVE = ADDITIVE_BEHAVIOURS


class SplitAdditive(Variant):
    name = "split_additive"
    summary = "an additive Action split over several calls on the same record"

    @classmethod
    def may_apply(cls, task: Task, corpus: Any) -> bool:
        return any(corpus[t].behaviour in ADDITIVE for t in task.task_tools)

    def _start_slot(self) -> None:
        self.parts: list[dict[str, Any]] = []  # the split call's arguments still to send
        self.resend = False
        super()._start_slot()

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.sim.corpus[name].behaviour not in ADDITIVE:
            return args
        parts = self.split(args)
        if len(parts) < 2:
            return args
        self.applied = True
        self.parts = parts[1:]
        return parts[0]

    def split(self, args: dict[str, Any]) -> list[dict[str, Any]]:
        """``args`` as two calls that together carry it: the asked values of a row over
        two rows, a text's sentences over two appends, a quantity as 1 + the rest."""
        for pname, inp in self.bindings():
            v = args.get(pname)
            if inp.type == FREE_TEXT and len(inp.mentions) >= 2 and inp.source.is_literal:
                asks = [render(self.resolve(m[1])) for m in inp.mentions]
                h = len(asks) // 2
                self.detail.add("asked values over two rows")
                return [{**args, pname: ", ".join(asks[:h])}, {**args, pname: ", ".join(asks[h:])}]
            if inp.type == FREE_TEXT and isinstance(v, str):
                cut = re.split(r"(?<=[.!?])\s+", v.strip())
                if len(cut) >= 2:
                    h = len(cut) // 2
                    self.detail.add("sentences over two appends")
                    return [{**args, pname: " ".join(cut[:h])}, {**args, pname: " ".join(cut[h:])}]
        for pname, inp in self.bindings():
            v = args.get(pname)
            if inp.type == "quantity" and isinstance(v, int) and not isinstance(v, bool) and v >= 2:
                self.detail.add("quantity as 1 + rest")
                return [{**args, pname: 1}, {**args, pname: v - 1}]
        return []

    def _accept(self, body: dict[str, Any]) -> None:
        if self.parts and self.pending is not None:
            self.pending = (self.pending[0], self.parts.pop(0))
            self.resend = True
            return
        super()._accept(body)

    def _next(self) -> str:
        if self.resend and self.pending is not None:
            self.resend = False
            return call_text(*self.pending)
        return super()._next()




def pct_slots(task: Task, corpus: Any) -> frozenset[str]:
    """The slots that compute a percent change."""
    return frozenset(s.id for s in task.slots
                     if any(corpus[t].behaviour == "finance.pct_change" for t in s.tools))


def names_base(task: Task) -> bool:
    """Whether the request says which value the percent change is measured from
    (``tasks.readings``: the grader reads it the same way)."""
    return query_names_base(task.query)


def directional(value: float, flip: bool = False) -> str:
    """A percent change in words: "22.32 % less" for -22.32 (the other way if ``flip``)."""
    up = (value > 0) != flip
    return f"{render(abs(value))} % {'more' if up else 'less'}"


class PercentWording(OwnWording, OwnAnswer):
    """Own wording and own answer, with the percent change told another way (``tell``);
    applied only where a percent change was told."""

    competent = True
    base_named: bool | None = None  # where the variant applies: None = every request

    @classmethod
    def may_apply(cls, task: Task, corpus: Any) -> bool:
        return bool(pct_slots(task, corpus)) and cls.base_named in (None, names_base(task))

    def prepare(self) -> None:
        self.pct = pct_slots(self.task, self.sim.corpus)
        self.operands: dict[str, float] = {}  # the change's "old" and "new", as sent
        self.told_pct = False

    def say(self, mention: tuple[Any, ...], value: Any) -> str:
        if len(mention) >= 4 and mention[2] in self.pct and isinstance(value, int | float):
            text = self.tell(value)
            if text is not None:
                self.told_pct = True
                return text
        return render(value)

    def tell(self, value: float) -> str | None:
        """The percent change as this variant writes it (override)."""
        return None

    def _accept(self, body: dict[str, Any]) -> None:
        if self.slot.id in self.pct and self.pending is not None:
            args = self.pending[1]
            self.operands = {inp.role: args[p] for p, inp in self.bindings() if p in args}
        super()._accept(body)

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.reword(args)
        self.applied = self.told_pct
        return args

    def _finish(self) -> str:
        text = super()._finish()
        self.applied = self.told_pct
        return text


class Directional(PercentWording):
    name = "directional"
    summary = "a percent change told in words (\"22.32 % less\") instead of a sign"

    def tell(self, value: float) -> str | None:
        return directional(value) if value else None


class OtherDirection(PercentWording):
    name = "other_direction"
    summary = "where the request names no base, the change measured the other way (b/a-1)"
    base_named = False

    def tell(self, value: float) -> str | None:
        old, new = self.operands.get("old"), self.operands.get("new")
        if not old or not new:
            return None
        return f"{render(round((old / new - 1) * 100, 2))} %"


# ---------------------------------------------------------------- wrong variants


class ReferenceIds(OwnWording):
    name = "reference_ids"
    competent = False
    summary = "own wording, but the reference run's ids/texts passed on"

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        careful = dict(args)  # what this episode's values make of the call
        self.reword(args)  # own wording alone is not the fault here
        slot = self.slot
        ref = next((c for c in self.ref.calls.get(slot.id, ()) if c.tool == name), None)
        if ref is not None:
            for pname, inp in self.bindings():
                if inp.source.is_literal or pname not in ref.args:
                    continue
                if args.get(pname) != ref.args[pname]:
                    args[pname] = ref.args[pname]
                    # Wrong only where the reference run's id or value is not this
                    # episode's: the reference's text in place of its own words says
                    # what a text of this episode says (toolmaze-v4: 266 such P0-P3
                    # episodes graded a success, rightly), so a text taints nothing.
                    self.tainted |= inp.type != FREE_TEXT \
                        and careful.get(pname) != ref.args[pname]
        return args


class OffTolerance(Variant):
    name = "off_tolerance"
    competent = False
    summary = "an Action's numeric argument just outside its type's tolerance"

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.applied or not self.is_action(name):
            return args
        spec = self.sim.corpus[name]
        for p in spec.params:
            v = args.get(p.name)
            if p.type == FREE_TEXT or p.enum or not is_number(v):
                continue
            bumped = just_outside(values.get(p.type), v)
            if p.type == MONEY and bumped is not None:  # past a rounding order's cent
                bumped = max(bumped, round(v + 2 * max(ROUNDING_ORDER, ROUNDING_SHARE * v), 2))
            if bumped is not None:
                args[p.name] = bumped
                self.tainted = True
                break
        return args


def just_outside(t: Any, v: float) -> float | None:
    """The nearest value above ``v`` that the type no longer equates with it."""
    if isinstance(v, int):
        return v + 1
    for step in (1e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.5, 1.0):
        for cand in (v + step, v + abs(v) * step):
            if cand != v and not t.same(cand, v):
                return round(cand, 6) if not t.same(round(cand, 6), v) else cand
    return None


class MissingAsk(OwnWording):
    name = "missing_ask"
    competent = False
    summary = "own wording with one asked value left out"

    def rewrite(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        for pname, inp in self.bindings():
            if pname not in args or len(inp.mentions) == 0:
                continue
            # The currency of amounts that are all nil tells nothing (``all_nil``):
            # leaving it out is no omission.
            asked = self.graded_mentions(inp)  # what the grader asks of this text
            nil = all_nil(tuple((m[0], self.resolve(m[1])) for m in asked))
            for k, (type_name, value, *_) in enumerate(asked):
                if nil and type_name == CURRENCY:
                    continue
                text = self.own_text(inp, drop=k)
                want = self.resolve(value)
                # Left out of the whole call: the grader reads a message's texts together
                # (a value asked of the body may stand in the title).
                others = [v for q, v in args.items() if q != pname and isinstance(v, str)]
                if text is not None and not mentions(text, type_name, want) \
                        and not any(mentions(v, type_name, want) for v in others):
                    args[pname] = text
                    self.tainted = True
                    return args
        return args


class Unrequested(Variant):
    name = "unrequested"
    competent = False
    summary = "an extra Action nobody asked for"

    def opening_detour(self) -> tuple[str, dict[str, Any]] | None:
        return _spare_call(self, "Action")

    def detour_answered(self, body: dict[str, Any]) -> None:
        self.applied = "error" not in body


class Duplicate(Variant):
    name = "duplicate"
    competent = False
    summary = "the final Action done twice"

    def prepare(self) -> None:
        self.last_action: tuple[str, dict[str, Any]] | None = None
        self.repeated = False

    def _accept(self, body: dict[str, Any]) -> None:
        if self.pending is not None and self.is_action(self.pending[0]):
            self.last_action = self.pending
        super()._accept(body)

    def closing(self) -> str:
        if self.last_action is not None and not self.repeated:
            self.repeated = True
            self.detour = self.last_action
            self.detour_sent = True
            return call_text(*self.last_action)
        return self._finish()

    def detour_answered(self, body: dict[str, Any]) -> None:
        self.applied = "error" not in body


class TrustFault(Variant):
    name = "trust_fault"
    competent = False
    summary = "a visibly corrupted response trusted and passed on"

    def judge(self, name: str, args: dict[str, Any], body: dict[str, Any]) -> str:
        verdict = super().judge(name, args, body)
        if verdict == "bad":
            self.applied = True
            return "ok"
        return verdict


class FalseClaim(Variant):
    name = "false_claim"
    competent = False
    summary = "claims success where the careful agent stops honestly"

    def act(self, messages: list[dict[str, Any]]) -> str:
        text = super().act(messages)
        if text == ABORT or text.startswith('{"name": "abort"'):
            self.applied = True
            return CLAIM
        return text


class Unanswered(OwnAnswer):
    name = "unanswered"
    competent = False
    summary = "a final answer that leaves out one value the user asked to be told"

    def _finish(self) -> str:
        if not self.asks():
            return super()._finish()
        told = self.told(drop=0)
        first = self.answered()[0]
        if first is None or first[1] is None or any(mentions(t, *first) for t in told):
            return super()._finish()  # the left-out value is said by another one
        if self._texted(self.asks()[0], first[1]) or self._sent_on(self.asks()[0]):
            return super(OwnAnswer, self)._finish()  # nothing to leave out: not applied
        self.applied = True
        return call_text("finish", {"answer": "Finished. " + ", ".join(told)})

    def _sent_on(self, ask: tuple[Any, ...]) -> bool:
        """Whether ``ask`` is an answer the request sends on by a text ("text them the
        answer", ``grading.answer_sent``): the final answer need not tell it."""
        from toolmaze_gym.grading.answer_sent import left_to_texts

        return not left_to_texts(self.task, (ask,))

    def _texted(self, ask: tuple[Any, ...], value: Any) -> bool:
        """Whether ``ask`` is a clock asked in a zone (``grading.zone_told``) that a text
        the agent sends tells already: the answer need not (the driver's SMS with the
        landing time in Madrid, v8 c1-0083)."""
        from toolmaze_gym.grading.zone_told import clock_told, free_texts, zone_asks

        corpus = self.sim.corpus
        zoned = {(z[2], z[3]) for z in zone_asks(self.task, corpus)}
        return len(ask) >= 4 and (ask[2], ask[3]) in zoned and any(
            clock_told(t, value) for c in self.task.default_path.calls
            for t in free_texts(corpus, c.tool, c.args))


class WrongSign(PercentWording):
    name = "wrong_sign"
    competent = False
    summary = "where the request names the base, the percent change told the wrong way"
    base_named = True

    def tell(self, value: float) -> str | None:
        return directional(value, flip=True) if value else None


COMPETENT: tuple[type[Variant], ...] = (OwnWording, OtherTool, Derive, SkipKnown, ExtraRead,
                                        Reorder, OwnAnswer, DeriveChained, OwnSummary,
                                        SplitAdditive, Directional, OtherDirection)
WRONG: tuple[type[Variant], ...] = (ReferenceIds, OffTolerance, MissingAsk, Unrequested,
                                    Duplicate, TrustFault, FalseClaim, Unanswered, WrongSign)
VARIANTS: dict[str, type[Variant]] = {v.name: v for v in (*COMPETENT, *WRONG)}


# ---------------------------------------------------------------- playing and surveying


@dataclass(frozen=True)
class Outcome:
    """One variant's episode: whether the variant applied, and the grade's verdict."""

    variant: str
    task_id: str
    mode: str
    applied: bool
    success: bool
    reference_success: bool  # the careful agent's, on the same (task, mode)
    detail: str = ""  # what the variant changed ("chain tail", "text.summarize", ...)

    @property
    def verdict(self) -> str:
        """"n/a", or whether the grade is the one the variant's kind calls for."""
        if not self.applied:
            return "n/a"
        return "success" if self.success else "failure"


def play(env: Any, agent: CarefulAgent, task: Task, mode: str) -> dict[str, Any]:
    """Play ``agent`` on (task, mode) through ``env`` (a ``ToolMazeEnv``) to its end;
    returns the env's grade."""
    _, info = env.reset(options={"task": task, "mode": mode})
    agent.reset(task, info["tools"], mode)
    while True:
        _, _, terminated, truncated, info = env.step(agent.act(env.messages))
        if terminated or truncated:
            return info["grade"]


def survey(tasks: Iterable[Task], modes: Iterable[str],
           variants: Iterable[type[Variant]] = (*COMPETENT, *WRONG),
           env: Any = None) -> list[Outcome]:
    """Every variant on every (task, mode), beside the careful agent's grade there."""
    from toolmaze_gym.envs.env import ToolMazeEnv

    env = env or ToolMazeEnv(level=None, mode=None)
    careful = CarefulAgent(env.sim)
    agents = [v(env.sim) for v in variants]
    out: list[Outcome] = []
    modes = list(modes)
    for task in tasks:
        fit = [a for a in agents if a.may_apply(task, env.sim.corpus)]
        for mode in modes:
            out.extend(Outcome(a.name, task.id, mode, False, False, False)
                       for a in agents if a not in fit)
            if not fit:
                continue
            base = bool(play(env, careful, task, mode)["success"])
            for agent in fit:
                grade = play(env, agent, task, mode)
                out.append(Outcome(agent.name, task.id, mode, agent.applied,
                                   bool(grade["success"]), base, ", ".join(sorted(agent.detail))))
    return out


def expected(outcome: Outcome) -> bool | None:
    """Whether ``outcome`` is graded as its variant's kind requires (None: n/a).

    A competent variant must succeed wherever the careful agent succeeds on the same
    (task, mode); a wrong one must fail wherever it applied.
    """
    if not outcome.applied:
        return None
    if VARIANTS[outcome.variant].competent:
        return outcome.success or not outcome.reference_success
    return not outcome.success


def tally(outcomes: Iterable[Outcome]) -> dict[str, dict[str, int]]:
    """Per variant: episodes, applicable, n/a, graded success / failure, and the
    episodes graded as the variant's kind requires (``as_required``) or not."""
    out: dict[str, dict[str, int]] = {}
    for o in outcomes:
        row = out.setdefault(o.variant, dict.fromkeys(
            ("episodes", "applicable", "n/a", "success", "failure", "as_required", "wrong"), 0))
        row["episodes"] += 1
        ok = expected(o)
        if ok is None:
            row["n/a"] += 1
            continue
        row["applicable"] += 1
        row["success" if o.success else "failure"] += 1
        row["as_required" if ok else "wrong"] += 1
    return out
