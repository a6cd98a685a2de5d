"""Scenario premises: what the query takes for granted, checked against the drawn data.

A query says things about the world that the draw has to make true: a parcel
"running late" is due after the flight, "the cheaper of the two" is the cheaper
one, a product "blender" is a blender, the sensor reads "over" the threshold. A
scenario states them as ``premises``, one condition per string::

    premises = ["eta.estimated_delivery > leave.datetime", "item.name contains 'Blender'"]

An operand is a param (``$date``), the canonical result key of a step of the
reference run (``eta.estimated_delivery``) or a literal (``12``, ``'Blender'``,
``true``). Operators: ``==  !=  <  <=  >  >=`` and ``contains`` / ``!contains``
(a text holds another, case-insensitive). Numbers compare as numbers; ISO dates
and date-times as points in time, at the granularity of the coarser side (a date
against a date-time compares the days: a delivery "after the flight" is on a
later day than the departure); other values as case-insensitive text.

The generator evaluates every premise on every valid path of a built task and
rejects a draw that contradicts one, as ``differs_from`` does (it tries another
draw), so no emitted task states something its own data denies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "!contains", "contains")
ORDERING = frozenset({"<", "<=", ">", ">="})
_PARAM = re.compile(r"^\$([a-z][a-z0-9_]*)$")
_FIELD = re.compile(r"^([a-z][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_.]*)$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_QUOTED = re.compile(r"^'([^']*)'$|^\"([^\"]*)\"$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_SPLIT = re.compile(r"\s+(==|!=|<=|>=|<|>|!contains|contains)\s+")


@dataclass(frozen=True)
class Operand:
    """One side of a premise: a param, a step's result key, or a literal."""

    kind: str  # "param" | "field" | "literal"
    ref: str = ""  # param name, or "step.key"
    value: Any = None  # the literal

    @property
    def step(self) -> str:
        return self.ref.split(".", 1)[0] if self.kind == "field" else ""

    @property
    def key(self) -> str:
        return self.ref.split(".", 1)[1] if self.kind == "field" else ""

    def __str__(self) -> str:
        if self.kind == "param":
            return f"${self.ref}"
        return self.ref if self.kind == "field" else repr(self.value)


@dataclass(frozen=True)
class Premise:
    """``left op right``, as the scenario wrote it (``text``)."""

    left: Operand
    op: str
    right: Operand
    text: str

    @property
    def operands(self) -> tuple[Operand, Operand]:
        return self.left, self.right


# ---------------------------------------------------------------- parsing


def _operand(raw: str) -> Operand | None:
    raw = raw.strip()
    if m := _PARAM.match(raw):
        return Operand("param", m.group(1))
    if _NUMBER.match(raw):
        return Operand("literal", value=float(raw) if "." in raw else int(raw))
    if m := _QUOTED.match(raw):
        return Operand("literal", value=m.group(1) if m.group(1) is not None else m.group(2))
    if raw in ("true", "false"):
        return Operand("literal", value=raw == "true")
    if _FIELD.match(raw):
        return Operand("field", raw)
    return None


def parse_premise(text: str) -> Premise:
    """One premise string; ValueError says what is wrong with it."""
    parts = _SPLIT.split(text.strip(), maxsplit=1)
    if len(parts) != 3:
        raise ValueError(f"{text!r} is not `left OP right` with OP one of "
                         f"{', '.join(OPERATORS)}")
    left, op, right = _operand(parts[0]), parts[1], _operand(parts[2])
    for raw, side in ((parts[0], left), (parts[2], right)):
        if side is None:
            raise ValueError(f"{text!r}: {raw.strip()!r} is not $param, step.key, a number, "
                             "a quoted text or true/false")
    if left.kind == right.kind == "literal":
        raise ValueError(f"{text!r} compares two literals: it says nothing about the draw")
    return Premise(left, op, right, text.strip())


