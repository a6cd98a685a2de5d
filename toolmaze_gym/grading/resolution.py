"""A trajectory against one valid path, with every expected value taken from the episode.

The slots of the path are walked in dependency order. For each expected call the
arguments are resolved from what *this episode* returned upstream: the response
of the agent's own matching call where it made one, the reference run's response
(a world fact: the same for any tool that reports it) where it did not, unless the
episode's values ask the lookup otherwise than the reference run did (a date its own
order moved): then the agent's own clean call with those values (``_own_answer``). So the id
of a draft, sheet or payment the agent created is the id expected downstream, and
a reference id the episode never produced is wrong. Actions are required: each
must be matched by a clean call of its own, after the calls that produced the
episode's values it uses. Sources and Processors are means: a lookup the agent
skipped (it knew the answer, derived it itself, or read it from another tool)
costs nothing here; the extra or missing calls show in c and c*.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from toolmaze_gym.corpus.additive import additive, combined, record_key
from toolmaze_gym.corpus.derivations import derivable, known, own_rate, rate_given
from toolmaze_gym.episode import Step
from toolmaze_gym.grading.arguments import (
    CONDITION,
    CURRENCY,
    MONEY,
    PSEUDO_TYPES,
    Matcher,
    cent_apart,
)
from toolmaze_gym.grading.asked_zone import asked_clock
from toolmaze_gym.grading.effects import sent_itself
from toolmaze_gym.grading.index import (
    Expected,
    PathIndex,
    TaskIndex,
    TextSpec,
    parse_body,
    resolve,
)
from toolmaze_gym.grading.own_rounding import exact_values, own_rounding, printed_places
from toolmaze_gym.mentions import (
    DATETIME_TYPES,
    FREE_TEXT,
    mentions,
    numbers_in,
    wall_clock_mentioned,
)
from toolmaze_gym.status_phrases import STATUS_TYPES
from toolmaze_gym.tasks.execution import local_values, slot_outputs
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.world import phrasebook
from toolmaze_gym.world.geo import minor_units

TRANSLATE = "text.translate"  # the behaviour of the translator tools (a derivation)
LANGUAGE_CODE = "language_code"  # the type of a translator's target language
SEEN_SCAN_CHARS = 20_000  # responses longer than this are searched for the JSON form only


@dataclass
class PathMatch:
    """How far a trajectory went along one valid path."""

    path: PathIndex
    steps: dict[int, int] = field(default_factory=dict)  # call id -> the step that is it
    missing: list[int] = field(default_factory=list)  # required Actions not done right
    wrong: dict[int, tuple[int, str]] = field(default_factory=dict)  # cid -> (step, argument)
    used: set[int] = field(default_factory=set)  # Action steps this path accounts for
    expected: dict[int, dict[str, Any]] = field(default_factory=dict)  # cid -> resolved args
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)  # slot -> its values
    # With ``own_lookups`` only: a lookup the agent called with other arguments than
    # expected, whose answer this path then read: cid -> (the step, the argument).
    lookups: dict[int, tuple[int, str]] = field(default_factory=dict)
    # slot -> (figure, exact value) of each sum its side's documented rule works out
    # (``own_rounding.exact_values``): what the agent's own rounding must start from.
    exacts: dict[str, tuple[tuple[float, float], ...]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.missing


class EpisodeView:
    """The steps of a trajectory as the resolver reads them (bodies parsed once)."""

    def __init__(self, steps: Sequence[Step], query: str = "",
                 parse: Callable[[str], dict[str, Any] | None] | None = None) -> None:
        self.steps = steps
        self.query = query
        self._parse = parse or parse_body  # a task index shares bodies across episodes
        self.by_tool: dict[str, list[int]] = {}
        for i, s in enumerate(steps):
            if s.clean_ok and isinstance(s.action.get("arguments"), dict):
                self.by_tool.setdefault(s.action.get("name"), []).append(i)
        self._bodies: dict[int, dict[str, Any] | None] = {}
        self._seen: dict[tuple, bool] = {}
        # id(matcher), step -> (the matcher, whether it accepts the step's arguments);
        # the matcher is kept so that its id is not reused while this view lives.
        self._accepts: dict[tuple[int, int], tuple[Matcher, bool]] = {}

    def seen(self, type_: str, value: Any, before: int,
             besides: frozenset[str] | set[str] = frozenset()) -> bool:
        """Whether ``value`` was in the request or a response before step ``before``
        from a tool not in ``besides`` (a call of the slot's own tools counts only
        when it is the expected call)."""
        key = (type_, repr(value), before, frozenset(besides))
        hit = self._seen.get(key)
        if hit is None:
            hit = self._seen[key] = self._look(type_, value, before, besides)
        return hit

    def _look(self, type_: str, value: Any, before: int, besides) -> bool:
        if mentions(self.query, type_, value):
            return True
        plain = str(value)
        for j in range(min(before, len(self.steps))):
            step = self.steps[j]
            obs = step.observation
            if not obs or step.action.get("name") in besides:
                continue
            # The value as JSON wrote it; another spelling (a date written out, an
            # offset folded) only in responses of a sensible size.
            if plain in obs or (len(obs) <= SEEN_SCAN_CHARS and mentions(obs, type_, value)):
                return True
        return False

    def args(self, i: int) -> Mapping[str, Any]:
        return self.steps[i].action["arguments"]

    def accepts(self, m: Matcher, i: int) -> bool:
        """``m(self.args(i))``, once per matcher and step (paths share both)."""
        key = (id(m), i)
        hit = self._accepts.get(key)
        if hit is None:
            hit = self._accepts[key] = (m, m(self.args(i)))
        return hit[1]

    def body(self, i: int) -> dict[str, Any] | None:
        """Step ``i``'s response in flat form (None: not a JSON object); read-only."""
        if i not in self._bodies:
            self._bodies[i] = self._parse(self.steps[i].observation)
        return self._bodies[i]


