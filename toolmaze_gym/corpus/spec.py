"""Tool specifications as data: what a tool takes, returns and promises.

A tool is a name, a description a developer would recognise, typed parameters
and output fields, and a reference to a behaviour (a world query, transform or
state change). Alternatives share a behaviour but differ in names and units.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym import values

DOMAINS = ("Office", "Financial", "Travel", "Shopping", "IoT", "General")
CATEGORIES = ("Source", "Processor", "Action")
GROUP_KINDS = ("one_to_one", "one_to_n", "n_to_n")


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    description: str
    required: bool = True
    default: Any = None
    arg: str = ""  # canonical argument of the behaviour; defaults to ``name``
    adapt: str = ""  # inbound adapter applied before the behaviour sees the value
    enum: tuple[str, ...] = ()  # a closed set of accepted values, if any

    @property
    def canonical(self) -> str:
        return self.arg or self.name

    def json_schema(self) -> dict[str, Any]:
        t = values.get(self.type)
        schema = dict(t.schema)
        if self.enum:
            schema = {"type": "string", "enum": list(self.enum)}
        schema["description"] = self.description
        return schema


@dataclass(frozen=True)
class OutputField:
    name: str
    type: str
    description: str = ""
    key: str = ""  # canonical key in the behaviour's result; defaults to ``name``
    adapt: str = ""  # outbound adapter (units, shapes)
    echo: str = ""  # name of a parameter this field must equal (entity invariant)

    @property
    def canonical(self) -> str:
        return self.key or self.name


@dataclass(frozen=True)
class Check:
    """A relation between fields/arguments that a correct response satisfies.

    Operands are ``"arg:NAME"`` or ``"field:NAME"``; ``target`` is a field.
    Kinds: product (target = a·b), quotient (a/b), sum (a+b+…), difference
    (a−b), order (a ≤ target).
    """

    kind: str
    target: str
    operands: tuple[str, ...]
    tolerance: float = 0.011


@dataclass(frozen=True)
class ToolSpec:
    name: str
    domain: str
    category: str
    description: str
    behaviour: str
    params: tuple[Param, ...]
    returns: tuple[OutputField, ...]
    checks: tuple[Check, ...] = ()
    stateful: bool = False

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def output(self, name: str) -> OutputField | None:
        return next((f for f in self.returns if f.name == name), None)

    def doc(self) -> str:
        """Description plus the documented response: what a careful reader checks."""
        fields = "; ".join(
            f"{f.name} ({values.get(f.type).description}"
            + (f", equals the requested {f.echo}" if f.echo else "") + ")"
            for f in self.returns)
        rel = "".join(f" {_check_sentence(c)}." for c in self.checks)
        return f"{self.description} Returns: {fields}.{rel}"

    def parameters_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {p.name: p.json_schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def openai_schema(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": self.name, "description": self.doc(),
            "parameters": self.parameters_schema()}}


def _check_sentence(c: Check) -> str:
    ops = [o.split(":", 1)[1] for o in c.operands]
    sym = {"product": " × ", "quotient": " / ", "sum": " + ", "difference": " − "}
    if c.kind == "order":
        return f"{ops[0]} ≤ {c.target}"
    return f"{c.target} = {sym[c.kind].join(ops)}"


@dataclass(frozen=True)
class AltGroup:
    """Interchangeable ways to obtain the same values (or the same state change).

    ``members`` are sides; a side is one tool (one_to_one, one_to_n) or a chain
    of tools run in order (n_to_n). Every side yields the ``provides`` types.
    """

    id: str
    kind: str
    domain: str
    members: tuple[tuple[str, ...], ...]
    provides: tuple[str, ...]

    @property
    def tools(self) -> frozenset[str]:
        return frozenset(t for side in self.members for t in side)


def param_from_dict(d: dict[str, Any]) -> Param:
    return Param(name=d["name"], type=d["type"], description=d.get("description", ""),
                 required=d.get("required", True), default=d.get("default"),
                 arg=d.get("arg", ""), adapt=d.get("adapt", ""),
                 enum=tuple(d.get("enum", ())))


def tool_from_dict(d: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name=d["name"], domain=d["domain"], category=d["category"],
        description=d["description"], behaviour=d["behaviour"],
        params=tuple(param_from_dict(p) for p in d.get("params", ())),
        returns=tuple(OutputField(name=f["name"], type=f["type"],
                                  description=f.get("description", ""), key=f.get("key", ""),
                                  adapt=f.get("adapt", ""), echo=f.get("echo", ""))
                      for f in d.get("returns", ())),
        checks=tuple(Check(kind=c["kind"], target=c["target"],
                           operands=tuple(c["operands"]),
                           tolerance=c.get("tolerance", 0.011))
                     for c in d.get("checks", ())),
        stateful=d.get("stateful", False))


def group_from_dict(d: dict[str, Any]) -> AltGroup:
    return AltGroup(id=d["id"], kind=d["kind"], domain=d["domain"],
                    members=tuple(tuple(side) for side in d["members"]),
                    provides=tuple(d["provides"]))


# Keep ``field`` importable for callers that build specs in code.
__all__ = ["CATEGORIES", "DOMAINS", "GROUP_KINDS", "AltGroup", "Check", "OutputField", "Param",
           "ToolSpec", "field", "group_from_dict", "tool_from_dict"]
