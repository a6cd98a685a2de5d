"""What grading needs to know about one task, computed once per (task, corpus).

Expected calls are kept as *bindings*, not values: each argument is a literal of
the query, a field of an earlier slot's response, or a value produced earlier in
the same side. The grader resolves them against the episode being graded
(``toolmaze_gym.grading.resolution``), so the ids and texts an agent's own calls
produced are the right ones downstream; the reference run's values stand in only
for world facts the agent did not look up.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.corpus.derivations import derivable, keeps_part, own_text_skips
from toolmaze_gym.corpus.spec import flat_form
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading.arguments import (
    ADDRESSEE,
    EITHER_DIRECTION,
    GIST,
    IN_FAHRENHEIT,
    IN_LANGUAGE,
    TEXT_FACTS,
    Matcher,
    TextRule,
    stated_places,
)
from toolmaze_gym.grading.asked_condition import (
    condition_asked,
    rain_question,
    without_narrowed_condition,
)
from toolmaze_gym.grading.asked_elsewhere import without_asked_elsewhere
from toolmaze_gym.grading.asked_references import is_reference, references_asked
from toolmaze_gym.grading.asked_zone import asked_clock, at_visit_clock
from toolmaze_gym.grading.converted_reading import CONVERTED_F
from toolmaze_gym.grading.earnings_surprise import ACTUAL, EPS_SURPRISE, ESTIMATE, surprise
from toolmaze_gym.grading.headline_words import HEADLINE_WORDS
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.grading.stated_order import stated_order
from toolmaze_gym.grading.sum_currency import CURRENCY, SUM_IN, currency_beside
from toolmaze_gym.grading.summary_beside import GIST_BESIDE
from toolmaze_gym.grading.untranslated import tagged_languages
from toolmaze_gym.grading.venue_clock import AT_VENUE, venue_reading
from toolmaze_gym.grading.visa_need import VISA_NEED, VISA_TYPE_KEY, visa_asked_whether
from toolmaze_gym.identity_cache import IdentityCache
from toolmaze_gym.mentions import DATETIME_TYPES, FREE_TEXT, mentions
from toolmaze_gym.tasks.execution import shared_plan, topological_order
from toolmaze_gym.tasks.model import Call, Input, Slot, SolutionPath, Task
from toolmaze_gym.tasks.readings import asks_verbatim, names_base, quotes
from toolmaze_gym.world import get_world
from toolmaze_gym.world.base import load_data

# A request that names the Celsius scale asks for it ("in °C", "in Celsius").
_CELSIUS = re.compile(r"[°º]\s?C\b|℃|\bcelsius\b|\bcentigrade\b", re.IGNORECASE)


def _to_addressee(spec: TextSpec, slot: Slot) -> TextSpec:
    """A text the agent writes itself to a person the sending slot names (the SMS to
    Diego Kim) tells that person's name as a greeting does, by the given name: the
    reader is the person (``ADDRESSEE``)."""
    to = {i.source.value for i in slot.inputs
          if i.type == "person_name" and i.source.is_literal}
    if not to or not any(t == "person_name" for t, _ in spec.own):
        return spec
    own = tuple((ADDRESSEE if t == "person_name" and r.kind == "literal" and r.value in to
                 else t, r) for t, r in spec.own)
    return replace(spec, own=own)


@dataclass(frozen=True)
class Ref:
    """Where an expected value comes from: a literal, an upstream slot's output
    (``key`` as in ``execution.slot_outputs``), or an earlier tool of the same side
    (``key``: the semantic type), or an article a slot returned (``key``: its body's
    output, read with the same response's headline as "headline\nbody"). ``value`` is
    the reference run's value."""

    kind: str  # "literal" | "slot" | "local" | "article" | "surprise" (of an EPS pair) |
    # SUM_IN (a sum and its code: ``key`` "amount key|code key")
    value: Any = None
    slot: str = ""
    key: str = ""


@dataclass(frozen=True)
class TextSpec:
    """A free-text argument's rule with unresolved values (see ``TextRule``)."""

    need: tuple[tuple[str, Ref], ...]
    language: str = ""
    own: tuple[tuple[str, Ref], ...] = ()
    # Per entry of ``need`` that is a text a derivable Processor renders (a weather
    # report, a formatted price): what the agent's own rendering must say instead.
    alts: tuple[tuple[int, tuple[tuple[str, Ref], ...]], ...] = ()
    # Per entry of ``need`` that names a record: its other namings (``record_names``).
    names: tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...] = ()


@dataclass(frozen=True)
class Expected:
    """One expected call: its tool, argument bindings and text rules."""

    cid: int
    call: Call  # the reference run's call (values of world facts, ``response``)
    args: tuple[tuple[str, Ref], ...]
    texts: tuple[tuple[str, TextSpec], ...]
    action: bool  # an Action: required, changes the world, done once


