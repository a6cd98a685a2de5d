"""An identifier told that misnames a record or names none is a false claim (grading
version 21).

Every record id an agent can truthfully tell comes from somewhere: a response gave it
(the ticket a create call made), the request states it (the itinerary to file under),
or a call the tool accepted took it. toolmaze-v9's play-test (p1) found a finish naming
ticket TKT-YKUAQ3L6 where the episode made TKT-YKUAQ3L9 (c1-0005 P0), an abort that
told the booking reference 4MX3T9 for the 4MX3T4 made, and one that told a booking
with reference 4MX3T4 that was never made at all (the passenger's name got a 422, the
itinerary add with that guessed reference a 404: c1-0094 P2): each graded a success,
the aborts a graceful stop.

So a text the agent tells (the final answer, an abort's reason, a message an Action
sent) must not hold, in the shape of an id kind of the tools shown (``id_kinds``:
every semantic type with a format whose name says it is an id, ``TKT-``, ``ITN-``,
and the record references, a six-character booking code), an id the episode did not
show (``shown``: a clean response, the request, the typed arguments of a call the tool
accepted; an error's body less what its call sent, for a 404 "booking '4MX3T4' not
found" echoes the guess and shows nothing) that either

* is written as a record's key, its kind's prefix and code (``_record_key``): an id the
  episode never showed names a record the agent made up, or another episode's
  (RTK-ZZZZ9999 for the e-ticket RTK-Q76YUQTJ, the to-do TSK-YD6YQN6Z of a run before;
  grading version 23, the v10-g22 play-test's slips), though a stand-in of one
  character over and over (TSK-XXXXXXXX) claims no record and is not read;
* differs from a shown id of its kind in one or two characters (``near``): a mistyped
  id, which names another record or none (TKT-YKUAQ3L6 for TKT-YKUAQ3L9, 4MX3T9 for
  4MX3T4); or
* only a refused call carried (a 404 or 422, no injected fault, answered the call that
  sent it): an id the world said it does not hold (the 4MX3T4 no booking call ever made).

A bare code (a booking reference, no prefix) wholly unlike every shown one is not read:
free capitals and flight or train numbers share its shape. Up to grading version 23 no
id wholly unlike the shown ones was read, so that replays of action files played on an
older world, or changed in one step, kept passing with the ids they were written with;
those files now carry their records' ids as today's world keys them
(``tests/grading/_rekey.py``). Only the id's exact written shape is read, upper case as
tools write them: an id told in lower case or spaced out is not read at all, so it never
fails; a bare code must mix letters and digits and be no number with a unit ("100EUR"),
or be five capitals or more (a booking code of letters alone, since grading version 22).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.grading.zone_told import free_texts
from toolmaze_gym.mentions import FREE_TEXT
from toolmaze_gym.values import types
from toolmaze_gym.world.base import load_data

_EDGE = r"A-Za-z0-9-"  # an id is a whole token: no letter, digit or hyphen either side
_BARE_OK = re.compile(r"(?=.*[A-Z])(?=.*\d)(?!\d+[A-Z]+$)")  # mixed, no "100EUR"
# A booking code of capitals alone ("QDPWHX"): read where ids told are checked, and only
# ever counted near a shown one or carried by a refused call, so a word in capitals
# names nothing (grading version 22, the g22 play-test's c3-0028 P4 slip: "QDPWHZ" told
# for the QDPWHX booked passed).
_LETTERS = re.compile(r"[A-Z]{5,}")


def id_kinds(tools: Iterable[str], corpus: Corpus) -> frozenset[str]:
    """The id types among the parameters and returns of ``tools`` (the tools shown):
    a type with a format whose name ends in ``_id``, or a record's reference code."""
    names = {f.type for t in tools if t in corpus
             for f in (*corpus[t].params, *corpus[t].returns)}
    return frozenset(n for n in names if _is_kind(n))


@lru_cache(maxsize=4096)
def _is_kind(name: str) -> bool:
    try:
        pattern = types.get(name).schema.get("pattern")
    except KeyError:
        return False
    return bool(pattern) and (name.endswith("_id") or name in _references())


@lru_cache(maxsize=1)
def _references() -> frozenset[str]:
    """The types of the record references (``record_names.json``: a booking code)."""
    return frozenset(k.split("@")[0] for k in load_data("record_names.json")["references"])


@lru_cache(maxsize=4096)
def _finder(kinds: frozenset[str]) -> re.Pattern[str] | None:
    """One pattern that finds a token of any of ``kinds`` (anchors dropped, as a whole
    token), each kind's match in a group of its own."""
    parts = []
    for name in sorted(kinds):
        body = types.get(name).schema["pattern"].removeprefix("^").removesuffix("$")
        parts.append(f"(?P<k{len(parts)}>{body})")
    if not parts:
        return None
    return re.compile(rf"(?<![{_EDGE}])(?:{'|'.join(parts)})(?![{_EDGE}])")


