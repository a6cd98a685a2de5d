"""Tool specifications as data: what a tool takes, returns and promises.

A tool is a name, a description a developer would recognise, typed parameters
and output fields, and a reference to a behaviour (a world query, transform or
state change). Alternatives share a behaviour but differ the way real providers
do: argument and field names, units and formats (adapters), and response shapes
(a dotted field name such as ``main.temp`` is nested on the wire). The
behaviour's own names and units are the *canonical* ones (``arg``/``key``), so
any side's values can be mapped onto any other's (``to_canonical`` and
``from_canonical``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus import adapters
from toolmaze_gym.values.numbers import is_number

DOMAINS = ("Office", "Financial", "Travel", "Shopping", "IoT", "General")
CATEGORIES = ("Source", "Processor", "Action")
GROUP_KINDS = ("one_to_one", "one_to_n", "n_to_n")


@dataclass(frozen=True)
class Limits:
    """Bounds a parameter or field documents beyond its semantic type's own."""

    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    one_of: tuple[str, ...] = ()  # a response field's closed set of values

    def schema(self) -> dict[str, float]:
        out = {"minimum": self.minimum, "maximum": self.maximum,
               "exclusiveMinimum": self.exclusive_minimum}
        return {k: v for k, v in out.items() if v is not None}

    @property
    def ranged(self) -> bool:
        """Both bounds documented: the range replaces the type's plausible default range
        (a converter takes oven temperatures that no weather reading reaches)."""
        return self.minimum is not None and self.maximum is not None

    def violation(self, value: Any) -> str | None:
        """The broken bound, or None (malformed values are the type check's business)."""
        if self.one_of and isinstance(value, str) and value not in self.one_of:
            return f"{value!r} is not one of the documented {', '.join(self.one_of)}"
        if not is_number(value):
            return None
        if self.minimum is not None and value < self.minimum:
            return f"{value} is below the documented minimum {self.minimum:g}"
        if self.exclusive_minimum is not None and value <= self.exclusive_minimum:
            return f"{value} is not above the documented {self.exclusive_minimum:g}"
        if self.maximum is not None and value > self.maximum:
            return f"{value} exceeds the documented maximum {self.maximum:g}"
        return None

    def phrase(self) -> str:
        """The bounds as a reader sees them in the docs, e.g. '1–100' or '> 0'."""
        if self.one_of:
            return "one of " + ", ".join(self.one_of)
        lo = self.minimum
        if lo is not None and self.maximum is not None:
            return f"{lo:g}–{self.maximum:g}"
        parts = [f"≥ {lo:g}"] if lo is not None else []
        if self.exclusive_minimum is not None:
            parts.append(f"> {self.exclusive_minimum:g}")
        if self.maximum is not None:
            parts.append(f"≤ {self.maximum:g}")
        return ", ".join(parts)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Limits:
        return cls(d.get("minimum"), d.get("maximum"), d.get("exclusiveMinimum"),
                   tuple(d.get("one_of", ())))


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
    limits: Limits = field(default_factory=lambda: Limits())  # tighter than the type's

    @property
    def canonical(self) -> str:
        return self.arg or self.name

    def json_schema(self) -> dict[str, Any]:
        t = values.get(self.type)
        schema = dict(t.schema)
        if self.enum:
            schema = {"type": "string", "enum": list(self.enum)}
        schema.update(self.limits.schema())
        schema["description"] = self.description
        return schema

    def from_canonical(self, value: Any) -> Any:
        """The argument this provider expects for a canonical value (e.g. cents)."""
        return adapters.apply(adapters.inverse(self.adapt), value)


@dataclass(frozen=True)
class OutputField:
    name: str
    type: str
    description: str = ""
    key: str = ""  # canonical key in the behaviour's result; defaults to ``name``
    adapt: str = ""  # outbound adapter (units, shapes)
    echo: str = ""  # name of a parameter this field must equal (entity invariant)
    limits: Limits = field(default_factory=lambda: Limits())  # documented, checked

    @property
    def canonical(self) -> str:
        return self.key or self.name

    def to_canonical(self, value: Any) -> Any:
        """This provider's value in the behaviour's canonical unit and format."""
        return adapters.apply(adapters.inverse(self.adapt), value)


