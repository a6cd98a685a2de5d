"""The static solvability check: can the agent know every argument it must send?

For every call of every valid path, each argument must be either a literal the
query states, or a field of an earlier response on that path that the task binds
(the scenario's field-level binding), with no second equally plausible source:
another earlier response field of the same kind (same semantic type and
canonical key, from a call of the same behaviour) with another value, whose call
the query does not tell apart by a stated literal. Free text must be able to
mention every required value: each is stated in the query or was returned
earlier on the path. This proves from data alone what the oracle's score cannot
(the oracle reads the hidden wiring).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus import Corpus
from toolmaze_gym.mentions import FREE_TEXT
from toolmaze_gym.tasks.execution import plan_side
from toolmaze_gym.tasks.model import Call, Input, SolutionPath, Task
from toolmaze_gym.tasks.queries import say, stated_as


@dataclass(frozen=True)
class _Seen:
    """A value the agent has seen in a response: where, and what kind it is."""

    slot: str
    tool: str
    key: str
    type: str
    value: Any


def _same(type_: str, a: Any, b: Any) -> bool:
    try:
        return values.get(type_).same(a, b)
    except KeyError:
        return a == b


def stated(query: str, value: Any, type_: str = "") -> bool:
    """Whether ``value`` is written in ``query`` (as queries write literals: a
    language code may be stated by the language's name, a boolean as "on"/"off")."""
    return stated_as(query, type_, value)


def _response_values(corpus: Corpus, call: Call) -> list[_Seen]:
    return [_Seen(call.slot, call.tool, f.canonical, f.type, call.response[f.name])
            for f in corpus[call.tool].returns if f.name in call.response]


def _literals(task: Task, slot_id: str) -> frozenset[str]:
    """The stated literals a slot's result depends on, through its ancestors too:
    the price converted for AAPL and the one converted for MSFT are told apart
    by the tickers the query names."""
    by_id = task.slot_by_id
    todo, seen, out = [slot_id], set(), set()
    while todo:
        slot = by_id[todo.pop()]
        if slot.id in seen:
            continue
        seen.add(slot.id)
        out |= {say(i.source.value) for i in slot.inputs
                if i.source.is_literal and not i.mentions and not _free_text(task, i)}
        todo += slot.upstream()
    return frozenset(out)


def _free_text(task: Task, inp: Input) -> bool:
    """A text whose content the user left open (a title, a subject, ``asks = []``):
    nothing to mention and not quoted by the query, so any sensible text will do,
    as the grader reads it; the agent needs nothing it cannot see."""
    return (inp.type == FREE_TEXT and not inp.mentions
            and not stated(task.query, inp.source.value, inp.type))


def _bound_problems(task: Task, corpus: Corpus, where: str, inp: Input, value: Any,
                    seen: list[_Seen]) -> list[str]:
    src = inp.source
    key = src.field
    bound = [s for s in seen if s.slot == src.slot and s.type == inp.type
             and (not key or s.key == key) and _same(inp.type, s.value, value)]
    if not bound:
        return [f"{where}: {value!r} is not in an earlier response of {src.slot} "
                f"({src.field or src.type})"]
    ref = bound[-1]
    behaviour = corpus[ref.tool].behaviour
    rivals = [s for s in seen if s.slot != src.slot and s.type == inp.type and s.key == ref.key
              and corpus[s.tool].behaviour == behaviour and not _same(inp.type, s.value, value)
              and _literals(task, s.slot) == _literals(task, src.slot)]
    return [f"{where}: {r.slot}.{r.key} is an equally plausible source ({r.value!r})"
            for r in rivals[:1]]


def _text_problems(task: Task, where: str, inp: Input, seen: list[_Seen]) -> list[str]:
    out = []
    for type_, value, *_ in inp.mentions:
        if stated(task.query, value, type_):
            continue
        if any(s.type == type_ and _same(type_, s.value, value) for s in seen):
            continue
        out.append(f"{where}: must mention {value!r} ({type_}), which the agent never sees")
    return out


def path_problems(task: Task, corpus: Corpus, path: SolutionPath) -> list[str]:
    problems: list[str] = []
    seen: list[_Seen] = []
    index = {s.id: k for k, s in enumerate(task.slots)}
    pos: dict[str, int] = {}
    for call in path.calls:
        slot = task.slot_by_id[call.slot]
        side = slot.alternatives[path.choice[index[slot.id]]]
        plan = plan_side(corpus, side, [(i.role, i.type) for i in slot.inputs])
        if plan is None:
            problems.append(f"{call.slot}: side {side} does not fit its inputs")
            continue
        k = pos.get(slot.id, 0)
        pos[slot.id] = k + 1
        for pname, (kind, ref) in plan[k]:
            where = f"path {path.choice} {call.tool}.{pname}"
            value = call.args.get(pname)
            if kind == "local":
                type_, _, key = ref.partition("@")  # plan_side: "type" or "type@key"
                if not any(s.slot == slot.id and (not key or s.key == key)
                           and _same(type_, s.value, value) for s in seen):
                    problems.append(f"{where}: {value!r} not returned earlier in the side")
                continue
            inp = slot.inputs[ref]
            if inp.source.is_literal and inp.mentions:
                problems += _text_problems(task, where, inp, seen)
            elif inp.source.is_literal:
                if _free_text(task, inp):
                    continue
                if not stated(task.query, value, inp.type):
                    problems.append(f"{where}: literal {say(value)!r} is not stated "
                                    "in the query")
            else:
                problems += _bound_problems(task, corpus, where, inp, value, seen)
        seen += _response_values(corpus, call)
    return problems


def solvability_problems(task: Task, corpus: Corpus) -> list[str]:
    """Every reason an agent could not know an argument; empty: solvable."""
    return [p for path in task.solutions for p in path_problems(task, corpus, path)]
