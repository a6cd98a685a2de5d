"""Over-trust: a corrupted value that reached a later call, or the user.

A value that the later call's expected arguments also hold there is not counted:
the agent may have it from a clean source (a unit conversion can produce the very
number a unit-confusion corruption shows). In a free-text argument the corrupted
value counts when the text mentions it (an e-mail quoting the wrong price) and not
the clean one; the same holds for the final answer (``finish``, or a plain reply),
where a corrupted value told to the user as a result is passed on just as surely —
but not where the sentence that names it says it is wrong (a warning, the opposite of
passing it on). An ``abort`` is not: it claims nothing.

A number the agent had from elsewhere is no trust of the corrupted one, wherever it
goes: one the request itself states ("2 webcams" beside a corrupted transit time of 2
days), one a clean response of the episode gave before as a value of the same type (a
price that another clean look-up also quoted), and in text a figure told with another
unit than the field's ("Bedroom set to 19 °C" tells no stale air-quality index of
19): the v7 play-test's c2-0080 P4 and c4-0081 P3.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from toolmaze_gym.corpus import Corpus, load_corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.failure_text import reports_failure
from toolmaze_gym.grading.index import TaskIndex, task_index
from toolmaze_gym.grading.own_rounding import printed_places
from toolmaze_gym.mentions import FREE_TEXT, degrees_blanked, mentions, numbers_in
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.values.numbers import is_number

TOLERANCE = 1e-6  # relative: a number this close to the corrupted one is that number
TOLD = ("finish", "answer")  # endings that tell the user a result


def _values_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=1e-9)
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.split()).lower() == " ".join(b.split()).lower()
    return False


def _leaves(obj: Any):
    """The scalars in ``obj``, in order, by a flat walk: an agent's arguments (as a
    record holds them) may nest deeper than Python's recursion limit."""
    stack = [obj]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, list):
            stack.extend(reversed(v))
        else:
            yield v


def _field_type(corpus: Corpus | None, tool: str, name: str) -> str:
    spec = corpus.tools.get(tool) if corpus is not None else None
    out = spec.output(name) if spec is not None else None
    return out.type if out is not None else ""


def _is_free_text(corpus: Corpus | None, tool: str, pname: str) -> bool:
    spec = corpus.tools.get(tool) if corpus is not None else None
    p = spec.param(pname) if spec is not None else None
    return p is not None and p.type == FREE_TEXT


def _propagated(steps: Sequence[Step], idx: TaskIndex | None) -> bool:
    """Whether a corrupted value was sent in a later call's arguments."""
    corpus = idx.corpus if idx is not None else None
    bad: list[tuple[int, Any, Any, str]] = []
    for i, s in enumerate(steps):
        f = s.fault
        if f and f.get("corrupted"):
            clean = f.get("clean") or {}
            bad += [(i, v, clean.get(k), _field_type(corpus, f.get("tool", ""), k))
                    for k, v in f["corrupted"].items()]
    if not bad:
        return False
    query = idx.task.query if idx is not None else ""
    had = _Had(bad, query)  # what the agent had without the faulty responses, by step j
    for j in range(len(steps)):
        later = steps[j]
        if j <= bad[0][0]:
            had.add(_response_values(steps[j], corpus))
            continue
        live = [(b, c, t) for k, (i, b, c, t) in enumerate(bad) if i < j and not had[k]]
        had.add(_response_values(later, corpus))
        if later.kind in TOLD:
            answer = later.action.get("text") or ""
            # Told as a result: in a sentence that does not warn about it, and the
            # answer never gives the clean value (an agent that names both noticed).
            clean = [(b, c, t) for b, c, t in live
                     if c is None or not mentions(answer, t, c, loosely=False)]
            if any(_tells(part, clean, ()) for part in _results(answer)):
                return True
            continue
        args = later.action.get("arguments")
        if later.kind != "call" or not isinstance(args, dict):
            continue
        name = later.action.get("name")
        for pname, value in args.items():
            expected = idx.expected_args.get((name, pname), ()) if idx else ()
            if isinstance(value, str) and _is_free_text(corpus, name, pname):
                if _tells(value, live, expected):
                    return True
                continue
            for leaf in _leaves(value):
                if any((_values_equal(leaf, b) or _rounded_from(leaf, b, c))
                       and not _values_equal(leaf, c) for b, c, _ in live) \
                        and not any(_values_equal(leaf, e) for e in expected):
                    return True
    return False


def _response_values(step: Step, corpus: Corpus | None) -> list[tuple[str, Any]]:
    """The (type, value) of each top-level field a clean response gave (none for a
    faulted or failed step)."""
    if not step.clean_ok:
        return []
    try:
        response = json.loads(step.observation)
    except ValueError:
        return []
    if not isinstance(response, dict):
        return []
    tool = step.action.get("name", "")
    return [(_field_type(corpus, tool, k), v) for k, v in response.items()]