@dataclass(frozen=True)
class Check:
    """A relation between fields/arguments that a correct response satisfies.

    Operands are ``"arg:NAME"`` or ``"field:NAME"``; ``target`` is a field.
    Kinds: product (target = a·b), quotient (a/b), sum (a+b+…), difference
    (a−b), order (a ≤ target), linear (a·scale + offset, a unit conversion),
    words (the number of words of text a), items (the number of '; '-separated
    items of text a), same_instant (target and a denote one instant in time),
    not_before (the date-time target is not earlier than a).
    """

    kind: str
    target: str
    operands: tuple[str, ...]
    tolerance: float = 0.011
    scale: float = 1.0
    offset: float = 0.0


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
    # (world change, the description before it): what the tool's doc said on an
    # edition without the change, which its answers then followed (``edition_corpus``).
    earlier_descriptions: tuple[tuple[str, str], ...] = ()

    def param(self, name: str) -> Param | None:
        try:
            return self._param_by_name.get(name)
        except TypeError:  # an unhashable name names no parameter
            return None

    @cached_property
    def _param_by_name(self) -> dict[str, Param]:
        """Name -> the first parameter of that name (the grader asks per argument)."""
        out: dict[str, Param] = {}
        for p in self.params:
            out.setdefault(p.name, p)
        return out

    def output(self, name: str) -> OutputField | None:
        return next((f for f in self.returns if f.name == name), None)

    def doc(self) -> str:
        """Description plus the documented response: what a careful reader checks."""
        fields = "; ".join(
            f"{f.name} ({values.get(f.type).description}"
            + (f", {f.limits.phrase()}" if f.limits.phrase() else "")
            + (f", equals the requested {f.echo}" if f.echo else "") + ")"
            for f in self.returns)
        rel = "".join(f" {_check_sentence(c)}." for c in self.checks)
        rel += "".join(f" {b.name} is {a.name} in another unit." for a, b in self.restated_pairs())
        return f"{self.description} Returns: {fields}.{rel}"

    def restated_pairs(self) -> list[tuple[OutputField, OutputField]]:
        """(first, other) fields reporting one canonical value in two units."""
        first: dict[str, OutputField] = {}
        out = []
        for f in self.returns:
            if not f.echo and f.canonical in first:
                out.append((first[f.canonical], f))
            elif not f.echo:
                first[f.canonical] = f
        return out

    def to_canonical(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """A response's values under the behaviour's canonical keys and units.

        Alternatives of a group agree on these (up to rounding), whatever their
        field names, units or shapes; echoes are left out (they restate the request).
        """
        return {f.canonical: f.to_canonical(body[f.name]) for f in self.returns
                if f.name in body and not f.echo}

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


def wire_form(body: Mapping[str, Any]) -> dict[str, Any]:
    """A response body as the provider sends it: dotted field names nest.

    Bodies are flat maps from a field's name to its value (what tasks, faults and
    graders address); ``{"main.temp": 21.5}`` goes on the wire as
    ``{"main": {"temp": 21.5}}``.
    """
    if not any("." in k for k in body):
        return dict(body)
    out: dict[str, Any] = {}
    for key, value in body.items():
        *path, leaf = key.split(".")
        node = out
        for part in path:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out


_NOT_MAPPINGS = frozenset({str, int, float, bool, type(None), list})


def flat_form(wire: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of ``wire_form``: nested objects back to dotted field names."""
    out: dict[str, Any] = {}
    for key, value in wire.items():
        # the JSON scalars and lists are no Mapping: skip the ABC check for them (the
        # grader flattens every response it reads)
        if type(value) not in _NOT_MAPPINGS and isinstance(value, Mapping) and value \
                and key != "error":
            out.update({f"{key}.{k}": v for k, v in flat_form(value).items()})
        else:
            out[key] = value
    return out


def _check_sentence(c: Check) -> str:
    ops = [o.split(":", 1)[1] for o in c.operands]
    sym = {"product": " × ", "quotient": " / ", "sum": " + ", "difference": " − "}
    if c.kind == "order":
        return f"{ops[0]} ≤ {c.target}"
    if c.kind == "not_before":
        return f"{c.target} is not before {ops[0]}"
    if c.kind == "same_instant":
        return f"{c.target} is the same instant as {ops[0]}"
    if c.kind == "linear":
        return f"{c.target} = {ops[0]} × {c.scale:g} + {c.offset:g}"
    if c.kind == "words":
        return f"{c.target} = the number of words in {ops[0]}"
    if c.kind == "items":
        return f"{c.target} = the number of '; '-separated items in {ops[0]}"
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
                 enum=tuple(d.get("enum", ())), limits=Limits.from_dict(d))


def tool_from_dict(d: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name=d["name"], domain=d["domain"], category=d["category"],
        description=d["description"], behaviour=d["behaviour"],
        params=tuple(param_from_dict(p) for p in d.get("params", ())),
        returns=tuple(OutputField(name=f["name"], type=f["type"],
                                  description=f.get("description", ""), key=f.get("key", ""),
                                  adapt=f.get("adapt", ""), echo=f.get("echo", ""),
                                  limits=Limits.from_dict(f))
                      for f in d.get("returns", ())),
        checks=tuple(Check(kind=c["kind"], target=c["target"],
                           operands=tuple(c["operands"]),
                           tolerance=c.get("tolerance", 0.011),
                           scale=c.get("scale", 1.0), offset=c.get("offset", 0.0))
                     for c in d.get("checks", ())),
        stateful=d.get("stateful", False),
        earlier_descriptions=tuple(d.get("description_before", {}).items()))


def group_from_dict(d: dict[str, Any]) -> AltGroup:
    return AltGroup(id=d["id"], kind=d["kind"], domain=d["domain"],
                    members=tuple(tuple(side) for side in d["members"]),
                    provides=tuple(d["provides"]))


# Keep ``field`` importable for callers that build specs in code.
__all__ = ["CATEGORIES", "DOMAINS", "GROUP_KINDS", "AltGroup", "Check", "OutputField", "Param",
           "ToolSpec", "field", "group_from_dict", "tool_from_dict"]
