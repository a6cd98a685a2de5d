"""Each expected call of a task checked against an episode's steps, with the reasons
in words: for the explanation of a grade (``toolmaze_gym.explain``).

What counts as done is the grader's own decision, so the explanation never
disagrees with the grade: the path compared is the one the grader matched
(``grading.trace``), a required Action is not done exactly when the grade lists it
in ``missing``, and the lookups (Sources and Processors) are means under grading
v4: optional, never a reason. Why an Action is *not* done is worked out here,
argument by argument, with the same normalisers, against the values the grader
expected in this episode (resolved against its own responses): the argument that
is missing or different, where its value comes from (the request, or an earlier
response), a faulty or failed attempt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.grading import task_index
from toolmaze_gym.grading.arguments import CONDITION, implied, says
from toolmaze_gym.grading.condition_synonyms import claim, condition_words_in
from toolmaze_gym.grading.grade import slot_actions
from toolmaze_gym.grading.resolution import EpisodeView, told_word
from toolmaze_gym.grading.stated_order import check_tools, not_before
from toolmaze_gym.grading.sum_currency import SUM_IN, shown
from toolmaze_gym.grading.told_together import TOLD_TOGETHER
from toolmaze_gym.grading.trace import Trace
from toolmaze_gym.grading.venue_clock import AT_VENUE
from toolmaze_gym.mentions import FREE_TEXT, SERVICE_IDS, spoken_forms
from toolmaze_gym.tasks.execution import plan_side
from toolmaze_gym.tasks.model import Call, Task

SHOWN_CHARS = 160  # longer values are cut


@dataclass
class CallCheck:
    """One expected call of a path: the step that made it, or why no step did."""

    call: Call
    category: str  # the tool's category: Source, Processor or Action
    step: int | None = None  # 0-based index of the step that made the call
    problems: list[str] = field(default_factory=list)
    done: bool = False  # as the grader decided (a lookup: whether a step made it)
    # another Action of the same step the agent used instead (send_sms where the path
    # has create_twilio_message): ``problems`` are that call's
    through: str | None = None

    @property
    def optional(self) -> bool:
        """A lookup (Source or Processor): a means, not required (grading v4)."""
        return self.category != "Action"


@dataclass(frozen=True)
class Origin:
    """Where an expected argument's value comes from: stated in the request (no
    ``tools``), or a field of the response of one of ``tools``."""

    tools: tuple[str, ...] = ()
    field: str = ""  # canonical output key; empty: the first output of ``type``
    type: str = ""
    # the slot whose call gives it: with two calls of one tool (MSFT's earnings and
    # TRAF's, v8 c4-0014) the step named is the one the grader matched to this slot
    slot: str = ""

    @property
    def phrase(self) -> str:
        if not self.tools:
            return "stated in the request"
        return f"from the response of {' or '.join(self.tools)}"


def closest_path(grade: Mapping[str, Any], task: Task, steps: Sequence[Step],
                 corpus: Corpus) -> tuple[int, list[CallCheck]]:
    """The valid path the grader compared the episode with (the graded one when the
    grade names it, else the one it came closest to), and the check of each of its
    calls: a required Action is done unless ``grade["missing"]`` lists it."""
    idx = task_index(task, corpus)
    trace = Trace(idx, steps)
    chosen = grade.get("path")
    k = next((k for k, p in enumerate(idx.paths)
              if chosen is not None and list(p.choice) == list(chosen)), None)
    if k is None:
        k = trace.matches.index(trace.best()[0])
    match = trace.matches[k]
    missing = grade.get("missing")
    if missing is None:  # a grade of an older version: the grader's match decides
        missing = [{"tool": idx.calls[c].tool, "slot": idx.calls[c].slot,
                    "step": match.wrong.get(c, (None, ""))[0],
                    "argument": match.wrong.get(c, (None, ""))[1],
                    "expected": match.expected.get(c, {})} for c in match.missing]
    wrong = {(m.get("tool"), m.get("slot")): m for m in missing if isinstance(m, Mapping)}
    path = idx.paths[k]
    calls = [idx.calls[c] for c in path.cids]
    checks = []
    for cid in path.cids:
        call = idx.calls[cid]
        check = CallCheck(call, corpus[call.tool].category, match.steps.get(cid))
        entry = wrong.get((call.tool, call.slot)) if not check.optional else None
        if entry is None:  # no step for a required Action: a graceful stop's success
            check.done = check.step is not None
        else:
            check.step = None
            if _tries(steps, call.tool, entry):
                check.problems = _missing_problems(idx, cid, entry, steps, corpus, calls,
                                                   match.outputs, match.steps)
            else:
                check.through, problems = _other_action_problems(idx, trace, cid, steps,
                                                                 corpus)
                check.problems = problems or ["never called"]
        checks.append(check)
    return k, checks


def _missing_problems(idx: Any, cid: int, entry: Mapping[str, Any], steps: Sequence[Step],
                      corpus: Corpus, path: Sequence[Call],
                      outputs: Mapping[str, Mapping[str, Any]] | None = None,
                      made: Mapping[int, int] | None = None) -> list[str]:
    """Why a required Action the grader lists as missing was not done right: the
    attempt the grader names (checked against the values it expected in this
    episode), else the closest faulty or failed call of the tool, else never called.
    ``made``: call id -> the step the grader matched to it (on the path compared)."""
    call, accepts = idx.calls[cid], idx.matchers[cid]
    expected = entry.get("expected") or {}
    if isinstance(expected, Mapping):
        call = replace(call, args={**call.args,
                                   **{k: v for k, v in expected.items() if k in call.args}})
    needs = {k: rule.need for k, rule in getattr(accepts, "texts", ())}
    ctx = _Context(corpus, path, origins(corpus, idx.task, call), needs,
                   _text_origins(idx, cid), idx.text_rules(idx.expected[cid], outputs, None),
                   _text_origins(idx, cid, own=True), idx.stated,
                   {(idx.calls[c].slot, idx.calls[c].tool): i for c, i in (made or {}).items()},
                   idx.task.query)
    tries = _tries(steps, call.tool, entry)
    if not tries:
        return ["never called"]
    arg = entry.get("argument")
    early = _before_stated(idx, call.slot, steps, tries)
    if early:
        return early
    found = [(i, _attempt_problems(ctx, call, steps, i, arg)) for i in tries]
    i, problems = min(found, key=lambda t: len(t[1]))
    if arg and not any(arg in p for p in problems):
        problems = [f"argument {arg} is not what this episode called for", *problems]
    return [f"step {i + 1}: {p}" for p in problems]


def _before_stated(idx: Any, slot_id: str, steps: Sequence[Step], tries: Sequence[int]
                   ) -> list[str]:
    """Where every attempt came before a step the request orders first (``stated_order``:
    "after checking its climate", grading version 21): which steps, by name."""
    before = getattr(idx, "before", {}).get(slot_id)
    if not before:
        return []
    called = [(str(s.action.get("name")), s.clean_ok) for s in steps]
    tools_of = {u: check_tools(idx.task, idx.corpus, slot_id, u) for u in before}
    names = idx.task.meta.get("steps", {})
    out = []
    for i in tries:
        undone = not_before(before, tools_of, called, i)
        if not undone:
            return []
        which = ", ".join(f"'{names.get(u, u)}' ({' or '.join(tools_of[u])})" for u in undone)
        out.append(f"step {i + 1}: the request asks for {which} before this Action, and "
                   "no clean call of it came before this step")
    return out


def _tries(steps: Sequence[Step], tool: str, entry: Mapping[str, Any]) -> list[int]:
    """The steps to check an expected call of ``tool`` against: the one the grader
    names, else every call of the tool."""
    step = entry.get("step")
    if isinstance(step, int) and 0 <= step < len(steps):
        return [step]
    return [i for i, s in enumerate(steps) if s.kind == "call" and s.action.get("name") == tool]


def _other_action_problems(idx: Any, trace: Trace, cid: int, steps: Sequence[Step],
                           corpus: Corpus) -> tuple[str | None, list[str]]:
    """The other Action of its step a required Action never called was tried through,
    and why that call was not right either (send_sms where the closest path has
    create_twilio_message, v5 play-test c3-0096): that call checked against its own
    expected call, resolved against this episode, so the value really missing is
    named, under the tool the agent used (v9, v10 and v23 play-tests: named under the
    path's tool, "not done through send_sms either" read as blaming a tool never used)."""
    call = idx.calls[cid]
    for tool in slot_actions(idx, call.slot, call.tool)[1:]:
        if not _tries(steps, tool, {}):
            continue
        for alt, other in enumerate(idx.calls):
            if other.tool != tool or other.slot != call.slot:
                continue
            paths = [m for m in trace.matches if alt in m.path.cids]
            expected = next((m.expected[alt] for m in paths if alt in m.expected), {})
            found = _missing_problems(idx, alt, {"expected": expected}, steps, corpus,
                                      [idx.calls[c] for c in paths[0].path.cids]
                                      if paths else [other],
                                      paths[0].outputs if paths else None,
                                      paths[0].steps if paths else None)
            return tool, found
    return None, []


@dataclass(frozen=True)
class _Context:
    """What the reasons for one expected call need besides the attempt."""

    corpus: Corpus
    path: Sequence[Call]  # the path's expected calls (their responses: the reference run)
    where: Mapping[str, Origin]  # parameter -> where its value comes from
    needs: Mapping[str, Any]  # free-text parameter -> the values it must mention
    text_where: Mapping[str, Sequence[Origin]] = field(default_factory=dict)  # per need
    # free-text parameter -> its rule resolved against this episode, and where each of
    # its own-words facts comes from (a text the agent may write itself, in a language)
    rules: Mapping[str, Any] = field(default_factory=dict)
    own_where: Mapping[str, Sequence[Origin]] = field(default_factory=dict)
    stated: Mapping[str, Sequence[Any]] = field(default_factory=dict)  # places the request names
    # (slot, tool) -> the step the grader matched to that call of the path compared
    matched: Mapping[tuple[str, str], int] = field(default_factory=dict)
    query: str = ""  # the request, which shows a value as a response does


def _text_origins(idx: Any, cid: int, own: bool = False) -> dict[str, list[Origin]]:
    """Where each value a free-text argument must mention comes from, in ``need`` order
    (``own``: of the facts that an own-words text must carry instead)."""
    task = idx.task
    out: dict[str, list[Origin]] = {}
    for name, spec in getattr(idx.expected[cid], "texts", ()):
        out[name] = [Origin(giving(idx.corpus, task.slot_by_id[r.slot].tools, r.key), r.key, t,
                            r.slot)
                     if r.kind == "slot" and r.slot in task.slot_by_id else Origin()
                     for t, r in (spec.own if own else spec.need)]
    return out


def where(origin: Origin, before: Sequence[Step],
          matched: Mapping[tuple[str, str], int] | None = None) -> str:
    """``origin`` said with this episode's step that gave the value, or that none had.
    ``matched``: (slot, tool) -> the step the grader matched to that call; where the
    origin's slot has one, that step is named, not merely the tool's latest call (v8
    c4-0014: MSFT's EPS was said to come from step 6, TRAF's earnings call)."""
    if not origin.tools:
        return origin.phrase
    made = [i for i, s in enumerate(before) if s.clean_ok and s.action.get("name")
            in origin.tools]
    own = _slot_step(origin, len(before), matched)
    if own is not None and made and own != made[-1]:
        return f"{origin.phrase} (this episode called it as this task asks at step {own + 1})"
    others = {i for (slot, _), i in (matched or {}).items() if slot != origin.slot}
    if own is None and origin.slot and matched and made and set(made) <= others:
        return (f"{origin.phrase}, which this episode had called cleanly before this step "
                f"only for other values (step {', '.join(str(i + 1) for i in made)})")
    if made:  # the value is the one that call gives with the expected arguments
        return f"{origin.phrase} (this episode last called it cleanly at step {made[-1] + 1})"
    if any(s.action.get("name") in origin.tools for s in before):
        return f"{origin.phrase}, which this episode had not answered cleanly before this step"
    # Never called: the agent need not have called it (v7 play-test: the slips that
    # worked a figure out themselves read as if a tool they never used were owed).
    if _worked_out(origin.tools):
        return (f"{origin.phrase}, a tool this episode never called before this step: the "
                "value its documented rule gives, worked out yourself, counts the same")
    return f"{origin.phrase}, a tool this episode never called before this step"


def _slot_step(origin: Origin, limit: int,
               matched: Mapping[tuple[str, str], int] | None) -> int | None:
    """The step before ``limit`` the grader matched to ``origin``'s slot, if any."""
    if not origin.slot or not matched:
        return None
    return next((matched[(origin.slot, t)] for t in origin.tools
                 if matched.get((origin.slot, t), limit) < limit), None)


def _worked_out(tools: Sequence[str]) -> bool:
    """Whether an agent may produce what one of ``tools`` returns itself (its rule is
    documented, or it is common knowledge)."""
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.corpus.derivations import derivable

    corpus = load_corpus()
    return any(t in corpus.tools and derivable(corpus.tools[t]) for t in tools)


def _attempt_problems(ctx: _Context, call: Call, steps: Sequence[Step], i: int,
                      arg: str | None = None) -> list[str]:
    """Why step ``i``, a call of the right tool, did not count (``arg``: the argument
    the grader found wrong or unshown, where it named one)."""
    step = steps[i]
    if step.fault:
        return ["its response was the fault (a faulty response never counts)"]
    if (step.status or 0) >= 400:
        return [f"it failed with status {step.status}: {error_message(step.observation)}"]
    sent = step.action.get("arguments")
    if not isinstance(sent, dict):
        return ["its arguments are not a JSON object"]
    problems = _argument_problems(ctx, call, sent, steps[:i])
    return problems or _unshown(ctx, call, sent, steps[:i], arg)


def _unshown(ctx: _Context, call: Call, sent: Mapping[str, Any], before: Sequence[Step],
             only: str | None = None) -> list[str]:
    """Why arguments that match the expected values still did not count: each bound
    value, as sent, with where it would have come from and whether that step had
    answered before this call (a value the episode never showed the agent)."""
    out = _unread_words(ctx, sent, before, only)
    for name in call.args:
        origin = ctx.where.get(name)
        if out or origin is None or not origin.tools or name not in sent \
                or (only and name != only):
            continue
        out.append(f"argument {name} is {show(sent[name])}, as expected, but that value "
                   f"comes {where(origin, before, ctx.matched)}, and no earlier response or "
                   "the request showed it to you")
    if not out and only and only in sent:
        return [f"argument {only} says what was asked, but one of the values it mentions "
                "is one the episode had not shown you before this step (the reason above, "
                "where another Action needed it too)"]
    return out or [f"the arguments {show(dict(sent))} match the expected "
                   f"{show(dict(call.args))}, but the call came before the steps whose "
                   "responses give those values"]


def _unread_words(ctx: _Context, sent: Mapping[str, Any], before: Sequence[Step],
                  only: str | None) -> list[str]:
    """A condition or status a text tells (in any words) that neither the request nor a
    response before the call showed, by the grader's own test (``EpisodeView.seen``;
    grading version 28, ``resolution.told_word``)."""
    out = []
    view = EpisodeView(before, ctx.query)
    for name, rule in ctx.rules.items():
        if name not in sent or (only and name != only):
            continue
        for t, v in dict.fromkeys((*rule.need, *rule.own)):
            if told_word(t, v) and not view.seen(t, v, len(before)):
                out.append(f"argument {name} tells the {t} {show(v)}, which no response "
                           "before this step showed: a condition or status told without "
                           "the lookup that reads it is a guess")
    return out


def _argument_problems(ctx: _Context, call: Call, sent: Mapping[str, Any],
                       before: Sequence[Step]) -> list[str]:
    corpus = ctx.corpus
    spec = corpus[call.tool]
    out = []
    for p in spec.params:
        if p.name in call.args:
            want = call.args[p.name]
            origin = ctx.where.get(p.name)
            said = f" ({where(origin, before, ctx.matched)})" if origin else ""
            if p.name not in sent:
                out.append(f"argument {p.name} is missing: expected {show(want)}{said}")
            elif p.type == FREE_TEXT:
                out += _text_problems(ctx, p.name, sent[p.name], want, before)
            elif not same(p.type, sent[p.name], want):
                out.append(f"argument {p.name}: expected {show(want)}{said}, sent "
                           f"{show(sent[p.name])}"
                           + _own_value(corpus, call, p.name, origin, sent[p.name], before))
        elif p.name in sent and p.type != FREE_TEXT \
                and not same(p.type, sent[p.name], p.default) \
                and not (p.default is None and implied(p.type, sent[p.name], ctx.stated)):
            out.append(f"argument {p.name}={show(sent[p.name])} was not asked for "
                       f"(leave it out or send its default {show(p.default)})")
    known = {p.name for p in spec.params}
    out += [f"argument {k} is not a parameter of {call.tool}" for k in sent if k not in known]
    return out


def _own_value(corpus: Corpus, call: Call, pname: str, origin: Origin | None, sent: Any,
               before: Sequence[Step]) -> str:
    """A note on what this episode's own earlier response held for a bound argument,
    when that differs from the reference run's value."""
    if origin is None or not origin.tools:
        return ""
    found = episode_value(corpus, call.tool, pname, origin, before)
    if found is None:
        return ""
    i, value = found
    p = corpus[call.tool].param(pname)
    if p is None or same(p.type, value, call.args[pname]):
        return ""
    note = f"; this episode's {before[i].action.get('name')} (step {i + 1}) returned " \
           f"{show(value)}"
    if same(p.type, sent, value):
        note += ": you passed on your own episode's value, and the expected one is the " \
                "reference run's"
    return note


def episode_value(corpus: Corpus, tool: str, pname: str, origin: Origin,
                  steps: Sequence[Step]) -> tuple[int, Any] | None:
    """(step index, value for ``tool``'s parameter ``pname``) from the latest clean
    response of one of ``origin.tools`` among ``steps``, in the parameter's unit."""
    param = corpus[tool].param(pname)
    for i in range(len(steps) - 1, -1, -1):
        s = steps[i]
        name = s.action.get("name")
        if not s.clean_ok or name not in origin.tools:
            continue
        try:
            body = json.loads(s.observation)
        except ValueError:
            continue
        for f in corpus[name].returns:
            wanted = f.canonical == origin.field if origin.field else f.type == origin.type
            if wanted and isinstance(body, dict) and f.name in body:
                try:
                    value = f.to_canonical(body[f.name])
                    return i, param.from_canonical(value) if param is not None else value
                except (TypeError, ValueError, KeyError):
                    return i, body[f.name]
    return None


def _second_figures(ctx: _Context, name: str, got: str, need: Sequence[tuple[Any, ...]],
                    origin: Sequence[Origin | None], before: Sequence[Step]) -> list[str]:
    """A figure asked twice (two equal values: a 100 % match and its pledge, MSFT's
    dividend and its EPS) that the text writes fewer times (``grading.second_figure``,
    grading versions 18, 19), with the asks it leaves untold and where each comes from
    (v8 c4-0014: an e-mail without "dividend 3.32" was told only that 3.32 is written
    once, not that the dividend is what it lacks)."""
    from toolmaze_gym.grading.second_figure import FIGURES, repeats_told, told_times, untold

    rule = ctx.rules.get(name)
    if rule is not None and len(rule.need) == len(need):  # the values the grader read
        need, pairs = rule.need, list(rule.need_told(got))
    else:
        pairs = [(t, v) for t, v, *_ in need]
    if repeats_told(got, pairs):
        return []
    figures = [(k, v) for k, (t, v, *_) in enumerate(need) if t in FIGURES
               and (t, v) in pairs and isinstance(v, int | float) and v]
    out = []
    for v in sorted({v for _, v in figures}):
        asks = [k for k, w in figures if abs(w - v) < 0.005]
        told = told_times(got, v)
        if len(asks) < 2 or len(asks) <= told:  # a value asked once is named as absent
            continue
        left = [asks[j] for j in untold(got, v, [_label(origin[k]) for k in asks])]
        sure = len(left) == len(asks) - told
        facts = ", ".join(_fact(need[k], origin[k], before, ctx.matched)
                          for k in (left if sure else asks))
        out.append(f"argument {name} writes {show(v)} {told} time(s), but it is asked "
                   f"{len(asks)} times, for different figures of the same value (each must "
                   "be told as its own); "
                   + ("the one not told as its own: " if sure else "the figures asked: ")
                   + facts)
    return out


def _label(origin: Origin | None) -> str:
    """The output field a value comes from ("dividend_per_share"), "" when unknown."""
    return origin.field.partition("@")[2] if origin is not None else ""


def _fact(entry: tuple[Any, ...], origin: Origin | None, before: Sequence[Step],
          matched: Mapping[tuple[str, str], int]) -> str:
    """An asked value with its type, the field it is and where it comes from."""
    t, v = entry[0], entry[1]
    label = _label(origin)
    named = f", {label}" if label and label != t else ""
    src = f", {where(origin, before, matched)}" if origin else ""
    return f"{show(v)} ({t}{named}{src})"


def _text_problems(ctx: _Context, name: str, got: Any, want: Any,
                   before: Sequence[Step]) -> list[str]:
    if not isinstance(got, str) or not got.strip():
        return [f"argument {name} is empty"]
    rule = ctx.rules.get(name)
    if rule is not None and rule.accepts(got):
        # The text says what the rule asks (in its own words, by another name): no
        # value the reference run's text held is missing (v6 play-test c3-0027, a
        # Dutch review failed on its rating was also told its own sentence was not
        # the translator's; grading version 15).
        return []
    claimed = _claimed(rule, got)
    if claimed:
        return [f"argument {name} is {show(got)}, {claimed}"]
    if rule is not None and rule.left_untranslated(got):
        return [f"argument {name} is {show(got)}, which is not in "
                f"{_language(rule.language)}: it is the translators' tagged answer "
                f"[{rule.language}] to a text they do not translate, still English"]
    need = ctx.needs.get(name)
    if need is None:  # the text must contain the expected one
        need = ((FREE_TEXT, want),)
    origin = list(ctx.text_where.get(name, ()))
    origin += [None] * (len(need) - len(origin))
    named = dict(getattr(ctx.rules.get(name), "names", ()) or ())
    # The value the grader checked, where it read this episode's own (a time the
    # episode's own booking gave): that is the one named, not the reference run's.
    checked: dict[int, Any] = {}
    if rule is not None and len(rule.need) == len(need):
        # the grader's own reading: another name, an own-words stand-in (v8 c4-0014: an
        # own summary of the headline was named missing beside the dividend left out)
        unsaid = set(rule.need_unsaid(got))
        checked = {k: v for k, (t, v) in enumerate(rule.need) if need[k][1] != v}
    else:
        unsaid = {k for k, (t, v, *_) in enumerate(need)
                  if not says(got, t, v)  # the grader's reading: whole yen, "foggy", ...
                  and not any(all(says(got, *m) for m in g) for g in named.get(k, ()))}
    absent = [(t, checked.get(k, v), o)
              for k, ((t, v, *_), o) in enumerate(zip(need, origin, strict=False))
              if k in unsaid]
    others = {k: named[k] for k, (t, v, *_) in enumerate(need) if k in named}
    twice = _second_figures(ctx, name, got, need, origin, before)
    if not absent:
        return twice
    facts = _own_facts_missing(ctx, name, got, absent, before)
    if facts:
        return [facts]
    parts, stale = [], []
    for k, (t, v, o) in zip(sorted(unsaid), absent, strict=True):
        if t == TOLD_TOGETHER:  # a pairing the plan asks (grading version 21)
            parts.append(" with ".join(show(x) for _, x in v)
                         + " in one clause (told_together: the plan pairs them)")
            continue
        own = _own_mention(ctx, need[k][1], before)
        if k in checked and own is not None and own[3] != v:
            own = None  # the grader read another value than that step's
        if own is None:
            src = f", {where(o, before, ctx.matched)}" if o else ""
            parts.append(f"{show(v)} ({t}{src})" + _other_names(others.get(k, ()), v)
                         + _own_words(rule, k, len(need)))
            continue
        tool, key, i, value, why = own
        if says(got, t, value):
            stale.append(f"it does say {show(value)}, this episode's {tool} {key} (step "
                         f"{i + 1}), but step {i + 1} is not the {tool} call this task asks "
                         f"for ({why}), so that value does not count")
        else:
            parts.append(f"{show(value)} ({t}, this episode's {tool} {key}, step {i + 1})")
    head = f"argument {name} is {show(got)}"
    if parts:
        return [f"{head}, which does not mention {', '.join(parts)}"
                + "".join(f"; {n}" for n in stale), *twice]
    return [f"{head}: " + "; ".join(stale), *twice]


def _claimed(rule: Any, got: str) -> str:
    """Why ``got`` fails for claiming another weather condition than it must tell
    (``TextRule.claims_other``, grading version 21: v9 play-test c2-0030 P1's Polish
    "deszczowo" beside the partly cloudy day it had to tell), or ""."""
    if rule is None or rule.claims_other(got) is None:
        return ""
    told = [v for t, v in (*rule.need, *rule.own) if t == CONDITION]
    condition, words = claim(got, told, rule.language_of(got)) or ("", "")
    return (f'which says "{words}", the weather condition "{condition}", where the '
            f"weather to tell is {' or '.join(show(v) for v in told)}")


def _other_names(groups: Sequence[Sequence[tuple[str, Any]]], value: Any = None) -> str:
    """The other ways a text may name the same record, as the rule reads them: a rail
    ticket by its train's service number ("ICE4215"), so a reason never says the
    e-ticket number is required where the service number alone passes (v6 play-test
    c4-0081)."""
    said = [" with ".join(show(_short(t, v)) for t, v in g) for g in groups]
    return "".join(f" or {x}" for x in said if x and x != show(value))


def _own_words(rule: Any, k: int, needed: int) -> str:
    """Where the rule takes the agent's own wording of need entry ``k`` (a summary of
    the article, a weather line written itself), a reason says so: the value named is
    the reference run's tool's, one accepted text of several (v23 play-test c3-0072,
    told a summary of the title was missing beside its own summary's pass)."""
    if rule is None or len(rule.need) != needed or k not in dict(rule.alts):
        return ""
    return " or the same in your own words"


def _short(type_name: str, value: Any) -> Any:
    """A value as a text names it: a flight or train id by its service number, a sum
    with its code ("218.11 USD")."""
    if type_name == SUM_IN:
        return shown(value)
    forms = spoken_forms(type_name, value) if type_name in SERVICE_IDS else ()
    return forms[0] if forms else value


def _as_named(type_name: str, value: Any) -> tuple[str, Any]:
    """An own-words entry as a reason names it: an instant that may be told on the
    venue's clock (``venue_clock``) by the instant itself."""
    if type_name == AT_VENUE and isinstance(value, tuple) and value:
        return "iso_datetime", value[0]
    return type_name, value


def _own_facts_missing(ctx: _Context, name: str, got: str,
                       absent: Sequence[tuple[str, Any, Origin | None]],
                       before: Sequence[Step]) -> str:
    """Where the text the grader compares with is one the agent may write itself (a
    translation, a formatted line: the rule's own-words facts), the facts the text
    lacks, with where each comes from; "" when it lacks none of them (the text quoted
    is not what is missing: v5 play-test c3-0064, c3-0096 named a translator's whole
    sentence, never called, for a temperature or a booking reference left out)."""
    rule = ctx.rules.get(name)
    if rule is None or not rule.own or any(t != FREE_TEXT for t, _, _ in absent):
        return ""
    where_own = list(ctx.own_where.get(name, ()))
    where_own += [None] * (len(rule.own) - len(where_own))
    foreign = bool(rule.language)
    # What the grader's own-words reading found unsaid, so a value it counted said (the
    # Italian "temporale" for "thunderstorm") is never named missing (v8 c1-0014).
    unsaid = set(rule.own_unsaid(got))
    lacking = [(*_as_named(t, v), o) for k, ((t, v), o) in enumerate(zip(rule.own, where_own,
                                                                        strict=False))
               if v is not None and k in unsaid]
    head = f"argument {name} is {show(got)}"
    if foreign and not rule.written_in(got, rule.language):
        return f"{head}, which is not in {_language(rule.language)}: " \
            + _in_language(lacking, before, ctx.matched)
    if not lacking:
        return ""
    said = ", ".join(_own_fact(rule, t, v, o, before, ctx.matched) for t, v, o in lacking)
    lang = f" (in {rule.language}, in your own words or a translator's)" if foreign else ""
    return f"{head}, which leaves out {said}: the text{lang} must carry these facts"


def _own_fact(rule: Any, type_name: str, value: Any, origin: Origin | None,
              before: Sequence[Step], matched: Mapping[tuple[str, str], int]) -> str:
    """One fact an own-words text lacks, with where it comes from; a weather condition
    asked in another language with the words that say it there (v8 play-test c1-0014:
    "thunderstorm" was named as if only the English word counted)."""
    src = f", {where(origin, before, matched)}" if origin else ""
    if rule.condition and type_name == CONDITION and isinstance(value, str) \
            and rule.language:
        return f"the weather condition {show(value)} in {_language(rule.language)} " \
               f"({type_name}{src}; said by {condition_words_in(value, rule.language)})"
    return f"{show(value)} ({type_name}{src})"


def _language(code: str) -> str:
    """A language code as a reader names it ("Spanish (es)")."""
    forms = spoken_forms("language_code", code)
    return f"{forms[0]} ({code})" if forms else code


def _in_language(lacking: Sequence[tuple[str, Any, Origin | None]],
                 before: Sequence[Step], matched: Mapping[tuple[str, str], int]) -> str:
    """What a text asked in a language must be: written in it, in any words, with
    the facts it lacks besides (v7 play-test: an English note was told it missed a
    whole Spanish sentence, as if that translation were required word for word)."""
    # A sentence to carry is carried by what it says, in that language's words: not the
    # English sentence itself (v23 play-test c4-0013: told to "carry" "Light rain,
    # 20.2 °C (68.4 °F)." beside a German post that passed without it).
    said = ", ".join((f"what {show(v)} says" if t == FREE_TEXT else show(v))
                     + f" ({t}" + (f", {where(o, before, matched)}" if o else "") + ")"
                     for t, v, o in lacking)
    also = f", and carry {said}" if said else ""
    return f"the text must be written in that language, in your own words or a " \
           f"translator's{also}"


def _own_mention(ctx: _Context, value: Any, before: Sequence[Step]
                 ) -> tuple[str, str, int, Any, str] | None:
    """Where a value a text must mention came from in the reference run (a field of
    an earlier expected call's response), when this episode's response held another
    value there: (tool, field, step, this episode's value, why that step is not the
    expected call). An explanation names the episode's own value, never the
    reference run's (v5 play-test c2-0079: "does not mention SO-BUGDUNPM", the
    reference's order, where the player's order was SO-QJSRXL2Z). The step read is the
    one the grader matched to that call, else the latest of the tool no other expected
    call was matched to: never another call's (v8 c4-0014: MSFT's EPS estimate, left
    out, was told it came from step 6, TRAF's earnings call, whose 3.14 "does not
    count")."""
    for c in ctx.path:
        for key, ref in c.response.items():
            if ref != value or isinstance(ref, bool):
                continue
            step = _step_of(ctx, c, before)
            if step is None:
                continue
            i, s = step
            try:
                own = json.loads(s.observation).get(key)
            except (ValueError, AttributeError):
                continue
            if own is not None and own != ref:
                return c.tool, key, i, own, _not_expected(ctx.corpus, c, s)
    return None


def _step_of(ctx: _Context, call: Call, before: Sequence[Step]) -> tuple[int, Step] | None:
    """The step among ``before`` that is ``call`` as the grader matched it, else the latest
    clean call of its tool that the grader matched to no other call."""
    i = ctx.matched.get((call.slot, call.tool))
    if i is not None and i < len(before):
        return i, before[i]
    others = {j for (slot, _), j in ctx.matched.items() if slot != call.slot}
    found = [(j, s) for j, s in enumerate(before)
             if s.clean_ok and s.action.get("name") == call.tool and j not in others]
    return found[-1] if found else None


def _not_expected(corpus: Corpus, call: Call, step: Step) -> str:
    """How a step's arguments differ from the expected call's (as the reference run
    made it): what keeps that step's response from being the value the text needs."""
    sent = step.action.get("arguments")
    sent = sent if isinstance(sent, dict) else {}
    spec = None
    if call.tool in corpus:
        spec = corpus[call.tool]
    out = []
    for k, want in call.args.items():
        p = spec.param(k) if spec is not None else None
        if k not in sent:
            out.append(f"{k} is missing, expected {show(want)}")
        elif p is not None and p.type != FREE_TEXT and not same(p.type, sent[k], want):
            out.append(f"{k} is {show(sent[k])}, expected {show(want)}")
    return "; ".join(out) or "it came before the values it needs existed"


def same(type_name: str, got: Any, want: Any) -> bool:
    """Equal through the semantic type's normaliser (as the grader compares)."""
    if want is None:
        return got is None
    try:
        t = values.get(type_name)
        return t.normalise(got) == t.normalise(want)
    except (KeyError, TypeError, ValueError, AttributeError):
        return got == want


def origins(corpus: Corpus, task: Task, call: Call) -> dict[str, Origin]:
    """Where each argument of an expected call comes from (parameter name -> origin);
    empty when the slot's plan cannot be recovered."""
    slot = task.slot_by_id[call.slot]
    side = next((a for a in slot.alternatives if call.tool in a), ())
    plan = plan_side(corpus, side, [(i.role, i.type) for i in slot.inputs]) if side else None
    if plan is None:
        return {}
    out = {}
    for pname, (kind, ref) in plan[side.index(call.tool)]:
        if kind == "input":
            src = slot.inputs[ref].source
            out[pname] = Origin() if src.is_literal else Origin(giving(
                corpus, task.slot_by_id[src.slot].tools, f"{src.type}@{src.field}"),
                src.field, src.type)
        elif kind == "local":  # produced by an earlier tool of the same side
            out[pname] = Origin(side[: side.index(call.tool)], "", str(ref))
    return out


def giving(corpus: Corpus, tools: Sequence[str], key: str) -> tuple[str, ...]:
    """The tools of a slot whose response carries the value ``key`` (``type`` or
    ``type@canonical``): in a chain only the one that returns it (track_shipment's
    parcel status, not get_order_status before it, which returns the order's own
    status: toolmaze-v4 c4-0031 told a player the value came from either); all of
    them where none is found."""
    type_, _, canonical = key.partition("@")
    found = tuple(t for t in tools if t in corpus and any(
        f.type == type_ and (f.canonical == canonical if canonical else not f.echo)
        for f in corpus[t].returns))
    return found or tuple(tools)


def error_message(observation: str) -> str:
    """The message of an error response, cut to a readable length."""
    try:
        err = json.loads(observation).get("error", {})
        return str(err.get("message") or err.get("type") or observation)[:SHOWN_CHARS]
    except (ValueError, AttributeError):
        return observation[:SHOWN_CHARS]


def show(value: Any) -> str:
    """A value as JSON, cut to a readable length."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"
