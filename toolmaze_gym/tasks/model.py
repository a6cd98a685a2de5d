"""The task model: a query, a DAG of slots, and its exact solution space.

A *slot* is a required step. A fixed slot has one way to be done (one tool); a
branch slot has alternatives from one alternative group: single tools
(1-to-1, 1-to-N) or sub-graphs run in order (N-to-N). Inputs are bound by
*role* (the behaviour's canonical argument name) so any alternative can take
them; values flow between slots by semantic type.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

LEVELS = ("C1", "C2", "C3", "C4")


@dataclass(frozen=True)
class Source:
    """Where an input comes from: a literal stated in the query, or an upstream slot."""

    kind: str  # "literal" | "slot"
    value: Any = None
    slot: str = ""
    type: str = ""
    # The upstream field by its canonical key (``price`` of a quote), when the
    # binding is at field level; empty: the slot's first value of ``type``.
    field: str = ""

    @property
    def is_literal(self) -> bool:
        return self.kind == "literal"

    @property
    def ref(self) -> str:
        """The key of this value in a slot's outputs (see ``execution.slot_outputs``)."""
        return f"{self.type}@{self.field}" if self.field else self.type


@dataclass(frozen=True)
class Input:
    """One argument of a slot, bound by role.

    ``mentions`` is for free-text arguments (subjects, bodies, notes): the
    (semantic type, value) pairs the text must mention, in any wording. A
    generated sentence is never the only right answer, so the grader checks
    content; an empty tuple means "derive it from the slot's bound inputs".
    """

    role: str  # canonical argument name shared by the alternatives
    type: str  # semantic type
    source: Source
    # (type, value) or, for a value an earlier step returned, (type, value, slot, key):
    # the grader then reads the value from that slot's response in the episode.
    mentions: tuple[tuple[Any, ...], ...] = ()


@dataclass(frozen=True)
class Slot:
    id: str
    alternatives: tuple[tuple[str, ...], ...]  # sides; exactly one for a fixed slot
    inputs: tuple[Input, ...]
    group: str = ""  # alternative group id for a branch slot
    # Upstream values this slot reads only through free text (an e-mail body that
    # mentions a price): (slot, type) pairs. They order the DAG like inputs do.
    reads: tuple[tuple[str, str], ...] = ()

    @property
    def is_branch(self) -> bool:
        return len(self.alternatives) > 1

    @property
    def tools(self) -> list[str]:
        return [t for side in self.alternatives for t in side]

    def upstream(self) -> list[str]:
        return sorted({i.source.slot for i in self.inputs if not i.source.is_literal}
                      | {u for u, _ in self.reads})


@dataclass(frozen=True)
class Call:
    slot: str
    tool: str
    args: dict[str, Any]
    response: dict[str, Any]


@dataclass(frozen=True)
class SolutionPath:
    choice: tuple[int, ...]  # alternative index per slot, in slot order
    calls: tuple[Call, ...]  # in a canonical topological order

    @property
    def length(self) -> int:
        return len(self.calls)


@dataclass
class Task:
    id: str
    level: str
    domains: list[str]
    query: str
    entities: list[dict[str, Any]]  # literals the query states: {"type", "value"}
    slots: list[Slot]
    solutions: list[SolutionPath]
    default: int  # index of s* in ``solutions``
    tools: list[str]  # candidate tools shown to the agent (task tools + distractors)
    meta: dict[str, Any] = field(default_factory=dict)
    # Values the request asks to be told (the final answer must mention each), in the
    # form of a text's mentions: (type, value) or (type, value, slot, key).
    answer: tuple[tuple[Any, ...], ...] = ()

    @property
    def default_path(self) -> SolutionPath:
        return self.solutions[self.default]

    @property
    def slot_by_id(self) -> dict[str, Slot]:
        return {s.id: s for s in self.slots}

    @property
    def task_tools(self) -> list[str]:
        """Tools of the DAG itself (every alternative), without distractors."""
        return sorted({t for s in self.slots for t in s.tools})

    def edges(self) -> list[tuple[str, str, str]]:
        """(upstream slot, downstream slot, semantic type) for every data-flow edge."""
        return sorted({(i.source.slot, s.id, i.type) for s in self.slots for i in s.inputs
                       if not i.source.is_literal} | {(u, s.id, t) for s in self.slots
                                                      for u, t in s.reads})

    def branch_slots(self) -> list[Slot]:
        return [s for s in self.slots if s.is_branch]

    # -- serialisation -------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data; empty optional fields (``mentions``, ``field``, ``reads``,
        ``answer``) are left out, so tasks without them serialise exactly as before
        they existed."""
        d = asdict(self)
        _drop_empty(d, "answer")
        for slot in d["slots"]:
            _drop_empty(slot, "reads")
            for inp in slot["inputs"]:
                _drop_empty(inp, "mentions")
                _drop_empty(inp["source"], "field")
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False,
                          separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Task:
        slots = [Slot(id=s["id"], alternatives=tuple(tuple(a) for a in s["alternatives"]),
                      inputs=tuple(_input_from_dict(i) for i in s["inputs"]),
                      group=s.get("group", ""),
                      reads=tuple((u, t) for u, t in s.get("reads", ()))) for s in d["slots"]]
        sols = [SolutionPath(choice=tuple(p["choice"]),
                             calls=tuple(Call(**c) for c in p["calls"]))
                for p in d["solutions"]]
        return cls(id=d["id"], level=d["level"], domains=list(d["domains"]), query=d["query"],
                   entities=list(d["entities"]), slots=slots, solutions=sols,
                   default=d["default"], tools=list(d["tools"]), meta=dict(d.get("meta", {})),
                   answer=tuple((str(m[0]), *m[1:]) for m in d.get("answer", ())))

    @classmethod
    def from_json(cls, text: str) -> Task:
        return cls.from_dict(json.loads(text))


def _input_from_dict(d: dict[str, Any]) -> Input:
    mentions = tuple((str(m[0]), *m[1:]) for m in d.get("mentions", ()))
    return Input(role=d["role"], type=d["type"], source=Source(**d["source"]),
                 mentions=mentions)


def _drop_empty(d: dict[str, Any], key: str) -> None:
    if d.get(key):
        if isinstance(d[key], tuple):
            d[key] = [list(x) if isinstance(x, tuple) else x for x in d[key]]
    else:
        d.pop(key, None)