class _State:
    """What resolving a path has established after some of its slots."""

    def __init__(self) -> None:
        self.steps: dict[int, int] = {}
        self.missing: list[int] = []
        self.wrong: dict[int, tuple[int, str]] = {}
        self.used: set[int] = set()
        self.expected: dict[int, dict[str, Any]] = {}
        self.outputs: dict[str, dict[str, Any]] = {}
        self.avail: dict[str, int] = {}  # slot -> step after which its episode values exist
        self.done: dict[str, int | None] = {}
        self.side_tools: dict[str, frozenset[str]] = {}
        self.sides: dict[str, tuple[str, ...]] = {}  # slot -> this path's side, in order
        # slot -> each tool of its side with the body it answered (or the reference's)
        self.chains: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {}
        self.results: dict[str, int] = {}  # slot -> id() of its memoised _SlotResult
        self.lookups: dict[int, tuple[int, str]] = {}  # see PathMatch.lookups
        self.exacts: dict[str, tuple[tuple[float, float], ...]] = {}  # see PathMatch


@dataclass(slots=True)
class _SlotResult:
    """What one slot's side added to a path's state (read-only: memoised and shared by
    the paths that agree on it; not frozen, as a frozen dataclass costs 5x to build)."""

    steps: tuple[tuple[int, int], ...]
    missing: tuple[int, ...]
    wrong: tuple[tuple[int, tuple[int, str]], ...]
    used: tuple[int, ...]
    expected: tuple[tuple[int, dict[str, Any]], ...]
    outputs: dict[str, Any]
    done: int | None
    avail: int
    chain: tuple[tuple[str, dict[str, Any]], ...]
    lookups: tuple[tuple[int, tuple[int, str]], ...] = ()
    exacts: tuple[tuple[float, float], ...] = ()

    def apply(self, st: _State, slot_id: str) -> None:
        st.steps.update(self.steps)
        st.missing.extend(self.missing)
        st.wrong.update(self.wrong)
        st.used.update(self.used)
        st.expected.update(self.expected)
        st.outputs[slot_id] = self.outputs
        st.done[slot_id] = self.done
        st.avail[slot_id] = self.avail
        st.chains[slot_id] = self.chain
        st.lookups.update(self.lookups)
        st.exacts[slot_id] = self.exacts


SlotMemo = dict  # (slot, side, upstream results, steps already taken) -> _SlotResult

# A derivable Processor's answer on given arguments (None: it cannot be worked out);
# see ``OwnLookups``.
Derive = Callable[[str, Mapping[str, Any]], "dict[str, Any] | None"]


@dataclass(frozen=True)
class OwnLookups:
    """How a lookup the agent did not make as expected is read, for finding where a
    miss happened (``toolmaze_gym.misses``), never for the grade: the agent's own
    clean call of the lookup's tool where it made one with other arguments (what it
    then had to go on), and a derivable Processor it skipped worked out with
    ``derive`` on the values this reading resolved. The grade reads the reference
    run's answer there (a world fact the agent may know), so grades stay as they were."""

    derive: Derive | None = None
    keep: frozenset[int] = frozenset()  # lookups (cids) read as the grade reads them


def resolve_path(idx: TaskIndex, view: EpisodeView, path: PathIndex,
                 memo: SlotMemo | None = None, own: OwnLookups | None = None) -> PathMatch:
    """Match ``view`` against ``path`` (see the module docstring).

    A slot's side resolves the same on every path that agrees on how the slots it
    reads (its upstream) resolved and on which steps of its tools earlier Actions
    took, so with ``memo`` (one per trajectory; it keeps every result it keys by
    ``id``) each such case is resolved once: the valid paths of a task share most
    of their slots. ``own``: read lookups as ``OwnLookups`` says (no memo then)."""
    st = _State()
    memo = None if own is not None else memo
    for slot_id, cids in path.slots:
        tools, side, ordered = idx.side_tools(cids)
        st.side_tools[slot_id] = tools
        st.sides[slot_id] = side
        key = None
        if memo is not None:
            taken = tuple(i for t in ordered for i in view.by_tool.get(t, ())
                          if i in st.used) if st.used else ()
            key = (slot_id, cids, tuple(map(st.results.get, idx.reads[slot_id])), taken)
            result = memo.get(key)
        if key is None or result is None:
            result = _resolve_in_any_order(idx, view, st, slot_id, cids, own)
            if key is not None:
                memo[key] = result
        result.apply(st, slot_id)
        st.results[slot_id] = id(result)
    return PathMatch(path, st.steps, st.missing, st.wrong, st.used, st.expected, st.outputs,
                     st.lookups, st.exacts)


def _resolve_in_any_order(idx: TaskIndex, view: EpisodeView, st: _State, slot_id: str,
                          cids: tuple[int, ...], own: OwnLookups | None = None
                          ) -> _SlotResult:
    """``_resolve_slot``, and where an Action of the side is then missing, again with
    its lookups read from the agent's other calls of their tools.

    A lookup of a stateful Source is matched first to the call that saw what the
    reference run saw (the first free slot of a calendar), which fixes the order the
    reference run booked in: two meetings booked in the other order of mention each
    read their own free slot (toolmaze-v6 review c4-0080, grading version 15). The
    second reading counts only when it leaves fewer Actions missing and every lookup
    it takes is the agent's latest call of its tool before the Action that used it, so
    an Action sent on an answer the agent's own later lookup had overtaken (a second
    meeting booked into the slot the first one took) still fails."""
    first = _resolve_slot(idx, view, st, slot_id, cids, own)
    if not first.missing:
        return first
    taken = {i for c, i in first.steps if not idx.expected[c].action}
    if not taken:
        return first
    again = _resolve_slot(idx, view, st, slot_id, cids, own, avoid=frozenset(taken))
    if len(again.missing) < len(first.missing) and _latest_lookups(idx, view, again):
        return again
    return first