@dataclass(frozen=True)
class PathIndex:
    choice: tuple[int, ...]
    cids: tuple[int, ...]  # expected call ids, in the path's canonical order
    deps: tuple[tuple[int, ...], ...]  # per call: positions (in cids) that must come first
    slots: tuple[tuple[str, tuple[int, ...]], ...]  # (slot, its cids) in topological order


def _deps(task: Task, path: SolutionPath,
          upstream: Mapping[str, Sequence[str]]) -> list[list[int]]:
    """For each call of ``path``: indices of calls that must come before it."""
    by_slot: dict[str, list[int]] = {}
    for k, c in enumerate(path.calls):
        by_slot.setdefault(c.slot, []).append(k)
    deps = []
    for k, c in enumerate(path.calls):
        earlier_in_side = [j for j in by_slot[c.slot] if j < k]
        deps.append(earlier_in_side + [j for u in upstream[c.slot] for j in by_slot[u]])
    return deps


def _closure(start: str, edges: Mapping[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(edges[s])
    return seen


def _mention_refs(inp: Input) -> tuple[tuple[str, Ref], ...]:
    """An input's required mentions; entries recorded with the step output they
    came from (type, value, slot, key) resolve against the episode."""
    out = []
    for m in inp.mentions:
        t, v = m[0], m[1]
        out.append((t, Ref("slot", v, m[2], m[3]) if len(m) >= 4 and m[2] else
                    Ref("literal", v)))
    return tuple(out)


_FACTS = "facts:"  # a naming's key whose facts, in any words, are its mention
HEADLINE = "text@headline"  # the output key of a news story's headline
# Processors that sum a text up (not those that pick its action items): an agent's own
# summary of a text it read is judged as a paraphrase of that text (``GIST``).
SUMMARISERS = frozenset({"text.summarize", "office.text.summarize"})


@lru_cache(maxsize=256)
def _namings_besides(key: str) -> tuple[tuple[str, ...], ...]:
    """The other namings of the record the output ``key`` names alone (none: ``key``
    names no record by itself)."""
    for namings in load_data("record_names.json")["records"].values():
        if [key] in namings:
            return tuple(tuple(n) for n in namings if n != [key])
    return ()


@lru_cache(maxsize=16)
def _actions(corpus: Corpus) -> frozenset[str]:
    """The corpus's Action tools: once per corpus, not once per task indexed."""
    return frozenset(n for n, s in corpus.tools.items() if s.category == "Action")


class TaskIndex:
    """What grading needs to know about one task, computed once."""

    def __init__(self, task: Task, corpus: Corpus) -> None:
        self.task = task
        self.corpus = corpus
        self.stated = stated_places(task.entities)  # places an optional argument may take
        # the request asks the weather condition itself (grading version 19)
        self.condition_asked = condition_asked(task)
        self.rain_question = rain_question(task)
        self.tagged = tagged_languages(task)  # a translator's "[es] ..." is the translation
        self.actions = _actions(corpus)
        self.calls: list[Call] = []
        self.expected: list[Expected] = []
        self.matchers: list[Matcher] = []
        self.literal: list[bool] = []  # per call: every value a literal (see ``matcher``)
        self.refs: list[tuple[Ref, ...]] = []  # per call: every binding its matcher reads
        self._literal_matchers: dict[int, Matcher] = {}
        self.ref_rules: list[dict[str, TextRule]] = []
        # per call: its bound arguments with their parameter specs, and its text specs
        # by parameter (what the resolver's provenance check reads, once per task)
        self.arg_params: list[tuple[tuple[str, Ref, Any], ...]] = []
        self.texts_of: list[dict[str, TextSpec]] = []
        self.by_tool: dict[str, list[int]] = {}
        self.paths: list[PathIndex] = []
        self.slot_ids = [s.id for s in task.slots]
        # slot id -> slot, once (``Task.slot_by_id`` builds the dict on every use)
        self.slot_by_id = by_id = task.slot_by_id
        upstream = {s.id: s.upstream() for s in task.slots}
        order = [s.id for s in topological_order(task.slots)]
        ids: dict[tuple[str, str, str], int] = {}
        for p in task.solutions:
            cids = []
            for c in p.calls:
                key = (c.slot, c.tool, repr(sorted(c.args.items())))
                if key not in ids:
                    ids[key] = len(self.calls)
                    self._add(ids[key], c, by_id[c.slot])
                cids.append(ids[key])
            per_slot = tuple((s, tuple(cid for cid in cids if self.calls[cid].slot == s))
                             for s in order)
            self.paths.append(PathIndex(tuple(p.choice), tuple(cids),
                                        tuple(tuple(d) for d in _deps(task, p, upstream)),
                                        per_slot))
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
        self.down_slots = {s: frozenset(_closure(s, children)) for s in self.slot_ids}
        self.downstream = {s: frozenset(t for d in self.down_slots[s] for t in by_id[d].tools)
                           for s in self.slot_ids}
        self.upstream = {s: _closure(s, parents) for s in self.slot_ids}
        # slot -> the slots the request states must come before it (grading version 21)
        self.before = stated_order(task, corpus, self.upstream, order)
        # What a slot's resolution reads: the slots upstream of it and those stated
        # before it (the resolver's memo).
        self.reads = {s: tuple(sorted(self.upstream[s] | self.before.get(s, frozenset())))
                      for s in self.slot_ids}
        self.paths_with: dict[int, tuple[int, ...]] = {}  # call id -> the paths it is on
        for k, path in enumerate(self.paths):
            for cid in path.cids:
                self.paths_with[cid] = (*self.paths_with.get(cid, ()), k)
        # (tool, parameter) -> values some expected call sends there.
        self.expected_args: dict[tuple[str, str], list[Any]] = {}
        for c in self.calls:
            for k, v in c.args.items():
                self.expected_args.setdefault((c.tool, k), []).append(v)
        self._matcher_cache: OrderedDict[tuple[int, str], Matcher] = OrderedDict()
        self._handed: dict[int, tuple[tuple[str, str], ...]] = {}
        self._sent: frozenset[str] | None = None
        self._needs: dict[tuple, set[str]] = {}
        self._side_tools: dict[tuple[int, ...], tuple] = {}
        self._echoes: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}
        self.effect_calls: dict[str, tuple] = {}  # tool -> ``effects._other_calls``
        # per slot: the slots its non-literal inputs come from, in input order
        self._sources = {s.id: tuple(i.source.slot for i in s.inputs if not i.source.is_literal)
                         for s in task.slots}
        # per tool: (type, field name) of what it returns, in order
        self._returned: dict[str, tuple[tuple[str, str], ...]] = {}
        # Responses parsed, and what a slot offers on given bodies: the same texts
        # come back episode after episode (a deterministic world), so each is read
        # once per task, not once per episode (bounded: a long run sees new ones).
        self._bodies: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
        self._outputs: OrderedDict[tuple, tuple[tuple, dict[str, Any]]] = OrderedDict()
        self._once: dict[str, Any] = {}  # what rules derive from the task alone (``once``)

    # -- building -------------------------------------------------------------

    def _add(self, cid: int, call: Call, slot: Slot) -> None:
        self.calls.append(call)
        args, texts = self._bindings(call, slot)
        exp = Expected(cid, call, args, texts, call.tool in self.actions)
        self.expected.append(exp)
        rules = self.text_rules(exp, None, None)
        self.ref_rules.append(rules)
        self.matchers.append(Matcher(self.corpus, call, rules, self.stated))
        self.refs.append(_refs(exp))
        self.literal.append(all(r.kind == "literal" for r in self.refs[-1]))
        self.by_tool.setdefault(call.tool, []).append(cid)
        spec = self.corpus[call.tool]
        self.arg_params.append(tuple((name, r, spec.param(name)) for name, r in args
                                     if spec.param(name) is not None))
        self.texts_of.append(dict(texts))

    def _bindings(self, call: Call, slot: Slot):
        side = next((a for a in slot.alternatives if call.tool in a), (call.tool,))
        plan = shared_plan(self.corpus, side, tuple((i.role, i.type) for i in slot.inputs))
        spec = self.corpus[call.tool]
        if plan is None:  # cannot happen for a built task: keep the reference values
            return tuple((k, Ref("literal", v)) for k, v in call.args.items()), ()
        params = {p.name: p for p in spec.params}
        args: list[tuple[str, Ref]] = []
        texts: list[tuple[str, TextSpec]] = []
        for pname, (kind, ref) in plan[side.index(call.tool)]:
            want = call.args.get(pname)
            if kind == "local":
                r = Ref("local", want, key=ref)
            else:
                src = slot.inputs[ref].source
                r = Ref("literal", src.value) if src.is_literal else \
                    Ref("slot", want, src.slot, src.ref)
            args.append((pname, r))
            if params[pname].type == FREE_TEXT:
                spec_ = self._text_spec(r, slot.inputs[ref] if kind == "input" else None)
                if kind == "local":
                    spec_ = self._local_text_spec(r, slot, side, call.tool)
                texts.append((pname, _to_addressee(spec_, slot)))
        return tuple(args), tuple(texts)

    def _local_text_spec(self, ref: Ref, slot: Slot, side: tuple[str, ...], tool: str
                         ) -> TextSpec:
        """A text an earlier tool of the same side produced (a summary posted by the
        next tool): the agent's own text passes when it says what that tool was given
        to say (the slot's asks), in the slot's language if it has one."""
        earlier = side[: side.index(tool)]
        if not earlier or not all(derivable(self.corpus[t]) for t in earlier):
            return TextSpec(((FREE_TEXT, ref),))
        language = next((i.source.value for i in slot.inputs
                         if i.type == "language_code" and i.source.is_literal), "")
        texts = [i for i in slot.inputs if i.type == FREE_TEXT and i.source.is_literal]
        own = tuple(m for i in texts for m in _mention_refs(i))
        if texts and not own and not language:
            return TextSpec(())  # the request left the content open: any words
        return TextSpec(((FREE_TEXT, ref),), language, own)

    def _text_spec(self, ref: Ref, inp: Input | None) -> TextSpec:
        """What a free-text argument must say (docs/grading.md, free text)."""
        if inp is not None and ref.kind == "literal":
            quoted = mentions(self.task.query, FREE_TEXT, ref.value)
            if inp.mentions or not quoted:  # asks (empty: the user left it free)
                need = _mention_refs(inp)
                return TextSpec(need, alts=self._alternatives(need),
                                names=self._record_names(need) + self._other_units(need)
                                + self._converted(need) + self._own_currency(need)
                                + self._venue_clocks(need) + self._visa_needs(need))
            if quotes(self.task.query, ref.value) or asks_verbatim(self.task.query):
                return TextSpec(((FREE_TEXT, ref),))  # a sentence the query quotes
            # A phrase of the request ("Order SO-HW4MMQX2 is late") made a subject: its
            # facts in any words, as a Dutch e-mail says "Bestelling SO-HW4MMQX2".
            return TextSpec(((FREE_TEXT, ref),), alts=((0, ((TEXT_FACTS, ref),)),))
        need = ((FREE_TEXT, ref),)  # an upstream text: contain it, or say it oneself
        if ref.kind != "slot":
            return TextSpec(need)
        language, own = self._own_content(ref.slot, ref.key)
        return TextSpec(need, language, own)

    def _alternatives(self, need: tuple[tuple[str, Ref], ...]
                      ) -> tuple[tuple[int, tuple[tuple[str, Ref], ...]], ...]:
        """For each asked text a derivable Processor produced, its own content; for a
        text a tool returned, its facts (unless the request quotes it); for each asked
        percent change whose base the request leaves open, either side."""
        out = []
        either = not names_base(self.task.query)
        content = not asks_verbatim(self.task.query)
        headlined = {r.slot for _, r in need if r.kind == "slot" and r.key == HEADLINE}
        for k, (t, r) in enumerate(need):
            if t == "percent_change" and either:
                out.append((k, ((EITHER_DIRECTION, r),)))
                continue
            if (pair := self._surprise(need, t, r)) is not None:
                out.append((k, ((EPS_SURPRISE, pair),)))
                continue
            if t == FREE_TEXT and r.kind == "slot":
                language, own = self._own_content(r.slot, r.key)
                if not own and content:  # a returned text asked for its content
                    said = HEADLINE_WORDS if r.key == HEADLINE else TEXT_FACTS
                    out.append((k, ((said, r),)))
                elif own:
                    own = tuple((GIST_BESIDE if g == GIST and a.slot in headlined else g, a)
                                for g, a in own)  # a summary beside its headline (v18)
                    out.append((k, (*own, (IN_LANGUAGE, Ref("literal", language)))
                                if language else own))
        return tuple(out)

    def _surprise(self, need: tuple[tuple[str, Ref], ...], type_name: str, ref: Ref
                  ) -> Ref | None:
        """For an asked EPS figure whose pair (the actual and the estimate of one
        report) is asked too, the surprise that tells both (``earnings_surprise``)."""
        if ref.kind != "slot" or ref.key not in (ACTUAL, ESTIMATE):
            return None
        keys = {r.key for t, r in need if r.kind == "slot" and r.slot == ref.slot}
        if not {ACTUAL, ESTIMATE} <= keys:
            return None
        value = surprise(self._reference_output(ref.slot, ACTUAL),
                         self._reference_output(ref.slot, ESTIMATE))
        return Ref("surprise", value, ref.slot, ACTUAL)

    def _record_names(self, need: tuple[tuple[str, Ref], ...]
                      ) -> tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...]:
        """For each asked value that names a record (a booking reference), the record's
        other namings (its flight number), from the same slot's outputs or a slot joined
        to it by a data edge (``data/world/record_names.json``), unless the request asks
        for the references themselves (``asked_references``); for an asked summary of
        an article, any sentence of the article (``_summarised``)."""
        out = []
        codes = references_asked(self.task.query)  # the codes themselves are asked
        headlined = {r.slot for _, r in need if r.kind == "slot" and r.key == HEADLINE}
        for k, (t, r) in enumerate(need):
            if r.kind != "slot":
                continue
            groups = tuple(g for naming in _namings_besides(r.key)
                           if not (codes and is_reference(r.key))
                           and (g := self._naming(r.slot, naming)))
            if article := self._summarised(r.slot, t):  # less its headline, if asked too
                gist = GIST_BESIDE if article.slot in headlined else GIST
                groups = (*groups, ((gist, article),))
            if groups:
                out.append((k, groups))
        return tuple(out)

    def _other_units(self, need: tuple[tuple[str, Ref], ...]
                     ) -> tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...]:
        """For each asked reading in °C, the same reading told in °F (``IN_FAHRENHEIT``),
        unless the request names Celsius or the text must give °F as well (then each
        unit is its own fact)."""
        if any(t == "temperature_f" for t, _ in need) or _CELSIUS.search(self.task.query):
            return ()
        return tuple((k, (((IN_FAHRENHEIT, r),),)) for k, (t, r) in enumerate(need)
                     if t == "temperature_c")

    def _venue_clocks(self, need: tuple[tuple[str, Ref], ...]
                      ) -> tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...]:
        """For each asked instant, the same told by its bare clock on the clock of the
        one city the request sets things in, that city named (``venue_clock``)."""
        return tuple((k, (((AT_VENUE, r),),)) for k, (t, r) in enumerate(need)
                     if t in DATETIME_TYPES
                     and venue_reading(self.task.query, r.value) is not None)

    def _visa_needs(self, need: tuple[tuple[str, Ref], ...]
                    ) -> tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...]:
        """For an asked visa type where the request asks only whether a visa is needed,
        the type told as that need (``visa_need``)."""
        if not visa_asked_whether(self.task.query):
            return ()
        return tuple((k, (((VISA_NEED, r),),)) for k, (t, r) in enumerate(need)
                     if r.kind == "slot" and r.key == VISA_TYPE_KEY)

    def _converted(self, need: tuple[tuple[str, Ref], ...]
                   ) -> tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...]:
        """For each asked °F figure converted from a °C reading a Processor computed (a
        dew point), the same figure told with that reading's rounding carried
        (``converted_reading``: 59.8 °F from 15.448 °C for the tool's 59.7)."""
        return tuple((k, (((CONVERTED_F, r),),)) for k, (t, r) in enumerate(need)
                     if t == "temperature_f" and r.kind == "slot" and self._of_computed(r.slot))

    def _own_currency(self, need: tuple[tuple[str, Ref], ...]
                      ) -> tuple[tuple[int, tuple[tuple[tuple[str, Ref], ...], ...]], ...]:
        """For each asked currency, each asked sum of the same text named with the
        currency its own response gave for it (``sum_currency``: "USD 218.11", the
        budget's remainder as ``log_expense`` told it, where the text was asked CHF)."""
        groups = tuple(g for t, r in need if (g := self._sum_with_code(t, r)))
        return tuple((k, groups) for k, (t, _) in enumerate(need)
                     if t == CURRENCY and groups)

    def _sum_with_code(self, type_name: str, ref: Ref) -> tuple[tuple[str, Ref], ...]:
        """The sum told with the code beside it in its response (``SUM_IN``), for an
        asked sum ``ref`` a slot gave; empty where its response names no one currency
        for it."""
        if ref.kind != "slot":
            return ()
        for tool in self.slot_by_id[ref.slot].tools:
            code = currency_beside(self.corpus[tool], ref.key)
            key = f"{CURRENCY}@{code.canonical}" if code is not None else ""
            if key and (value := self._reference_output(ref.slot, key)) is not None:
                return ((SUM_IN, Ref(SUM_IN, (type_name, ref.value, value), ref.slot,
                                     f"{ref.key}|{key}")),)
        return ()

    def _of_computed(self, slot_id: str) -> bool:
        """Whether ``slot_id`` converts a °C reading only Processors produced."""
        sources = {i.source.slot for i in self.slot_by_id[slot_id].inputs
                   if i.type == "temperature_c" and not i.source.is_literal}
        return bool(sources) and all(
            self.corpus[t].category == "Processor"
            for s in sources for t in self.slot_by_id[s].tools)

    def _summarised(self, slot_id: str, type_name: str) -> Ref | None:
        """The article a summary slot ``slot_id`` sums up (a story's headline and
        description, as "headline\nbody"), where ``type_name`` asks for its summary:
        the agent's own summary says its claim in other words (c2-0060, c3-0061)."""
        slot = self.slot_by_id[slot_id]
        if type_name != FREE_TEXT or not all(self.corpus[t].behaviour in SUMMARISERS
                                             for t in slot.tools):
            return None
        src = next((i.source for i in slot.inputs
                    if i.type == FREE_TEXT and not i.source.is_literal), None)
        if src is None:
            return None
        body = self._reference_output(src.slot, src.ref)
        head = self._reference_output(src.slot, HEADLINE)
        value = f"{head}\n{body}" if isinstance(head, str) and head and body else body
        return Ref("article", value, src.slot, src.ref)

    def _naming(self, slot_id: str, naming: tuple[str, ...]) -> tuple[tuple[str, Ref], ...]:
        """``naming``'s values as bindings to the first of ``slot_id`` and its joined
        slots that outputs them all (empty: none does)."""
        for s in (slot_id, *sorted(self._joined(slot_id))):
            got = [(key, self._reference_output(s, key.removeprefix(_FACTS)))
                   for key in naming]
            if all(v is not None for _, v in got):
                return tuple((TEXT_FACTS if key.startswith(_FACTS)
                              else key.partition("@")[0],
                              Ref("slot", v, s, key.removeprefix(_FACTS)))
                             for key, v in got)
        return ()

    def _joined(self, slot_id: str) -> set[str]:
        """The slots a data edge joins to ``slot_id``, either way."""
        slots = self.task.slots
        return {u for s in slots if s.id == slot_id for u in s.upstream()} | \
            {s.id for s in slots if slot_id in s.upstream()}

    def _own_content(self, slot_id: str, key: str = "", depth: int = 0
                     ) -> tuple[str, tuple]:
        """(language, mentions) a text written by the agent itself must carry to stand
        in for the text a Processor slot produces (its ``key`` output): a translation
        in its language with what the source text says; a rendering with the values
        it was given; a text made from a text the agent cannot reproduce (a summary
        of an article) with the facts of the Processor's own output, its figures and
        names (``toolmaze_gym.text_facts``), in its language if one was asked."""
        slot = self.slot_by_id[slot_id]
        if depth > 4 or not all(derivable(self.corpus[t]) for t in slot.tools):
            return "", ()
        # An own summary told as it is: its gist. One a later step translates keeps its
        # facts (a paraphrase is read in English; a translation by what it keeps).
        article = self._summarised(slot_id, FREE_TEXT) if depth == 0 else None
        if article is not None and not self._language(slot):
            return "", ((GIST, article),)
        if keeps_part(self.corpus[t] for t in slot.tools):  # a summary: what it kept
            return self._language(slot), ((TEXT_FACTS, Ref(
                "slot", self._reference_output(slot_id, key), slot_id, key)),)
        language, own = "", []
        skips = own_text_skips([self.corpus[t] for t in slot.tools])
        for inp in slot.inputs:
            src = inp.source
            if inp.type in skips:
                continue
            if inp.type == "language_code" and src.is_literal:
                language = src.value
            elif inp.type == FREE_TEXT:
                if src.is_literal:  # a sentence to translate: its facts, in other words
                    said = TEXT_FACTS if self._language(slot) else FREE_TEXT
                    asks = self._own_mentions(_mention_refs(inp), depth)
                    if asks or said == TEXT_FACTS \
                            or mentions(self.task.query, FREE_TEXT, src.value):
                        own += asks or [(said, Ref("literal", src.value))]
                    # else a text the request left open (an invitation's title): any words
                    continue
                lang, sub = self._own_content(src.slot, src.ref, depth + 1)
                if not sub:
                    return language or self._language(slot), (
                        (TEXT_FACTS, Ref("slot", self._reference_output(slot_id, key),
                                         slot_id, key)),)
                language = language or lang
                own += list(sub)
            else:
                own.append((inp.type, Ref("literal", src.value) if src.is_literal
                            else Ref("slot", None, src.slot, src.ref)))
        return language, tuple(own)

    def _own_mentions(self, refs: tuple[tuple[str, Ref], ...], depth: int) -> list:
        """A text's asks as an own rendering carries them: an asked text that a
        Processor rendered (a weather line) by what that rendering says, in other
        words; an asked text a tool returned (a meeting's title) as it is."""
        out: list = []
        for t, r in refs:
            if t == FREE_TEXT and r.kind == "slot":
                _, sub = self._own_content(r.slot, r.key, depth + 1)
                out += list(sub) or [(t, r)]  # a returned title is quoted as it is
            else:
                out.append((t, r))
        return out

    @staticmethod
    def _language(slot: Slot) -> str:
        return next((i.source.value for i in slot.inputs
                     if i.type == "language_code" and i.source.is_literal), "")

    def _reference_output(self, slot_id: str, key: str) -> Any:
        """The reference run's value of ``slot_id``'s ``key`` output (a type, or
        ``type@canonical``), as ``execution.slot_outputs`` reads it."""
        type_, _, canonical = key.partition("@")
        calls = [c for c in self.task.solutions[0].calls if c.slot == slot_id] or \
            [c for p in self.task.solutions for c in p.calls if c.slot == slot_id]
        for call in reversed(calls):
            for f in self.corpus[call.tool].returns:
                if f.type == type_ and (f.canonical == canonical if canonical else not f.echo) \
                        and f.name in call.response:
                    return call.response[f.name]
        return None

    # -- resolving ------------------------------------------------------------

    def text_rules(self, exp: Expected, outputs: Mapping[str, Mapping[str, Any]] | None,
                   local: Mapping[str, Any] | None) -> dict[str, TextRule]:
        def val(t: str, r: Ref) -> Any:
            # a time told to a visitor is read on the visited place's clock (asked_zone)
            value = resolve(r, outputs, local)
            if t == AT_VENUE:  # (the instant on the venue's clock, the venue)
                return venue_reading(self.task.query, value)
            if t not in DATETIME_TYPES:
                return value
            # on the clock the request asks, whatever zone the episode's tool answered in
            asked = asked_clock(self.task.query, value, r.value)
            return at_visit_clock(self.task.query, value) if asked is None else asked

        def own(t: str, r: Ref) -> tuple[str, Any]:
            # an instant in the agent's own words, told on the venue's clock too
            reading = venue_reading(self.task.query, r.value) if t in DATETIME_TYPES else None
            return (t, val(t, r)) if reading is None else (AT_VENUE, val(AT_VENUE, r))

        return {name: TextRule(tuple((t, val(t, r)) for t, r in spec.need), spec.language,
                               tuple(own(t, r) for t, r in spec.own),
                               tuple((k, tuple((t, val(t, r)) for t, r in alt))
                                     for k, alt in spec.alts),
                               tuple((k, tuple(tuple((t, val(t, r)) for t, r in g)
                                               for g in groups))
                                     for k, groups in spec.names),
                               self.condition_asked, get_world().today, self.tagged,
                               self.rain_question)
                for name, spec in exp.texts}

    def matcher(self, exp: Expected, outputs: Mapping[str, Mapping[str, Any]],
                local: Mapping[str, Any]) -> Matcher:
        """The matcher for ``exp`` with its values resolved against an episode
        (the prepared one when they are the reference run's)."""
        if self.literal[exp.cid]:
            # No value comes from the episode: the matcher is the same on every one.
            hit = self._literal_matchers.get(exp.cid)
            if hit is None:
                hit = self._literal_matchers[exp.cid] = self._matcher(exp, None, None)
            return hit
        return self._matcher(exp, outputs, local)

    def _matcher(self, exp: Expected, outputs: Mapping[str, Mapping[str, Any]] | None,
                 local: Mapping[str, Any] | None) -> Matcher:
        # The matcher is a function of its bindings' values: keyed by them, it is built
        # (text rules resolved, compared with the reference's) once per set of values,
        # not once per slot of every path of every episode.
        key = (exp.cid, repr([resolve(r, outputs, local) for r in self.refs[exp.cid]]))
        hit = self._matcher_cache.get(key)
        if hit is not None:
            return hit
        args = {name: resolve(r, outputs, local) for name, r in exp.args}
        rules = self.text_rules(exp, outputs, local)
        if args == exp.call.args and rules == self.ref_rules[exp.cid]:
            hit = self.matchers[exp.cid]
        else:
            hit = Matcher(self.corpus, Call(exp.call.slot, exp.call.tool, args, {}), rules,
                          self.stated)
        self._matcher_cache[key] = hit
        if len(self._matcher_cache) > 512:
            self._matcher_cache.popitem(last=False)
        return hit

    def side_tools(self, cids: tuple[int, ...]
                   ) -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]:
        """The tools of a side's calls ``cids``: as a set, in call order, and sorted;
        once per side (every path that takes the side asks, on every trajectory)."""
        hit = self._side_tools.get(cids)
        if hit is None:
            side = tuple(self.calls[c].tool for c in cids)
            hit = self._side_tools[cids] = (frozenset(side), side, tuple(sorted(set(side))))
        return hit

    def body(self, observation: str) -> dict[str, Any] | None:
        """``resolution.parse_body(observation)``, once per text (read-only: shared)."""
        hit = self._bodies.get(observation, _NONE)
        if hit is _NONE:
            hit = self._bodies[observation] = parse_body(observation)
            if len(self._bodies) > _SHARED_LIMIT:
                self._bodies.popitem(last=False)
        return hit

    def outputs(self, slot_id: str, cids: tuple[int, ...], bodies: Sequence[dict[str, Any]],
                compute: Callable[[Sequence[int], Sequence[dict[str, Any]]], dict[str, Any]]
                ) -> dict[str, Any]:
        """``compute(cids, bodies)``: what ``slot_id`` offers downstream on the bodies
        its calls answered, once per bodies. Bodies are the shared objects ``body`` and
        the reference responses give, so they are keyed by identity; an entry keeps
        its bodies alive, so an id is not reused while it is cached. Read-only."""
        key = (slot_id, cids, tuple(map(id, bodies)))
        hit = self._outputs.get(key)
        if hit is None:
            hit = self._outputs[key] = (tuple(bodies), compute(cids, bodies))
            if len(self._outputs) > _SHARED_LIMIT:
                self._outputs.popitem(last=False)
        return hit[1]

    def returned(self, tool: str) -> tuple[tuple[str, str], ...]:
        """(type, field name) of each field ``tool`` returns, in order; once per tool."""
        hit = self._returned.get(tool)
        if hit is None:
            hit = self._returned[tool] = tuple((f.type, f.name)
                                               for f in self.corpus[tool].returns)
        return hit

    def echoes(self, slot_id: str, tools: tuple[str, ...]) -> frozenset[str]:
        """Tools whose responses cannot vouch for a value of ``slot_id`` done by
        ``tools``: their Processors (they answer with what they were given) and every
        tool downstream of the slot (they echo it); once per slot and tools."""
        key = (slot_id, tools)
        hit = self._echoes.get(key)
        if hit is None:
            hit = self._echoes[key] = frozenset(
                t for t in tools if self.corpus[t].category == "Processor") \
                | self.downstream[slot_id]
        return hit

    def needs(self, slot: Slot, sides: Mapping[str, tuple[str, ...]], compute) -> set[str]:
        """``compute(slot, corpus, sides)`` (the resolver's ``_needs``), once per slot and
        the sides its inputs' slots took."""
        key = (slot.id, tuple(map(sides.get, self._sources[slot.id])))
        hit = self._needs.get(key)
        if hit is None:
            hit = self._needs[key] = compute(slot, self.corpus, sides)
        return hit

    def plan(self, slot_id: str, side: tuple[str, ...]):
        """How ``side`` binds its parameters to the slot's inputs (``shared_plan``)."""
        return shared_plan(self.corpus, side, tuple((i.role, i.type)
                                                    for i in self.slot_by_id[slot_id].inputs))

    def handed_on(self, cid: int) -> tuple[tuple[str, str], ...]:
        """The (type, value) pairs of call ``cid``'s response that are no echo, are
        written as text (ids, names) and that some call of the task sends: what the
        call hands on (``costs._stand_ins``), once."""
        got = self._handed.get(cid)
        if got is None:
            if self._sent is None:
                self._sent = frozenset(repr(v) for c in self.calls for v in c.args.values())
            call = self.calls[cid]
            got = self._handed[cid] = tuple(
                (f.type, call.response[f.name]) for f in self.corpus[call.tool].returns
                if not f.echo and isinstance(call.response.get(f.name), str)
                and repr(call.response[f.name]) in self._sent)
        return got

    def fault_sides(self, event: Mapping[str, Any]) -> frozenset[int]:
        """The sides of a fault event's slot its tool belongs to (none for an event that
        is not this task's: a record from another build of the suite)."""
        return self.side_of.get((event.get("slot"), event.get("tool")), frozenset())

    def once(self, name: str, build: Callable[[], Any]) -> Any:
        """``build()``'s value the first time ``name`` is asked, kept after: what a rule
        derives from the task alone (the request's asks, the id types of its tools) is
        the same in every episode, so it is derived once per task, not once per grade."""
        if name not in self._once:
            self._once[name] = build()
        return self._once[name]

    def unsolvable(self, profile: FaultProfile) -> bool:
        """A permanent fault on a slot without alternatives leaves no valid path."""
        return profile.permanent and any(v.slot in self.fixed for v in profile.victims)