def parse_premises(raw: Any, where: str, problems: list[str]) -> tuple[Premise, ...]:
    """A scenario's ``premises`` list; every problem goes to ``problems``."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        problems.append(f"{where}: a list of conditions such as \"eta.estimated_delivery > "
                        "leave.datetime\"")
        return ()
    out = []
    for k, text in enumerate(raw):
        try:
            out.append(parse_premise(text))
        except ValueError as exc:
            problems.append(f"{where}[{k}]: {exc}")
    return tuple(out)


def check_premises(premises: Sequence[Premise], params: dict[str, str],
                   step_keys: dict[str, set[str] | None], where: str) -> list[str]:
    """Static problems: unknown params, steps or result keys (``params``: name ->
    type; ``step_keys``: step id -> the keys its capability returns, None if unknown)."""
    out = []
    for k, p in enumerate(premises):
        w = f"{where}[{k}]"
        for o in p.operands:
            if o.kind == "param" and o.ref not in params:
                out.append(f"{w}: {p.text!r} names no param {o.ref!r} of this scenario")
            elif o.kind == "field" and o.step not in step_keys:
                out.append(f"{w}: {p.text!r} names no step {o.step!r} of this scenario")
            elif o.kind == "field" and step_keys[o.step] is not None \
                    and o.key not in step_keys[o.step]:
                keys = ", ".join(sorted(step_keys[o.step] or ()))
                out.append(f"{w}: step {o.step!r} returns no {o.key!r} (keys: {keys})")
        if p.op in ORDERING and any(o.kind == "literal" and isinstance(o.value, str | bool)
                                    for o in p.operands):
            out.append(f"{w}: {p.text!r} orders a text; {p.op} compares numbers and dates")
        if p.op.endswith("contains") and any(o.kind == "literal" and not isinstance(o.value, str)
                                             for o in p.operands):
            out.append(f"{w}: {p.text!r}: contains compares texts")
    return out


# ---------------------------------------------------------------- evaluation


def _when(v: Any) -> datetime | date | None:
    if not isinstance(v, str):
        return None
    s = v.strip()
    if _DATE.match(s):
        return date.fromisoformat(s)
    if _DATETIME.match(s):
        try:
            d = datetime.fromisoformat(s.replace("Z", "+00:00"))
        except ValueError:
            return None
        return d if d.tzinfo else d.replace(tzinfo=UTC)
    return None


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v)
    if isinstance(v, str) and _NUMBER.match(v.strip()):
        return float(v)
    return None


def _comparable(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Both values as numbers, points in time, or normalised texts (None: incomparable)."""
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None:
        return na, nb
    ta, tb = _when(a), _when(b)
    if ta is not None and tb is not None:
        if isinstance(ta, datetime) and isinstance(tb, datetime):
            return ta, tb
        # A day against an instant: the day the instant falls on, as written.
        return (ta if not isinstance(ta, datetime) else date.fromisoformat(a.strip()[:10]),
                tb if not isinstance(tb, datetime) else date.fromisoformat(b.strip()[:10]))
    if isinstance(a, bool) or isinstance(b, bool):
        return (a, b) if isinstance(a, bool) and isinstance(b, bool) else None
    if na is not None or nb is not None or ta is not None or tb is not None:
        return None
    return " ".join(str(a).split()).lower(), " ".join(str(b).split()).lower()


def holds(op: str, a: Any, b: Any) -> bool | None:
    """Whether ``a op b`` (None: the values cannot be compared that way)."""
    if op.endswith("contains"):
        if not isinstance(a, str) or not isinstance(b, str):
            return None
        inside = " ".join(b.split()).lower() in " ".join(a.split()).lower()
        return inside if op == "contains" else not inside
    pair = _comparable(a, b)
    if pair is None:
        return None
    x, y = pair
    if op == "==":
        return x == y
    if op == "!=":
        return x != y
    if isinstance(x, str | bool):
        return None
    return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


Lookup = Callable[[Operand], Iterable[Any]]


def draw_lookup(corpus: Any, solutions: Sequence[Any], slot_of: dict[str, str],
                params: dict[str, Any]) -> Lookup:
    """Operand values of a built task: a param's drawn value; a step's key as every
    valid path's response gives it (the last call of the step's side that returns
    the key: a composite side hands on its final tool's value)."""

    def lookup(o: Operand) -> list[Any]:
        if o.kind == "param":
            return [params[o.ref]] if o.ref in params else []
        out = []
        for path in solutions:
            found = [c.response[f.name] for c in path.calls if c.slot == slot_of[o.step]
                     for f in corpus[c.tool].returns
                     if f.canonical == o.key and f.name in c.response]
            out += found[-1:]
        return out

    return lookup


@dataclass(frozen=True)
class Violation:
    """A premise the drawn task does not satisfy. ``unchecked``: no value to check
    it on (a side that does not return the key), rather than data that deny it."""

    premise: Premise
    message: str
    unchecked: bool = False


def violations(premises: Sequence[Premise], lookup: Lookup) -> list[Violation]:
    """Why the drawn data contradicts premises (empty: every premise holds).

    ``lookup`` gives an operand's values: one per valid path for a step's key
    (alternatives read the same facts, so they agree), the drawn value for a
    param. Every pair must satisfy the premise; a key no path returned is a
    problem too, since the premise then goes unchecked.
    """
    out = []
    for p in premises:
        sides = []
        for o in p.operands:
            vals = [o.value] if o.kind == "literal" else list(lookup(o))
            if not vals:
                out.append(Violation(p, f"premise {p.text!r}: no response of the reference "
                                        f"run gives {o}", unchecked=True))
            sides.append(vals)
        if not all(sides):
            continue
        for va in _unique(sides[0]):
            for vb in _unique(sides[1]):
                ok = holds(p.op, va, vb)
                if ok is None:
                    out.append(Violation(p, f"premise {p.text!r}: cannot compare {va!r} "
                                            f"{p.op} {vb!r}", unchecked=True))
                elif not ok:
                    out.append(Violation(p, f"premise {p.text!r} does not hold: {va!r} "
                                            f"{p.op} {vb!r} is false"))
    return out


def _unique(vals: Iterable[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for v in vals:
        seen.setdefault(repr(v), v)
    return list(seen.values())