def _latest_lookups(idx: TaskIndex, view: EpisodeView, result: _SlotResult) -> bool:
    """Whether no call of a lookup's tool lies between the lookup a reading took and
    an Action of the side it took after it."""
    steps = dict(result.steps)
    acts = [i for c, i in steps.items() if idx.expected[c].action]
    for c, i in steps.items():
        if idx.expected[c].action:
            continue
        calls = view.by_tool.get(idx.expected[c].call.tool, ())
        if any(i < j < a for a in acts if a > i for j in calls):
            return False
    return True


def _resolve_slot(idx: TaskIndex, view: EpisodeView, st: _State, slot_id: str,
                  cids: tuple[int, ...], own: OwnLookups | None = None,
                  avoid: frozenset[int] = frozenset()) -> _SlotResult:
    """Resolve one slot's side of a path against the state before it; lookups never
    take a step of ``avoid`` (``_resolve_in_any_order``)."""
    slot = idx.slot_by_id[slot_id]
    known = _Provenance(idx, view, st, own_rates=own is None)
    after = max((st.avail.get(u, -1) for u in idx.needs(slot, st.sides, _needs)), default=-1)
    # the steps the request states before this one (``stated_order``): after them, and
    # an Action only once every one of them was done
    before = idx.before.get(slot_id, ())
    done = [st.done.get(u) for u in before]
    unchecked = None in done
    stated = max((d for d in done if d is not None), default=-1)
    after = max(after, stated)
    local: dict[str, Any] = {}
    local_at: dict[str, int | None] = {}
    bodies: list[dict[str, Any]] = []
    chain: list[tuple[str, dict[str, Any]]] = []
    exacts: list[tuple[float, float]] = []
    produced = after >= 0
    steps: dict[int, int] = {}
    missing: list[int] = []
    wrong: dict[int, tuple[int, str]] = {}
    expected: dict[int, dict[str, Any]] = {}
    lookups: dict[int, tuple[int, str]] = {}
    used = _Taken(st.used)
    for cid in cids:
        exp = idx.expected[cid]
        m = idx.matcher(exp, st.outputs, local)
        ok = partial(known.args_ok, exp, local, local_at)
        found = _pick(view, exp, m, after, used, ok, avoid)
        if found is None and exp.action:
            found = _pick_rounded(view, exp, m, after, used, ok, known)
        parts = _pick_split(idx, view, exp, m, after, used, ok) \
            if found is None and exp.action else ()
        if exp.action and unchecked:  # its asked check never done
            found, parts = None, ()
        if parts:
            found = parts[-1]
            used.take(parts[:-1])
        elif found is not None and exp.action:
            used.take(_earlier_rows(idx, view, exp, found, after, used))
        body = view.body(found) if found is not None else None
        at = found  # the step whose answer ``body`` is (None: the reference run's)
        if found is None or body is None or not _has_fields(body, exp.call.response):
            found, body, at = None, exp.call.response, None
            if exp.action:
                missing.append(cid)
                expected[cid] = dict(_resolved(exp, st.outputs, local))
                near = next((i for i in view.by_tool.get(exp.call.tool, ())
                             if i not in used), None)
                if near is not None:
                    early = unchecked or near <= stated  # before its stated steps
                    wrong[cid] = (near, m.mismatch(view.args(near)) or (
                        "" if early else known.unshown(exp, local, local_at, near) or ""))
                    # What the attempt created is what the episode has downstream:
                    # later steps are judged on the agent's own ids, not blamed
                    # for not using the reference run's.
                    got = view.body(near)
                    if got is not None and _has_fields(got, exp.call.response):
                        body, at = got, near
            elif (asked := _own_answer(view, exp, m, after, _resolved(exp, st.outputs, local))
                  ) is not None:
                body, at = view.body(asked), asked  # never the reference's other question
            elif own is not None and cid not in own.keep:
                body = _own_lookup(idx, view, st, exp, m, after, local, lookups, cid,
                                   own) or body
                if cid in lookups:
                    expected[cid] = dict(_resolved(exp, st.outputs, local))
        else:
            steps[cid] = found
            if exp.action:
                used.take((found,))
                produced = True
            if produced:
                after = max(after, found)
        for type_, name in idx.returned(exp.call.tool):
            if type_ not in local and name in body:
                local[type_] = body[name]
                local_at[type_] = found
        chain.append((exp.call.tool, body))
        bodies.append(body)
        exacts += exact_values(idx.corpus[exp.call.tool],
                               view.args(at) if at is not None else exp.call.args, body)
    outs = idx.outputs(slot_id, cids, bodies, partial(_outputs, idx, slot))
    return _SlotResult(tuple(steps.items()), tuple(missing), tuple(wrong.items()),
                       tuple(used.new), tuple(expected.items()), outs,
                       max(steps.values()) if len(steps) == len(cids) else None,
                       after if produced else -1, tuple(chain), tuple(lookups.items()),
                       tuple(exacts))


