"""An Action done through another shown tool with the same effect on the same target.

A task's step lists the tools a scenario wired for it (the office thermostat set by its
id, ``nest_set_heat_setpoint``); the agent is shown more, and a careful one may set the
same thermostat by site and room (``adjust_temperature``, toolmaze-v4 c4-0043 P0). The
world does the same thing either way, so the grader must count it: a clean call of a
shown Action whose response reports, value for value, every argument the step's
expected call sends (the same target, the same setting), and every kind of thing that
call reports of its effect, is read as that call. Only
where the call is not already one of its own tool's expected calls (a second room set
with the tool that set the first is no duplicate of it, and no other step either).

Since grading version 16 (v7 play-test c4-0070 P3): an argument the call did not send
itself (the thermostat id of the site and room it named) is the world's answer, not a
value the agent had to have, so its provenance is not asked; a call that names its
target by id (a thermostat set by id) may be read as the Action that names it by site
and room, where the latest earlier clean response about that id gave them
(``list_room_devices``) and the call sets nothing that Action does not; and what the
agent sent is read as sent, never as the world applied it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from toolmaze_gym.episode import Step

SENT = "sent_arguments"  # an effect-read action's key for the arguments the agent sent


def as_expected(idx: Any, steps: Sequence[Step]) -> list[Step]:
    """``steps`` with each such call read as the expected call it does (its tool and
    arguments; its response in that tool's field names), the rest as they are."""
    out = list(steps)
    for i, s in enumerate(steps):
        got = _reads_as(idx, s, steps[:i])
        if got is not None:
            out[i] = got
    return out


def _reads_as(idx: Any, s: Step, before: Sequence[Step]) -> Step | None:
    """Step ``s`` read as the expected call of another Action it does in effect (None:
    it does none); ``before``: the steps before it, for what they told of its target."""
    tool = s.action.get("name")
    if not s.clean_ok or tool not in idx.actions or tool not in idx.corpus:
        return None
    others = _other_calls(idx, tool)
    if not others:  # no expected call this tool could do in effect: nothing to parse
        return None
    args = s.action.get("arguments")
    if not isinstance(args, dict) or _own_call(idx, tool, args):
        return None
    try:
        response = json.loads(s.observation)
    except ValueError:
        return None
    if not isinstance(response, dict):
        return None
    own = idx.corpus[tool]
    said = _typed(own.returns, response)
    known = {**_target_facts(idx, said, before), **said}
    # A value the agent sent is read as sent, not as the world applied it: 19.019 °C
    # rounded by the thermostat to 19.0 is no set point of 19.0 (``off_tolerance``).
    sent = {p.type: [args[p.name]] for p in own.params if p.name in args}
    for call, spec, types in others:
        have = said if _reports_as_much(own, spec) else known
        told = {**have, **sent}
        if all(f.type in have for f in spec.returns) \
                and all(k in types and any(_same(v, w) for w in told.get(types[k], ()))
                        for k, v in call.args.items()):
            return _as_call(s, call, spec, told, have)
    return None


def _other_calls(idx: Any, tool: str) -> tuple[tuple[Any, Any, dict[str, str]], ...]:
    """The expected calls of other Actions that a call of ``tool`` may do in effect
    (both stateful, ``tool`` reports as much), each with its spec and parameter types,
    in call order; once per task and tool (kept on the task index)."""
    hit = idx.effect_calls.get(tool)
    if hit is None:
        own = idx.corpus[tool]
        hit = idx.effect_calls[tool] = tuple(
            (call, spec, {p.name: p.type for p in spec.params})
            for call in idx.calls
            if call.tool != tool and call.tool in idx.actions and call.args
            for spec in (idx.corpus[call.tool],)
            if spec.stateful and own.stateful
            and (_reports_as_much(own, spec) or _same_target_kind(own, spec)))
    return hit


def _same_target_kind(tool: Any, expected: Any) -> bool:
    """Whether both tools report a target of the same kind of id and ``tool`` sets
    nothing ``expected`` does not (a thermostat's heat set point by its id, or by the
    site and room whose thermostat it is; not an expense booked on the itinerary a
    flight was added to): what ``tool`` leaves out of its effect an earlier response
    about that target may tell (``_target_facts``)."""
    have = {f.type for f in tool.returns if f.type.endswith("_id")}
    sets = {p.type for p in expected.params}
    return any(f.type in have for f in expected.returns) \
        and all(p.type in sets for p in tool.params if not p.type.endswith("_id"))


def _target_facts(idx: Any, said: dict[str, list[Any]],
                  before: Sequence[Step]) -> dict[str, list[Any]]:
    """What the latest earlier clean response that names the same target id tells of
    it (the site and room ``list_room_devices`` gave for thermostat TH-PZ6YXLEE): a
    thermostat set by id sets that site's room (v7 play-test c4-0070 P3)."""
    ids = {t: vs for t, vs in said.items() if t.endswith("_id")}
    for s in reversed(before):
        tool = s.action.get("name")
        if not ids or not s.clean_ok or tool not in idx.corpus:
            continue
        try:
            response = json.loads(s.observation)
        except ValueError:
            continue
        if not isinstance(response, dict):
            continue
        facts = _typed(idx.corpus[tool].returns, response)
        if any(_same(v, w) for t, vs in ids.items() for v in vs for w in facts.get(t, ())):
            return facts
    return {}


def _reports_as_much(tool: Any, expected: Any) -> bool:
    """Whether ``tool`` reports every kind of thing ``expected`` reports of its effect:
    a set point and a command status both; not an invoice line added to the invoice
    that ``send_invoice`` would send (the same target, another effect: its status,
    link and recipient are nowhere in a line's response)."""
    have = {f.type for f in tool.returns}
    return all(f.type in have for f in expected.returns)


def _own_call(idx: Any, tool: str, args: dict[str, Any]) -> bool:
    """Whether ``args`` are those of an expected call of ``tool`` itself."""
    return any(c.tool == tool and all(_same(args.get(k), v) for k, v in c.args.items())
               for c in idx.calls)


def _typed(fields: Sequence[Any], response: dict[str, Any]) -> dict[str, list[Any]]:
    """A response's values by their semantic type."""
    out: dict[str, list[Any]] = {}
    for f in fields:
        if f.name in response:
            out.setdefault(f.type, []).append(response[f.name])
    return out


def _as_call(s: Step, call: Any, spec: Any, told: dict[str, list[Any]],
             said: dict[str, list[Any]]) -> Step:
    """Step ``s`` as a call of ``call.tool``: the arguments it did send in effect (what
    it sent, else the values its response reports: ``told``), the response (``said``)
    in that tool's own field names."""
    types = {p.name: p.type for p in spec.params}
    args = {k: next(w for w in told[types[k]] if _same(v, w)) for k, v in call.args.items()}
    response = {f.name: said[f.type][0] if said.get(f.type) else call.response.get(f.name)
                for f in spec.returns if f.type in said or f.name in call.response}
    # What the agent itself sent stays beside the arguments in effect: a target the world
    # resolved from it (the thermostat of the site and room named) was never the
    # agent's to know (``resolution._Provenance.unshown``).
    action = {**s.action, "name": call.tool, "arguments": args, SENT: s.action.get("arguments")}
    return replace(s, action=action, observation=json.dumps(response))


def sent_itself(action: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` is one the agent itself sent in ``action``: always, unless the
    action is a call read as another (then only among the arguments it kept)."""
    own = action.get(SENT)
    return not isinstance(own, dict) or any(_same(value, v) for v in own.values())


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, abs_tol=1e-9)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    return a == b
