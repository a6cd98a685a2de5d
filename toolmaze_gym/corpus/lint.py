"""Descriptions that agree with schemas: what a description states, the schema enforces.

An agent reads "Units, 1-100" and sends 100; the API must then accept 100 and
refuse 101, or the docs lie. This module reads the limits a parameter's (or a
response field's) description states — ranges, lower and upper bounds, closed
lists of words — and compares them with the JSON schema (parameters) or the
documented limits the invariants check (fields).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.corpus.spec import OutputField, Param, ToolSpec

_NUM = r"(-?\d+(?:\.\d+)?)"
_RANGE = re.compile(rf"(?:^|,\s*|:\s*|\bfrom\s+|\bbetween\s+){_NUM}\s*(?:-|–|to|and)\s*{_NUM}\b")
_AT_LEAST = re.compile(rf"(?:\bat least|≥|>=|\bminimum)\s*{_NUM}")
_ABOVE = re.compile(rf"(?:^|[\s,(])>\s*{_NUM}")
_AT_MOST = re.compile(rf"(?:\bat most|\bup to|≤|<=|\bmaximum|\bmax\.?)\s*{_NUM}\b(?!\s*days)")
_WORDS = re.compile(r"(?:^|:\s*)([a-z_]+(?:,\s*[a-z_]+)*,?\s+or\s+[a-z_]+)\s*$")


@dataclass(frozen=True)
class Stated:
    """What a description promises; None where it says nothing."""

    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    enum: tuple[str, ...] | None = None

    @property
    def empty(self) -> bool:
        return self == Stated()


def _plain(description: str) -> str:
    """The description without examples and quoted literals (they state no limits)."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "", description)
    return re.split(r"\be\.g\.", text)[0].strip().rstrip(",")


def stated(description: str) -> Stated:
    """The limits ``description`` states (ranges, bounds, a closed list of words)."""
    text = _plain(description)
    lo = hi = above = None
    if (m := _RANGE.search(text)) is not None:
        lo, hi = float(m.group(1)), float(m.group(2))
    if (m := _AT_LEAST.search(text)) is not None:
        lo = float(m.group(1))
    if (m := _ABOVE.search(text)) is not None:
        above = float(m.group(1))
    if (m := _AT_MOST.search(text)) is not None:
        hi = float(m.group(1))
    enum = None
    if (m := _WORDS.search(text)) is not None and not re.search(r"\d", m.group(1)):
        enum = tuple(w.strip() for w in re.split(r",|\bor\b", m.group(1)) if w.strip())
    return Stated(lo, hi, above, enum)


def _schema_of(item: Param | OutputField) -> dict[str, Any]:
    if isinstance(item, Param):
        return item.json_schema()
    schema = dict(values.get(item.type).schema)
    schema.update(item.limits.schema())
    return schema


def _numeric_problems(s: Stated, schema: dict[str, Any]) -> list[str]:
    out = []
    integer = schema.get("type") == "integer"
    low = schema.get("minimum")
    ex = schema.get("exclusiveMinimum")
    if s.minimum is not None:
        ok = low == s.minimum or (integer and ex is not None and ex + 1 == s.minimum)
        if not ok:
            out.append(f"states a minimum of {s.minimum:g}, schema has "
                       f"minimum={low} exclusiveMinimum={ex}")
    if s.exclusive_minimum is not None:
        ok = ex == s.exclusive_minimum or (low is not None and low > s.exclusive_minimum)
        if not ok:
            out.append(f"states > {s.exclusive_minimum:g}, schema has "
                       f"minimum={low} exclusiveMinimum={ex}")
    if s.maximum is not None and schema.get("maximum") != s.maximum:
        out.append(f"states a maximum of {s.maximum:g}, schema has "
                   f"maximum={schema.get('maximum')}")
    return out


def problems(item: Param | OutputField) -> list[str]:
    """How ``item``'s description disagrees with its schema (empty if it agrees)."""
    s = stated(item.description)
    if s.empty:
        return []
    schema = _schema_of(item)
    out: list[str] = []
    if schema.get("type") in ("number", "integer"):
        out += _numeric_problems(s, schema)
    elif s.enum is not None and schema.get("type") == "string":
        allowed = schema.get("enum") or (list(item.limits.one_of) or None
                                         if isinstance(item, OutputField) else None)
        if allowed is None or set(allowed) != set(s.enum):
            out.append(f"lists {', '.join(s.enum)}; schema enum is {allowed}")
    return out


def tool_problems(spec: ToolSpec) -> list[str]:
    out = [f"{spec.name}({p.name}): {msg}" for p in spec.params for msg in problems(p)]
    out += [f"{spec.name} -> {f.name}: {msg}" for f in spec.returns for msg in problems(f)]
    return out


def corpus_problems(corpus: Corpus) -> list[str]:
    """Every description in the corpus that disagrees with its schema."""
    return [msg for name in sorted(corpus.tools) for msg in tool_problems(corpus[name])]