def _own_lookup(idx: TaskIndex, view: EpisodeView, st: _State, exp: Expected, m: Matcher,
                after: int, local: Mapping[str, Any], lookups: dict[int, tuple[int, str]],
                cid: int, own: OwnLookups) -> dict[str, Any] | None:
    """What the agent had instead of lookup ``exp``'s expected answer (``OwnLookups``):
    its latest clean call of the tool that no expected call of the path took, recorded
    in ``lookups`` with the first argument that differs; else, for a derivable
    Processor the agent skipped, its answer on the values this reading resolved."""
    ref = exp.call.response
    for i in reversed(view.by_tool.get(exp.call.tool, ())):
        if i > after and i not in st.steps.values() and not _anothers(idx, exp, view, i):
            body = view.body(i)
            arg = m.mismatch(view.args(i))
            if arg and body is not None and _has_fields(body, ref) and body != ref:
                lookups[cid] = (i, arg)
                return body
    spec = idx.corpus[exp.call.tool]
    if own.derive is None or spec.category != "Processor" or not derivable(spec):
        return None
    args = dict(_resolved(exp, st.outputs, local))
    if args == exp.call.args:
        return None
    body = own.derive(exp.call.tool, args)
    return body if body is not None and _has_fields(body, ref) else None


def _own_answer(view: EpisodeView, exp: Expected, m: Matcher, after: int,
                args: Sequence[tuple[str, Any]]) -> int | None:
    """The agent's own clean call that answers lookup ``exp`` as this episode asks it,
    where the episode's values ask it otherwise than the reference run did (grading
    version 23, toolmaze-v10 play-test c4-0083 P2 `ship_to_new_york`): the forecast
    for the delivery date the agent's own order got, not the reference run's forecast
    for its other date. Taken though the provenance check refused it (coordinates the
    agent knew without a geocoder): it is what the agent had, and the reference run's
    answer is to another question. Only its answer is read; the path takes no step."""
    if exp.action or dict(args) == dict(exp.call.args):
        return None
    return next((i for i in view.by_tool.get(exp.call.tool, ())
                 if i > after and view.accepts(m, i) and view.body(i) is not None
                 and _has_fields(view.body(i), exp.call.response)), None)


def _anothers(idx: TaskIndex, exp: Expected, view: EpisodeView, i: int) -> bool:
    """Whether step ``i`` is exactly another expected call of the same tool, as the
    reference run made it (TRAF's company_overview beside MSFT's, v8 c4-0014): that is
    the agent's call for that other slot, not what it had instead of ``exp``, even where
    a later slot takes it (issue 27 item 6: a mail without MSFT's dividend, MSFT's
    overview never called, was told TRAF's call had "a wrong value")."""
    args = view.args(i)
    return any(c.tool == exp.call.tool and k != exp.cid and idx.matchers[k](args)
               for k, c in enumerate(idx.calls))


class _Taken(set):
    """Steps earlier Actions of the path took, and those this slot takes (``new``, in
    order). A set, so that ``i in used`` (asked for every candidate step) is a set
    lookup."""

    def __init__(self, before: set[int]) -> None:
        super().__init__(before)
        self.new: list[int] = []

    def take(self, steps: Sequence[int]) -> None:
        self.new.extend(steps)
        self.update(steps)