def _refs(exp: Expected) -> tuple[Ref, ...]:
    """Every binding of ``exp`` (arguments and text rules): its matcher is a function
    of their values. Where each is a literal, ``resolve`` gives it as it is whatever
    the episode returned."""
    refs = [r for _, r in exp.args]
    for _, spec in exp.texts:
        refs += [r for _, r in spec.need] + [r for _, r in spec.own]
        refs += [r for _, alt in spec.alts for _, r in alt]
        refs += [r for _, groups in spec.names for g in groups for _, r in g]
    return tuple(refs)


def resolve(ref: Ref, outputs: Mapping[str, Mapping[str, Any]] | None,
            local: Mapping[str, Any] | None) -> Any:
    """A binding's value in an episode (the reference run's where it has none)."""
    if ref.kind == "slot" and outputs is not None:
        got = outputs.get(ref.slot)
        if got is not None and ref.key in got:
            return got[ref.key]
    if ref.kind == "local" and local is not None and ref.key in local:
        return local[ref.key]
    if ref.kind == "surprise":  # earnings against the estimate, in per cent
        got = outputs.get(ref.slot) if outputs is not None else None
        if got is not None and ACTUAL in got and ESTIMATE in got:
            return surprise(got[ACTUAL], got[ESTIMATE])
        return ref.value
    if ref.kind == SUM_IN and outputs is not None:  # (type, amount, code) of one response
        got = outputs.get(ref.slot)
        amount, _, code = ref.key.partition("|")
        if got is not None and amount in got and code in got:
            return ref.value[0], got[amount], got[code]
    if ref.kind == "article" and outputs is not None:
        got = outputs.get(ref.slot)
        if got is not None and ref.key in got:
            head = got.get(HEADLINE)
            return f"{head}\n{got[ref.key]}" if isinstance(head, str) and head else got[ref.key]
    return ref.value


def parse_body(observation: str) -> dict[str, Any] | None:
    """A response as the resolver reads it: its flat form (None: not a JSON object)."""
    try:
        wire = json.loads(observation)
    except (ValueError, TypeError, RecursionError):
        return None
    return flat_form(wire) if isinstance(wire, dict) else None


_NONE = object()
_SHARED_LIMIT = 64  # responses and slot outputs a task index keeps (per task)
_INDEX: IdentityCache[TaskIndex] = IdentityCache(4096)


def task_index(task: Task, corpus: Corpus) -> TaskIndex:
    """The cached index of ``task`` (tasks are treated as immutable once graded)."""
    # what texts must note (version 18), less what is asked of the user instead (21)
    # and a weather condition the request narrows to a figure (22)
    return _INDEX.get(task, corpus, lambda: TaskIndex(without_narrowed_condition(
        without_asked_elsewhere(with_noted(task, corpus), corpus)), corpus))


def no_alternative(task: Task, profile: FaultProfile) -> bool:
    """A permanent fault on a slot without alternatives leaves no valid path."""
    return profile.permanent and any(
        not task.slot_by_id[v.slot].is_branch for v in profile.victims)
