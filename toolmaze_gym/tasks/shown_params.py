"""The parameters an agent is shown for a slot: each alternative's own tools.

A slot's inputs are named by the capability's canonical roles (``temperature_c``),
but the agent calls a provider's tool with the provider's own names and units
(ecobee's ``hold_temp_f``, in °F). A reviewer who reads only the roles sees a unit
bug that is not there, so ``toolmaze show`` prints what the tool docs present:
per side and tool, each parameter's name and documented description, the role it
binds, the reference run's argument and, where the tool converts the value
(an inbound unit adapter), the value in the role's unit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolmaze_gym.corpus import Corpus, adapters
from toolmaze_gym.corpus.spec import Param
from toolmaze_gym.tasks.execution import plan_side
from toolmaze_gym.tasks.model import Slot, Task

_UNSET = object()


@dataclass(frozen=True)
class ShownParam:
    """One parameter of one shown tool, bound (or not) to the slot's inputs."""

    tool: str
    name: str  # the tool's own parameter name
    doc: str  # how the tool docs describe it (the description, bounds, closed set)
    role: str  # the capability role it binds; "" for a value passed inside the side
    type: str  # the parameter's semantic type (its unit)
    source: str  # a literal, ``slot.field`` or ``tool.field`` (within the side); "" unset
    value: Any = _UNSET  # the reference run's argument, in the tool's unit
    adapter: str = ""  # the inbound unit conversion the tool applies, if any
    mentions: tuple[tuple[Any, ...], ...] = ()

    @property
    def canonical(self) -> Any:
        """The value in the role's (canonical) unit, where the tool converts it."""
        if not self.adapter or self.value is _UNSET:
            return _UNSET
        return adapters.apply(self.adapter, self.value)

    def line(self) -> str:
        """``name <- source (value)  [doc; role …]`` as ``toolmaze show`` prints it."""
        if not self.source:
            return f"{self.name}: not set (optional)  [{self.doc}]"
        said = self.source
        if self.value is not _UNSET and _show(self.value) != self.source:
            said += f" = {_show(self.value)}"
        role = f"role {self.role}" if self.role else "from earlier in this side"
        if self.canonical is not _UNSET:
            role += f" = {_show(self.canonical)} after the tool's {self.adapter}"
        return f"{self.name} ({self.type}) <- {said}  [{self.doc}; {role}]"


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def param_doc(p: Param) -> str:
    """The parameter as the agent's tool docs present it (``Param.json_schema``)."""
    doc = p.description or p.type
    extra = "one of " + ", ".join(p.enum) if p.enum else p.limits.phrase()
    said = extra.replace("–", "-") in doc.replace("–", "-")
    return f"{doc} ({extra})" if extra and not said else doc


def _reference_args(task: Task, slot: Slot, side_index: int) -> list[dict[str, Any]]:
    """The arguments each tool of the side got in the first solution path taking it."""
    k = next(i for i, s in enumerate(task.slots) if s.id == slot.id)
    for path in task.solutions:
        if k < len(path.choice) and path.choice[k] == side_index:
            return [c.args for c in path.calls if c.slot == slot.id]
    return []


def _local_source(corpus: Corpus, side: Sequence[str], upto: int, key: str) -> str:
    """``tool.field`` of the earlier field a within-side binding reads."""
    type_, _, canonical = key.partition("@")
    for name in reversed(side[:upto]):
        for f in corpus[name].returns:
            if f.type == type_ and (not canonical or f.canonical == canonical):
                return f"{name}.{f.name}"
    return key


def _input_source(slot: Slot, idx: int) -> str:
    src = slot.inputs[idx].source
    return _show(src.value) if src.is_literal else f"{src.slot}.{src.field or src.type}"


def shown_params(corpus: Corpus, task: Task, slot: Slot, side_index: int) -> list[ShownParam]:
    """Every parameter of every tool of one side of ``slot``, as the agent sees it.

    Empty when the side no longer binds the slot's inputs (an old suite's tool).
    """
    side = slot.alternatives[side_index]
    if any(t not in corpus for t in side):
        return []
    plan = plan_side(corpus, side, [(i.role, i.type) for i in slot.inputs])
    if plan is None:
        return []
    ref = _reference_args(task, slot, side_index)
    out = []
    for k, (name, tool_plan) in enumerate(zip(side, plan, strict=True)):
        bound = dict(tool_plan)
        args = ref[k] if k < len(ref) else {}
        for p in corpus[name].params:
            kind, where = bound.get(p.name, ("", None))
            value = args.get(p.name, _UNSET)
            adapter = p.adapt if p.adapt in adapters.UNIT_CHANGES else ""
            if kind == "input":
                i = slot.inputs[where]
                out.append(ShownParam(name, p.name, param_doc(p), i.role, p.type,
                                      _input_source(slot, where), value, adapter, i.mentions))
            elif kind == "local":
                out.append(ShownParam(name, p.name, param_doc(p), "", p.type,
                                      _local_source(corpus, side, k, where), value, adapter))
            else:
                out.append(ShownParam(name, p.name, param_doc(p), "", p.type, ""))
    return out