class _Provenance:
    """Whether the agent could have had a value when it sent it: the slot that
    produces it was done earlier in this episode, or the value was in the request
    or an earlier response (a lookup skipped because its answer was known, another
    tool that reports the same fact, the first tool of the slot's own chain), or it
    is an exact derivation (a Processor whose docs state its rule) from values that
    pass the same test, wherever that Processor sits: a step of its own, the tail of
    a Source→Processor chain, one side of an alternative. A reference value the
    episode never showed the agent fails.

    Responses that are no independent source of a slot's value: its side's
    Processors (they answer with what they were given, so a guessed input comes
    back as a plausible output) and every tool downstream of it (they echo it)."""

    def __init__(self, idx: TaskIndex, view: EpisodeView, st: _State,
                 own_rates: bool = True) -> None:
        self.idx, self.view, self.outputs = idx, view, st.outputs
        # A tax the agent worked out at a rate it knows (``own_rate``) is judged for the
        # grade, on the reference run's value; the explanation's reading of the agent's
        # own lookups (``OwnLookups``) keeps naming the call that was not the one asked for.
        self.own_rates = own_rates
        self.done = st.done  # slot -> the last step of its side, when all were made
        self.exacts = st.exacts
        self.side_tools = st.side_tools  # slot -> the tools of this path's side
        self.sides = st.sides  # slot -> the same, in order
        self.chains = st.chains  # slot -> the values its side's tools handed on

    def echoes(self, slot_id: str, tools: Sequence[str] | None = None) -> frozenset[str]:
        """Tools whose responses cannot vouch for a value of ``slot_id``."""
        if tools is None:
            tools = self.sides.get(slot_id) or self.idx.slot_by_id[slot_id].tools
        return self.idx.echoes(slot_id, tuple(tools))

    def args_ok(self, exp: Expected, local: Mapping[str, Any],
                local_at: Mapping[str, int | None], i: int) -> bool:
        return self.unshown(exp, local, local_at, i) is None

    def unshown(self, exp: Expected, local: Mapping[str, Any],
                local_at: Mapping[str, int | None], i: int) -> str | None:
        """The first argument of step ``i`` whose value the agent could not have had
        (None: it could have had them all)."""
        sent = self.view.args(i)
        action = self.view.steps[i].action
        texts = self.idx.texts_of[exp.cid]
        for name, r, p in self.idx.arg_params[exp.cid]:
            if not sent_itself(action, sent.get(name)):
                continue  # the world resolved it from what the agent named (``effects``)
            if p.type == FREE_TEXT:
                pool = "\n".join(v for k, v in sent.items() if k != name and isinstance(v, str))
                if not self.text_ok(texts.get(name), sent.get(name), i, pool):
                    return name
                continue
            if r.kind == "slot" and not self.slot_value_ok(r.slot, r.key, p.type, i):
                return name
            if r.kind == "local" and r.key in local:
                at = local_at.get(r.key)
                if (at is None or at >= i) and not self.view.seen(
                        p.type, local[r.key], i, self.echoes(
                            exp.call.slot, sorted(self.side_tools.get(exp.call.slot, ())))) \
                        and not self._local_derived(exp.call.slot, r.key, i):
                    return name
        return None

    def _local_derived(self, slot_id: str, key: str, i: int, depth: int = 0) -> bool:
        """A value a tool of the slot's own side produces, which the agent could
        compute or know without calling it (a city's time zone: ``corpus.derivations``)."""
        side = self.sides.get(slot_id)
        k = _producer(self.idx.corpus, side, key) if side else None
        return k is not None and self.derived(slot_id, side, k, key, i, depth)

    def text_ok(self, spec: TextSpec | None, got: Any, i: int, pool: str = "") -> bool:
        """What a text carries must be what the agent had: an upstream text it contains
        word for word must have reached it (its own call, or a response), never be
        "derived"; each value it mentions passes ``slot_value_ok`` (derivations allowed).
        A sum it must tell told only near is the agent's own rounding (``near_sum_ok``);
        a time the request asks in a zone is told as that zone's clock, in this text or
        the call's others (``pool``; ``asked_zone``)."""
        if spec is None or not isinstance(got, str):
            return True
        entries = [*spec.need, *spec.own, *(m for _, alt in spec.alts for m in alt),
                   *(m for _, groups in spec.names for group in groups for m in group)]
        for t, r in entries:
            if r.kind != "slot" or t in PSEUDO_TYPES:
                continue  # facts in the agent's words, a change told from either side
            value = self.outputs.get(r.slot, {}).get(r.key, r.value)
            if value is None:
                continue
            if not mentions(got, t, value):
                # A sum the text must tell, told only near: the agent's own rounding or
                # a slip (grading version 16). Other entries' sums are judged as before.
                if t == MONEY and (t, r) in spec.need and not self.near_sum_ok(
                        r.slot, value, got, i, _no_minor_unit(self, entries)):
                    return False
                # A condition or status said in other words ("cielo sereno") is one the
                # agent read too (grading version 28: ``told_word``).
                if ((t, r) in spec.need or (t, r) in spec.own) and told_word(t, value) \
                        and not self.slot_value_ok(r.slot, r.key, t, i):
                    return False
                continue
            if t in DATETIME_TYPES and ((t, r) in spec.need or (t, r) in spec.own) \
                    and (clock := asked_clock(self.idx.task.query, value, r.value)) \
                    is not None and not wall_clock_mentioned(f"{got}\n{pool}", t, clock):
                return False  # the instant in another zone, where the zone's clock is asked
            if t == FREE_TEXT and isinstance(value, str):
                if not self.text_reached(r.slot, value, i) \
                        and not self.translated(r.slot, value):
                    return False
            elif not self.slot_value_ok(r.slot, r.key, t, i):
                return False
        return True

    def near_sum_ok(self, slot_id: str, value: Any, text: str, i: int,
                    whole: bool = False) -> bool:
        """A text that tells ``slot_id``'s sum only a cent or more off (what
        ``arguments.says`` lets pass) tells it as the agent's own rounding
        (``own_rounding``): not where a response printed the sum before step ``i``, and
        no further off than the values the agent worked it out from explain.
        ``whole``: the sum is in a currency with no minor unit (24,408 JPY for
        24,407.88 may be a copy)."""
        near = [n for n in numbers_in(text) if cent_apart(n, value)]
        if not near or not isinstance(value, int | float):
            return True  # nothing said near it: what the text says is judged elsewhere
        if whole and any(float(n).is_integer() and n == math.floor(value + 0.5)
                         for n in near):
            return True
        shown = self.view.seen(MONEY, value, i)
        unprinted = self.unprinted((slot_id,), i)
        exact = self.exact((slot_id,), value)
        return any(own_rounding(n, value, shown, unprinted, exact, coarser=_written_short(text, n))
                   for n in near)

    def exact(self, slot_ids: Sequence[str], value: Any) -> float | None:
        """The exact value a documented rule of ``slot_ids``' sides worked out that the
        figure ``value`` rounds (None: no such rule, or ``value`` is no rounding)."""
        return next((e for s in slot_ids for got, e in self.exacts.get(s, ())
                     if got == value), None)

    def unprinted(self, slot_ids: Sequence[str], i: int) -> list[float]:
        """The sums the values of ``slot_ids`` are worked from (those slots' own and
        every slot upstream of them, each tool's answer on the way) that no response
        showed before step ``i``: where the agent had to round on its own."""
        todo, done, out = list(slot_ids), set(), []
        while todo:
            s = todo.pop()
            if s in done or s not in self.idx.slot_by_id:
                continue
            done.add(s)
            found = [v for k, v in self.outputs.get(s, {}).items()
                     if k.partition("@")[0] == MONEY]
            for tool, body in self.chains.get(s, ()):
                found += [v for k, v in local_values(self.idx.corpus[tool].returns,
                                                     body).items()
                          if k.partition("@")[0] == MONEY]
            out += [v for v in found if is_number(v) and not self.view.seen(MONEY, v, i)]
            todo += [inp.source.slot for inp in self.idx.slot_by_id[s].inputs
                     if not inp.source.is_literal]
        return out

    def translated(self, slot_id: str, value: str) -> bool:
        """Whether ``value`` is a world sentence's real translation that ``slot_id`` (a
        translator) returns: the agent may translate itself, and its own faithful
        translation may be the phrasebook's word for word ("Die Mittagsbestellung
        schließt um 12 Uhr."), so that is no guess. A tagged text ("[pt] Partly
        cloudy, ...") is no translation anyone writes: it stays the tool's wording.

        Nor is a faithful translation of a text the world generated (a headline) a
        guess (grading version 32; toolmaze-v15 play-test c3-0009 P1: a German digest
        holding "Bluepeak Energy eröffnet ein Rechenzentrum bei Zürich" word for word,
        with translate_v3 never called, failed, while other words for it passed): the
        slot's own text in its asked language (``_own_translations``) counts too."""
        corpus = self.idx.corpus
        slot = self.idx.slot_by_id[slot_id]
        if not all(corpus[t].behaviour == TRANSLATE for t in slot.tools):
            return False
        return phrasebook.translation(value, "en") is not None \
            or value.strip() in self._own_translations(slot)

    def _own_translations(self, slot) -> set[str]:
        """The translations into the slot's asked language of the texts it translates,
        as the world's translators give them (the reference run's inputs)."""
        texts, codes = [], []
        for inp in slot.inputs:
            value = inp.source.value if inp.source.is_literal else \
                self.outputs.get(inp.source.slot, {}).get(inp.source.ref, inp.source.value)
            if inp.type == FREE_TEXT and isinstance(value, str):
                texts.append(value)
            elif inp.type == LANGUAGE_CODE and isinstance(value, str):
                codes.append(value)
        out = set()
        for text in texts:
            for code in codes:
                hit = phrasebook.translation(text, code, generated=True)
                if hit is not None:
                    out.add(hit[1].strip())
        return out

    def text_reached(self, slot_id: str, value: str, i: int) -> bool:
        """Whether ``slot_id``'s text ``value`` reached the agent before step ``i``: the
        slot was done, a tool outside it and its downstream showed the text, or a
        Source of its own side returned it whole (``returned_whole``)."""
        at = self.done.get(slot_id)
        if at is not None and at < i:
            return True
        own = self.side_tools.get(slot_id)
        if own is None:
            own = frozenset(self.idx.slot_by_id[slot_id].tools)
        besides = own | self.idx.downstream[slot_id]
        return self.view.seen(FREE_TEXT, value, i, besides) \
            or self.returned_whole(own - self.idx.downstream[slot_id], value, i)

    def returned_whole(self, tools: Iterable[str], value: str, i: int) -> bool:
        """Whether a Source among ``tools`` (a slot's own side) answered with ``value``
        as one whole field before step ``i``. A summariser behind a news search hands
        a headline back unchanged (toolmaze-v7's digests of a headline, c1-0075), so an
        agent that read the headline had the digest; a part of a longer field (the
        first sentence of a description) is no such answer: the side's Processor made
        it, and only its own call gives it (grading version 16)."""
        corpus = self.idx.corpus
        sources = {t for t in tools if corpus[t].category == "Source"}
        want = value.strip()
        for j in range(min(i, len(self.view.steps))):
            if self.view.steps[j].action.get("name") not in sources:
                continue
            body = self.view.body(j)
            if body and any(isinstance(v, str) and v.strip() == want for v in body.values()):
                return True
        return False

    def slot_value_ok(self, slot_id: str, key: str, type_: str, i: int, depth: int = 0
                      ) -> bool:
        at = self.done.get(slot_id)
        if at is not None and at < i:
            return True
        value = self.outputs.get(slot_id, {}).get(key)
        if value is None or self.view.seen(type_, value, i, self.echoes(slot_id)):
            return True
        return depth <= 6 and self._local_derived(slot_id, key, i, depth)

    def worked_out_alone(self, slot_id: str, i: int) -> bool:
        """Whether the agent had to work ``slot_id``'s value out itself: this is the
        grade's reading (``own_rates``) and it called none of the slot's tools before
        step ``i``. An agent that did call the tax tool has that answer, clean or not,
        and a clean figure it never saw there stays a value the episode had not shown
        (a scripted agent's reference value after a corrupted tax, c2-0034 P3). The
        slot's other tools do not count (grading version 32): a tax at the tail of a
        lookup chain (``lookup_sku_by_name -> get_price_quote -> compute_vat``) is the
        agent's own after the lookups it did call (toolmaze-v14 review c1-0005, 10 %
        Australian GST on the quoted price)."""
        corpus = self.idx.corpus
        tools = {t for t in self.idx.task.slot_by_id[slot_id].tools if own_rate(corpus[t])}
        return self.own_rates and not any(s.action.get("name") in tools
                                          for s in self.view.steps[:i])

    def derived(self, slot_id: str, side: tuple[str, ...], k: int, key: str, i: int,
                depth: int) -> bool:
        """Whether the agent could compute tool ``side[k]``'s ``key`` itself: the tool's
        result is common knowledge or an exact derivation, and each value it reads (an
        input of the slot, or what an earlier tool of the side handed on) passes."""
        corpus = self.idx.corpus
        spec = corpus[side[k]]
        factor = rate_given(spec)
        if not factor and not known(spec, key.partition("@")[0]) \
                and not (own_rate(spec) and self.worked_out_alone(slot_id, i)):
            return False
        if spec.category == "Source":
            return True  # common knowledge needs no inputs (a city's time zone)
        slot = self.idx.slot_by_id[slot_id]
        plan = self.idx.plan(slot_id, side)
        if plan is None:
            return False
        chain = _handed_to(corpus, self.chains.get(slot_id, ()), k)
        rate = _handed_to(corpus, self.chains.get(slot_id, ()), k + 1).get(factor)
        if factor and (rate is None or not self.view.seen(factor, rate, i,
                                                          self.idx.downstream[slot_id])):
            return False  # the rate is a world fact: any response may show it
        for _, (kind, ref) in plan[k]:
            if kind == "input":
                inp = slot.inputs[ref]
                if not inp.source.is_literal and not self.slot_value_ok(
                        inp.source.slot, inp.source.ref, inp.type, i, depth + 1):
                    return False
                continue
            type_ = ref.partition("@")[0]
            value = chain.get(ref)
            if value is None or self.view.seen(type_, value, i, self.echoes(slot_id)):
                continue
            q = _producer(corpus, side[:k], ref)
            if q is None or not self.derived(slot_id, side, q, ref, i, depth + 1):
                return False
        return True


