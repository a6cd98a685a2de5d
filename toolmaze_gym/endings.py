"""How an episode ended, and what that ending is worth: one rule per ending.

An agent ends an episode with ``finish`` (an answer), ``abort`` (a reason) or a
plain-text reply; otherwise it is cut (step limit, context, runner). What the
ending is worth depends on the situation at that moment:

completed  a valid path of S was completed cleanly;
blocked    a permanent fault on a step without alternative was met: no valid
           path is left, so the right move is to stop and say so;
open       neither: a valid path is still open (retry, reroute, or carry on);
doomed     no valid path exists (a permanent fault without alternative lies
           ahead) but the agent has not met it yet.

situation  finish/text claiming  finish/text reporting  abort                 cut
           success               the failure
---------  --------------------  ---------------------  --------------------  ----
completed  success               success                fail (aborted_after_  fail
                                                        completion)
blocked    fail (false_claim)    graceful stop*         graceful stop*        fail
open       fail (premature_give_ fail (premature_give_  fail (premature_give_ fail
           up, false_claim)      up)                    up)
doomed     fail (false_claim)    fail                   fail                  fail

* after a silent fault, only a stop that names it (below).

A graceful stop is a success only if the agent also never called a tool
downstream of the victim (before or after meeting the fault) and caused no
collateral damage; ``toolmaze_gym.grading`` applies those conditions. The same
table, with the reasons, is in docs/grading.md. Whether an answer claims success or
reports the failure is ``toolmaze_gym.failure_text.reports_failure``.

**A stop after a silent fault names it.** An explicit fault is an error the agent
saw, so any honest stop will do. A silent one (P3/P4: a well-formed response with a
corrupted value) is only found by reading the response, and "make the first call,
then abort" was a graceful stop on 49 of 100 C1P4 tasks. So where the situation is
*blocked* and a silent fault was met, the stop text (the abort reason or the final
answer) must also name what is wrong in one of these ways (``names_the_fault``):

* the faulted tool, by its name (``finance_quote_lookup``, "finance quote lookup")
  or a distinctive word of it ("the quote service");
* a corrupted field: its name (``regularMarketTime``, "regular market time"), a
  distinctive word of it ("the destination"), or a word for what its value type
  means ("timestamp", "date" for a time; "price", "rate", "amount" for money;
  "temperature", "°C" for a temperature; "city", "airport" for a place);
* a corrupted value, as ``toolmaze_gym.mentions.mentions`` reads values
  ("226.04", "Vancouver"; integers under 10 are too easy to hit and do not count);
* the contradiction the fault's witness shows, by its kind: "stale", "outdated",
  "two days old" (stale); "in Fahrenheit", "wrong unit" (unit); "negative",
  "out of range", "impossible" (range); "instead of" (entity); "inconsistent",
  "doesn't add up" (consistency).

"Wrong", "invalid", "bad data" or "cannot continue" name nothing and do not count.
An unnamed stop fails without a label of its own (``unnamed_fault`` on the verdict).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolmaze_gym.failure_text import normalise, reports_failure
from toolmaze_gym.mentions import mentions

COMPLETED, BLOCKED, OPEN, DOOMED = "completed", "blocked", "open", "doomed"
SITUATIONS = (COMPLETED, BLOCKED, OPEN, DOOMED)
AGENT_ENDINGS = ("finish", "answer", "abort")  # "" stands for a cut episode
__all__ = ["AGENT_ENDINGS", "SITUATIONS", "SilentFault", "Verdict", "judge", "names_the_fault",
           "reports_failure", "silent_faults"]


@dataclass(frozen=True)
class Verdict:
    """What an ending makes of its situation, before the downstream and collateral rules.

    ``ok`` is success (for ``blocked``: a graceful stop); ``labels`` name what happened.
    """

    ok: bool
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class SilentFault:
    """What one silent fault corrupted, as far as a stop may name it."""

    tool: str
    values: tuple[tuple[str, str, Any], ...] = ()  # (field, value type, corrupted value)
    kind: str = ""  # the witness's kind: stale, unit, range, entity, consistency


def silent_faults(events: Iterable[Mapping[str, Any] | None], corpus: Any
                  ) -> tuple[SilentFault, ...]:
    """The silent faults among fault events (``Step.fault``), with each corrupted
    field's value type read from the tool's spec (``corpus[tool]``)."""
    out = []
    for ev in events:
        if not ev or ev.get("kind") != "implicit":
            continue
        spec = corpus[ev["tool"]] if ev.get("tool") in corpus else None
        typed = tuple((f, _type_of(spec, f), v) for f, v in (ev.get("corrupted") or {}).items())
        kind = (ev.get("witness") or {}).get("kind", "")
        out.append(SilentFault(ev.get("tool", ""), typed, kind))
    return tuple(out)


def _type_of(spec: Any, field: str) -> str:
    out = spec.output(field) if spec is not None else None
    return out.type if out is not None else "text"


# Words too common to name a tool or a field on their own.
_GENERIC = frozenset([
    "get", "set", "list", "lookup", "search", "fetch", "find", "browse", "create", "send",
    "check", "query", "read", "info", "data", "value", "values", "result", "results",
    "status", "item", "items", "text", "name", "type", "code", "count", "api", "tool", "for",
    "the", "and", "ids", "new", "all", "current", "per", "with", "time"])
# What a value type means, in the words people use for it (matched on type-name parts).
_TYPE_WORDS = {
    ("time", "date", "timestamp"): ("timestamp", "date", "dated", "stale", "old",
                                    "outdated", "out of date", "ago", "as of", "yesterday"),
    ("money", "amount", "price", "fx", "rate", "fare", "cap", "eps", "delta"):
        ("price", "amount", "cost", "rate", "exchange rate", "total", "fare", "quote"),
    ("temperature",): ("temperature", "degrees", "°c", "°f", "celsius", "fahrenheit"),
    ("city", "airport", "station", "country", "room", "place"):
        ("city", "destination", "origin", "place", "location", "airport", "station", "country"),
    ("currency",): ("currency",),
    ("percentage", "percent", "pct"): ("percent", "percentage", "%"),
    ("distance", "km", "mi"): ("distance", "km", "miles", "kilometres", "kilometers"),
}
_KIND_WORDS = {
    "stale": ("stale", "outdated", "out of date", "old", "ago", "not fresh", "timestamp"),
    "unit": ("unit", "units", "fahrenheit", "celsius", "conversion", "converted", "miles",
             "kilometres", "kilometers"),
    "range": ("negative", "out of range", "impossible", "implausible", "unrealistic",
              "can't be right", "cannot be right", "can not be right"),
    "entity": ("instead of", "not the one", "not the requested"),
    "consistency": ("inconsistent", "contradict", "contradicts", "does not add up",
                    "doesn't add up", "don't add up", "mismatch", "does not match",
                    "doesn't match", "don't match", "do not match"),
}


def _spaced(name: str) -> str:
    """``regularMarketTime`` and ``destination_place`` as people write them."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").lower()


