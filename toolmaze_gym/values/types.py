"""Semantic value types: what a value means, not just its JSON shape.

Every parameter and output field in the corpus carries one of these. Types make
data-flow edges exact (an edge is legal only between equal types), give every
value an invariant a careful reader could check, and say how to corrupt a value
so that the corruption is provably detectable (the witness).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolmaze_gym.world import World

# The five families of implicit faults (docs/faults.md).
CORRUPTION_KINDS = ("range", "consistency", "entity", "stale", "unit")


@dataclass(frozen=True)
class Witness:
    """Why a corrupted value is wrong: the invariant broken or the fact contradicted."""

    kind: str  # one of CORRUPTION_KINDS
    field: str
    invariant: str
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "field": self.field, "invariant": self.invariant,
                "detail": self.detail}


@dataclass(frozen=True)
class CheckContext:
    """What an invariant may look at besides the value itself."""

    world: World
    args: Mapping[str, Any] = field(default_factory=dict)  # the tool call's arguments
    body: Mapping[str, Any] = field(default_factory=dict)  # the whole response body
    field: str = ""


class HiddenFact(Exception):
    """An invariant needed a world fact the agent is not shown (a city's climate)."""


class ClockView:
    """The world as an agent sees it: only the clock (the system prompt states it).

    Invariants evaluated against a ``ClockView`` use what the agent can see — its
    own call, the response, the docs and the time; one that needs any other world
    fact raises ``HiddenFact`` and is not counted as visible evidence.
    """

    def __init__(self, now: Any, now_iso: str) -> None:
        self.now = now
        self.now_iso = now_iso

    def __getattr__(self, name: str) -> Any:
        raise HiddenFact(name)


# check(value, ctx) -> None when valid, else a sentence naming the broken invariant.
Check = Callable[[Any, CheckContext], "str | None"]
# corrupt(value, ctx, key) -> (bad value, detail) or None when not applicable here.
CorruptFn = Callable[[Any, CheckContext, str], "tuple[Any, str] | None"]
# sample(world, key) -> a valid value (used for literals, tests and the random agent).
SampleFn = Callable[["World", str], Any]


@dataclass(frozen=True)
class Corruption:
    name: str
    kind: str
    fn: CorruptFn

    def __post_init__(self) -> None:
        if self.kind not in CORRUPTION_KINDS:
            raise ValueError(f"unknown corruption kind {self.kind!r}")


def _identity(value: Any) -> Any:
    return value


def _always_valid(value: Any, ctx: CheckContext) -> None:
    return None


@dataclass(frozen=True)
class SemanticType:
    """A value type with schema, invariant, normaliser, corruptions and sampler."""

    name: str
    schema: Mapping[str, Any]
    description: str
    sample: SampleFn
    check: Check = _always_valid
    normalise: Callable[[Any], Any] = _identity
    corruptions: tuple[Corruption, ...] = ()
    literal: bool = False  # may be stated in a user query (a city, a recipient, a date)
    # An id of a record the world holds before the episode (an open invoice, a price
    # alert): a scenario may state it, while procedural assembly (v1) still takes
    # such ids only from the call that made them.
    stated: bool = False
    phrase: Callable[[Any], str] = str  # how a query writes the value
    # Whether an API rejects an argument that breaks the invariant (an unknown city
    # is a 422); free text is accepted as sent, whatever it says.
    input_check: bool = True

    def violation(self, value: Any, ctx: CheckContext) -> str | None:
        """The broken invariant for ``value``, or None; never raises."""
        try:
            return self.check(value, ctx)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            return f"{self.name}: malformed value ({exc.__class__.__name__})"

    def same(self, a: Any, b: Any) -> bool:
        """Whether two values mean the same thing (argument grading)."""
        try:
            return self.normalise(a) == self.normalise(b)
        except (TypeError, ValueError, AttributeError):
            return a == b


_REGISTRY: dict[str, SemanticType] = {}


def register(t: SemanticType) -> SemanticType:
    if t.name in _REGISTRY and _REGISTRY[t.name] is not t:
        raise ValueError(f"semantic type {t.name!r} registered twice")
    _REGISTRY[t.name] = t
    return t


def get(name: str) -> SemanticType:
    _load_catalog()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown semantic type {name!r}") from None


def all_types() -> dict[str, SemanticType]:
    _load_catalog()
    return dict(_REGISTRY)


def _load_catalog() -> None:
    # The catalog modules register themselves on import.
    from toolmaze_gym.values import catalog  # noqa: F401