_WORD_TYPES = frozenset({CONDITION, "flight_status", *STATUS_TYPES})


def told_word(type_name: str, value: Any) -> bool:
    """A weather condition or a parcel's or order's status: a word any text can say
    without a response behind it, and a guess is often right ("clear" in August, a
    flight "scheduled"). Grading version 28 (toolmaze-v12 review c4-0045: an Italian
    SMS told "cielo sereno" for delivery days whose forecasts it never fetched; the
    visa trip's flight status told, its lookup skipped): one a text or the answer must
    tell is one a response showed before it, in any words."""
    return isinstance(value, str) and type_name in _WORD_TYPES


def _handed_to(corpus, chain: Sequence[tuple[str, Mapping[str, Any]]], k: int
               ) -> dict[str, Any]:
    """The values the first ``k`` tools of a side handed on, a later tool's winning
    (as ``execution.run_slot`` binds them); read only when a derivation is judged."""
    out: dict[str, Any] = {}
    for tool, body in chain[:k]:
        out.update(local_values(corpus[tool].returns, body))
    return out


def _producer(corpus, side: Sequence[str], key: str) -> int | None:
    """The position in ``side`` of the tool whose field is the slot's ``key`` (a type,
    or ``type@canonical``): the last that returns it, as ``slot_outputs`` reads it."""
    type_, _, canonical = key.partition("@")
    for k in range(len(side) - 1, -1, -1):
        for f in corpus[side[k]].returns:
            if f.type == type_ and (f.canonical == canonical if canonical else not f.echo):
                return k
    return None