class _Had:
    """Per corrupted value: whether the agent had the number without the faulty
    response: the request states it, or a clean response so far gave it as a value of
    the same type (a set point of 19.0 is no air-quality index of 19). Only numbers
    coincide so: a name, an id or a date a corruption shows is news of its own. Kept
    as responses come (``add``), so each response is compared once, not at every
    later step."""

    def __init__(self, bad: Sequence[tuple[int, Any, Any, str]], query: str) -> None:
        self._numbers = [is_number(b) for _, b, _, _ in bad]
        self._bad = bad
        self._had = [n and mentions(query, t, b, loosely=False)
                     for n, (_, b, _, t) in zip(self._numbers, bad, strict=True)]

    def add(self, seen: Sequence[tuple[str, Any]]) -> None:
        for k, (_, b, _, type_name) in enumerate(self._bad):
            if self._numbers[k] and not self._had[k]:
                self._had[k] = any(t == type_name and _values_equal(b, v) for t, v in seen)

    def __getitem__(self, k: int) -> bool:
        return self._had[k]


def _results(answer: str) -> list[str]:
    """The sentences of a final answer that tell the user a result: a sentence that
    reports a value as wrong ("the look-up returned another product, Zephyr Running
    Shoes, so I did not use it"), or as what a tool kept answering before the agent
    switched ("gnews kept returning a health story, so I used NewsAPI": grading version
    23, its play-test's c2-0016 P4), warns the user of it, which is the opposite of
    passing it on."""
    return [s for s in _SENTENCE.split(answer) if s.strip()
            and not _DISTRUST.search(s) and not reports_failure(s)]


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_DISTRUST = re.compile(
    r"\b(wrong|incorrect|different|another|mismatch\w*|stale|outdated|out of date|"
    r"old data|days? old|inconsistent|contradict\w*|suspicious|bogus|corrupt\w*|"
    r"ignored?|discard\w*|reject\w*|did(?: not|n't) (?:use|trust|rely)|not (?:used|trusted)|"
    r"instead of|rather than|looked off|looks? wrong|doesn't match|does not match|"
    r"bad|faulty|broken|bogus|glitch\w*|erroneous\w*|invalid|implausible|off-topic|"
    r"mistak\w*|by error|in error|wrongly|unreliable|instead|switch\w*|fell back|"
    r"kept (?:returning|giving|sending|answering|coming back)|"
    r"retr(?:y|ied|ying)|the first time|at first|initially|first (?:call|response|answer))\b",
    re.IGNORECASE)


def _tells(text: str, live: Sequence[tuple[Any, Any, str]], expected: Sequence[Any]) -> bool:
    """Whether ``text`` mentions a corrupted value and not its clean one (nor is the
    value one the expected text itself holds); a figure with a degree unit tells only a
    temperature."""
    def told(said: str, b: Any, c: Any, t: str) -> bool:
        return mentions(said, t, b, loosely=False) or _told_rounded(said, b, c)

    return bool(text) and any(
        told(degrees_blanked(text, t), b, c, t)
        and not mentions(text, t, c, loosely=False)
        and not any(told(e, b, c, t) for e in expected)
        for b, c, t in live if b is not None and not isinstance(b, dict | list))


def _told_rounded(text: str, bad: Any, clean: Any) -> bool:
    """Whether ``text`` writes the corrupted number ``bad`` rounded (``_rounded_from``):
    a stale 26.76 °C passed on as "26,8 °C" in a Spanish SMS is passed on as surely as
    "26.76" (grading version 24; the v10-g23 play-test's c4-0084 P4 found the label
    missing where the exact copy had it)."""
    return is_number(bad) and any(_rounded_from(n, bad, clean) for n in numbers_in(text))


def _rounded_from(got: Any, bad: Any, clean: Any) -> bool:
    """Whether ``got`` is the corrupted ``bad`` rounded half up to fewer decimals than
    it has, at least one, where the clean value rounds otherwise there. Not a whole
    figure: whole numbers (days, counts, hours) would coincide too often."""
    if not (is_number(got) and is_number(bad)) or not math.isfinite(bad):
        return False
    k = printed_places(got)
    return 1 <= k < printed_places(bad) and got == _half_up(bad, k) \
        and not (is_number(clean) and math.isfinite(clean) and got == _half_up(clean, k))


def _half_up(x: float, places: int) -> float:
    return float(Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-places),
                                                   rounding=ROUND_HALF_UP))


def propagated(steps: Sequence[Step], task: Task | None = None,
               corpus: Corpus | None = None) -> bool:
    """Over-trust: a corrupted value reached a later call (see ``_propagated``)."""
    idx = task_index(task, corpus or load_corpus()) if task is not None else None
    return _propagated(steps, idx)