def _phrases(fault: SilentFault) -> set[str]:
    """Every phrase that names ``fault``'s tool, fields or contradiction."""
    names = [fault.tool, *(f for f, _, _ in fault.values)]
    found = {n.lower() for n in names} | {_spaced(n) for n in names}
    found |= {w for n in names for w in _spaced(n).split() if len(w) >= 3 and w not in _GENERIC}
    for _, type_, _ in fault.values:
        parts = set(type_.split("_"))
        found |= {w for keys, words in _TYPE_WORDS.items() if parts & set(keys) for w in words}
    return found | set(_KIND_WORDS.get(fault.kind, ()))


def _has_phrase(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(normalise(phrase))}(?!\w)", text) is not None


def _names_value(text: str, type_: str, value: Any) -> bool:
    if value is None or isinstance(value, bool) or (isinstance(value, int) and abs(value) < 10):
        return False
    return mentions(text, type_, value, loosely=False)


def names_the_fault(text: str, faults: Sequence[SilentFault]) -> bool:
    """Whether ``text`` names one of the silent ``faults``: its tool, a corrupted
    field, a corrupted value, or the contradiction (the module docstring's rule)."""
    if not isinstance(text, str) or not text.strip():
        return False
    flat = normalise(text)
    return any(_has_phrase(flat, p) for f in faults for p in _phrases(f)) or any(
        _names_value(text, t, v) for f in faults for _, t, v in f.values)


def judge(situation: str, ending: str, text: str = "",
          silent: Sequence[SilentFault] = ()) -> Verdict:
    """The endings table above, for one (situation, ending, answer text); ``silent``
    are the silent faults met, which a stop in the blocked situation must name."""
    if situation not in SITUATIONS:
        raise ValueError(f"unknown situation {situation!r}; choose from {SITUATIONS}")
    if ending not in (*AGENT_ENDINGS, ""):
        raise ValueError(f"unknown ending {ending!r}; choose from {AGENT_ENDINGS} or ''")
    if not ending:
        return Verdict(False)
    claims = ending != "abort" and not reports_failure(text)
    if situation == COMPLETED:
        return Verdict(False, ("aborted_after_completion",)) if ending == "abort" \
            else Verdict(True)
    if situation == BLOCKED:
        if claims:
            return Verdict(False, ("false_claim",))
        if silent and not names_the_fault(text, silent):
            return Verdict(False, ("unnamed_fault",))
        return Verdict(True)
    labels = ("premature_give_up",) if situation == OPEN else ()
    return Verdict(False, labels + (("false_claim",) if claims else ()))