def _outputs(idx: TaskIndex, slot, cids: Sequence[int], bodies: Sequence[dict[str, Any]]
             ) -> dict[str, Any]:
    """What the slot offers downstream in this episode. A stored reference response
    that lacks a field today's tool returns (a suite built under an older world) is
    completed from the episode's body, and the other way round; what neither has is
    simply not offered (the calls that need it then fail to match, never crash)."""
    provides = idx.corpus.group_by_id[slot.group].provides if slot.group else ()
    tools = [idx.calls[c].tool for c in cids]
    refs = [idx.calls[c].response for c in cids]
    for merged in (bodies, [{**r, **b} for r, b in zip(refs, bodies, strict=True)]):
        try:
            return slot_outputs(idx.corpus, slot, tools, merged, provides)
        except (KeyError, IndexError):
            continue
    out: dict[str, Any] = {}
    for body in bodies:
        out.update(body)
    return out


def _needs(slot, corpus, sides: Mapping[str, tuple[str, ...]]) -> set[str]:
    """The slots whose episode values this slot uses: its inputs' sources, and the steps
    whose values its texts are asked to carry (a placeholder of the template that is not
    asked for orders nothing: the request leaves those steps independent). A value a
    slot only echoes (the itinerary id an expense call repeats) existed before it, so
    it orders nothing either: the agent may share the itinerary before the expense."""
    out = {i.source.slot for i in slot.inputs if not i.source.is_literal
           and not _echoed(corpus, sides.get(i.source.slot, ()), i.source.ref)}
    out |= {m[2] for i in slot.inputs for m in i.mentions if len(m) >= 4 and m[2]}
    return out


def _echoed(corpus, side: Sequence[str], key: str) -> bool:
    """Whether ``key`` of a slot done by ``side`` is an echo of one of its inputs."""
    k = _producer(corpus, side, key) if side else None
    if k is None:
        return False
    type_, _, canonical = key.partition("@")
    return any(f.echo for f in corpus[side[k]].returns
               if f.type == type_ and (f.canonical == canonical if canonical else not f.echo))


def _pick(view: EpisodeView, exp: Expected, m: Matcher, after: int, used: _Taken,
          ok: Callable[[int], bool], avoid: frozenset[int] = frozenset()) -> int | None:
    """The step that is ``exp``: the earliest unused match for an Action; for a
    lookup, a match that saw what the reference run saw where there is one (a
    stateful source, free slots in a calendar, answers differently after a booking),
    else the earliest; never one of ``avoid``. ``ok``: the agent could have had the
    values it sent."""
    cands = (i for i in view.by_tool.get(exp.call.tool, ())
             if i > after and i not in avoid and not (exp.action and i in used)
             and view.accepts(m, i) and ok(i))
    first = next(cands, None)
    if first is None or exp.action or view.body(first) == exp.call.response:
        return first
    return next((i for i in cands if view.body(i) == exp.call.response), first)


def _written_short(text: str, n: float) -> bool:
    """Whether ``text`` writes ``n`` with no more decimals than it reads back with
    ("30.2", not "30.20", which claims the cent: ``own_rounding.coarser_rounding``)."""
    written = f"{n:.{printed_places(n)}f}"
    return re.search(rf"(?<![\d.]){re.escape(written)}(?![\d])", text) is not None