def ids_in(text: str, kinds: frozenset[str], letters: bool = False) -> list[tuple[str, str]]:
    """The tokens of ``text`` in the shape of one of ``kinds``, each with its kind;
    ``letters``: a bare code of capitals alone too (``_LETTERS``)."""
    finder = _finder(kinds)
    if finder is None or not isinstance(text, str):
        return []
    names = sorted(kinds)
    out = []
    for m in finder.finditer(text):
        token = m[0]
        if "-" in token or _BARE_OK.match(token) or (letters and _LETTERS.fullmatch(token)):
            group = next(k for k, v in m.groupdict().items() if v is not None)
            out.append((token, names[int(group[1:])]))
    return out


def _typed_args(step: Step, corpus: Corpus) -> list[str]:
    """The string arguments of a call that are no free text (an id, a code)."""
    args = step.action.get("arguments")
    if not isinstance(args, dict):
        return []
    name = step.action.get("name")
    free = _free_params(corpus[name]) if name in corpus else set()
    return [v for k, v in args.items() if isinstance(v, str) and k not in free]


def _free_params(spec: Any) -> set[str]:
    return {p.name for p in spec.params if p.type == FREE_TEXT}


def _sent(step: Step) -> list[str]:
    """Every string a call sent (what its error body may echo)."""
    args = step.action.get("arguments")
    return [v for v in args.values() if isinstance(v, str) and v] \
        if isinstance(args, dict) else []


def shown(steps: Sequence[Step], query: str, corpus: Corpus) -> str:
    """What the episode showed, upper case, one text: the request, every response (an
    error's less what its call sent) and the typed arguments of accepted calls."""
    out = [query]
    for s in steps:
        if s.kind != "call":
            continue
        body = s.observation or ""
        if s.status is not None and s.status >= 400:
            for v in _sent(s):
                body = body.replace(v, " ")
        else:
            out += _typed_args(s, corpus)
        out.append(body)
    return "\n".join(out).upper()


_REFUSALS = (404, 422)  # not found, unprocessable: what the world does not hold


def refused(steps: Sequence[Step], corpus: Corpus) -> str:
    """The typed arguments of the calls a tool refused as unknown (a 404 or 422 that no
    fault injected), upper case, one text."""
    return "\n".join(v for s in steps if s.kind == "call" and s.fault is None
                     and s.status in _REFUSALS for v in _typed_args(s, corpus)).upper()


def near(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ in one or two characters, place for place (a typo,
    two neighbours swapped)."""
    return len(a) == len(b) and 0 < sum(x != y for x, y in zip(a, b, strict=True)) <= 2


def _record_key(token: str) -> bool:
    """Whether ``token`` is written as a record's key, its kind's prefix and code
    (``RTK-ZZZZ9999``), and is no stand-in: a code of one character over and over
    (``TSK-XXXXXXXX``) claims no record. A bare code (a booking reference) is read
    only near a shown one: free capitals and flight numbers share its shape."""
    prefix, dash, code = token.rpartition("-")
    return bool(dash and prefix) and len(set(code)) > 1


def told_texts(steps: Sequence[Step], corpus: Corpus, ending: str) -> list[tuple[str, str]]:
    """(tool, text) of what the agent told: each free text an Action the tool took sent,
    then the ending's text (tool "")."""
    out = [(str(s.action.get("name")), t) for s in steps if s.clean_ok
           for t in free_texts(corpus, str(s.action.get("name")), s.action.get("arguments"))]
    return [*out, ("", ending)] if ending else out


def invented_told(steps: Sequence[Step], query: str, kinds: frozenset[str], corpus: Corpus,
                  ending: str) -> list[dict[str, Any]]:
    """Each id told that misnames a shown one or that only a refused call carried (the
    module docstring's rule), once, as the grade lists it under ``unanswered``: its kind,
    the token ``told`` and where (``sent``: the Action's tool, "" for the ending's text).
    ``kinds``: the ``id_kinds`` of the task's tools (once per task)."""
    told = [(tool, token, kind) for tool, text in told_texts(steps, corpus, ending)
            for token, kind in ids_in(text, kinds, letters=True)]
    if not told:
        return []
    seen = shown(steps, query, corpus)
    unseen = [(tool, token, kind) for tool, token, kind in told if token.upper() not in seen]
    if not unseen:  # every id told was shown: no need to read the shown ones' shapes
        return []
    known = ids_in(seen, kinds, letters=True)
    gone = refused(steps, corpus)
    out: list[dict[str, Any]] = []
    for tool, token, kind in unseen:
        up = token.upper()
        if any(token == o["told"] for o in out):
            continue
        if up in gone or any(k == kind and near(up, t) for t, k in known) \
                or _record_key(token):
            out.append({"type": kind, "value": None, "slot": None, "told": token,
                        "sent": tool, "invented": True})
    return out