def _pick_rounded(view: EpisodeView, exp: Expected, m: Matcher, after: int, used: _Taken,
                  ok: Callable[[int], bool], known: _Provenance) -> int | None:
    """An Action whose money arguments are a cent off values the agent had to work
    out itself (no earlier response showed them): the same sum, rounded in another
    order, no further off than the values it was worked from explain (``own_rounding``,
    grading version 16; ``arguments.ROUNDING_SHARE`` caps it). A shown value is
    copied, never rounded."""
    refs = dict(exp.args)
    for i in view.by_tool.get(exp.call.tool, ()):
        if i <= after or i in used:
            continue
        apart = m.rounding_apart(view.args(i))
        if apart and all(own_rounding(view.args(i)[n], m.money[n],
                                      view.seen(MONEY, m.money[n], i),
                                      [*known.unprinted(_sources(known, exp, refs[n]), i),
                                       *_rounded_on_the_way(known, view, view.args(i)[n], i)],
                                      known.exact(_sources(known, exp, refs[n]), m.money[n]))
                         for n in apart) and ok(i):
            return i
    return None


def _rounded_on_the_way(known: _Provenance, view: EpisodeView, got: Any, i: int
                        ) -> list[float]:
    """The amounts a Processor was given that an earlier response had printed (to the
    cent, so perhaps rounded), where that Processor printed ``got`` before step ``i``:
    the agent took the shown tools in another order, and the tool's own rounding on the
    way carries to the sum as the agent's would (grading version 32; toolmaze-v15 review
    c2-0045 ``pctfirst``: 80 % of 87.79 EUR printed as 70.23, converted to 809.46 SEK
    beside the reference's 809.48, the whole converted first)."""
    if not is_number(got):
        return []
    corpus = known.idx.corpus
    for j in range(min(i, len(view.steps)) - 1, -1, -1):
        name = view.steps[j].action.get("name")
        body = view.body(j)
        if name not in corpus or corpus[name].category != "Processor" \
                or not _holds(body, got):
            continue
        sent = view.args(j)
        money = [p.name for p in corpus[name].params if p.type == MONEY]
        return [sent[p] for p in money if is_number(sent.get(p))
                and any(_holds(view.body(k), sent[p]) for k in range(j))]
    return []


def _holds(body: Mapping[str, Any] | None, value: float) -> bool:
    """Whether a response (flat form) gives ``value`` as one of its numbers, to the cent:
    the amount a tool printed, which the agent passed on."""
    return bool(body) and any(is_number(v) and abs(v - value) < 0.005 for v in body.values())


def _sources(known: _Provenance, exp: Expected, ref: Any) -> tuple[str, ...]:
    """The slots an argument's value is worked from: its own slot, or, for a value of
    the call's own side, the slots that side reads."""
    if getattr(ref, "kind", "") == "slot":
        return (ref.slot,)
    slot = known.idx.slot_by_id[exp.call.slot]
    return tuple(inp.source.slot for inp in slot.inputs if not inp.source.is_literal)


def near_sum_told(idx: TaskIndex, view: EpisodeView, best: PathMatch, slot_id: str,
                  value: Any, text: str, whole: bool = False) -> bool:
    """``_Provenance.near_sum_ok`` for the final answer, after the last step, on the
    values path ``best`` resolved (the answer's sum worked out by the agent may be a
    cent or so off; a printed one is told as printed)."""
    st = _State()
    st.outputs = best.outputs
    st.exacts = best.exacts
    return _Provenance(idx, view, st).near_sum_ok(slot_id, value, text, len(view.steps),
                                                  whole)


def _no_minor_unit(known: _Provenance, entries: Sequence[tuple[str, Any]]) -> bool:
    """Whether a text's asks name a currency with no minor unit (JPY): its sums may be
    told in whole units."""
    for t, r in entries:
        if t != CURRENCY:
            continue
        code = r.value if r.kind != "slot" else known.outputs.get(r.slot, {}).get(r.key, r.value)
        if isinstance(code, str) and minor_units(code) == 0:
            return True
    return False


def _pick_split(idx: TaskIndex, view: EpisodeView, exp: Expected, m: Matcher, after: int,
                used: _Taken, ok: Callable[[int], bool]) -> tuple[int, ...]:
    """The calls of an additive Action on one record that together are ``exp``
    (``corpus.additive``): the earliest record whose calls, read as one, match."""
    spec = idx.corpus[exp.call.tool]
    if not additive(spec):
        return ()
    groups: dict[tuple, list[int]] = {}
    for i in view.by_tool.get(exp.call.tool, ()):
        if i > after and i not in used:
            key = record_key(spec, view.args(i))
            if key is not None:
                groups.setdefault(key, []).append(i)
    for steps in groups.values():
        if len(steps) > 1 and m(combined(spec, [view.args(i) for i in steps])) \
                and all(ok(i) for i in steps):
            return tuple(steps)
    return ()


def _earlier_rows(idx: TaskIndex, view: EpisodeView, exp: Expected, found: int, after: int,
                  used: _Taken) -> list[int]:
    """Calls of an additive Action on the record of step ``found`` made before it (a
    header row above the row that carries the values): they add to the same record,
    so they are that Action's too, not Actions of their own. A repeat after it is a
    duplicate, as before."""
    spec = idx.corpus[exp.call.tool]
    if not additive(spec):
        return []
    key = record_key(spec, view.args(found))
    return [i for i in view.by_tool.get(exp.call.tool, ())
            if after < i < found and i not in used and key is not None
            and record_key(spec, view.args(i)) == key]


def _has_fields(body: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
    return body.keys() >= reference.keys()


def _resolved(exp: Expected, outputs: Mapping[str, Mapping[str, Any]],
              local: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return [(name, resolve(r, outputs, local)) for name, r in exp.args]
