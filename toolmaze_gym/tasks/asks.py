"""What a scenario's free texts are asked to carry, and the proof that every phrasing asks it.

A free-text argument (an e-mail body, an SMS, a post) is graded on content: the
agent's text must mention the values the request asked it to carry, in any
wording, and nothing else is required. So each text declares its **asks**
explicitly (``{ text = "...", asks = [...] }``); the template may say more (it is
what the reference run sends), but only the asks are graded. A text whose
content the user never specified (a title, a subject, a bank reference) has
``asks = []``: any non-empty text passes.

An ask the query never states is a hidden requirement, so this module proves,
for every phrasing of a scenario, that the request states each ask:

* an ask of a query parameter (``city``) needs the ``{city}`` placeholder in the
  phrasing;
* an ask of a step output (``forecast.condition``) needs one of the **cues** the
  scenario declares for it (``cues = { "forecast.condition" = ["weather",
  "forecast"] }``), matched case-insensitively as whole words outside
  placeholders: a phrasing that never mentions the weather cannot demand it.

The same holds for the **answer**: the step outputs the request asks to be
*told* ("tell me the landing time", "how much does it come to"), which the agent
delivers in its final answer rather than in an Action's argument. A scenario
declares them (``answer = ["landing.local_time"]``) and each needs cues that
match in every phrasing, exactly as an ask of a text does.

Cues are the scenario author's claim of how a person asks for the value; the
check makes the claim hold in every phrasing, and a cue declared for a value
that neither a text nor the answer asks is reported as stale, so the two never
drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_REF = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")
# Typographic quotes and apostrophes a phrasing may use, read as plain ones.
_PLAIN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
Cues = tuple[tuple[str, tuple[str, ...]], ...]  # (step output or Action step id, its words)


class _Arg(Protocol):
    role: str
    kind: str
    text: str
    mention: tuple[str, ...]


class _Step(Protocol):
    id: str
    args: tuple[_Arg, ...]


class _Scenario(Protocol):
    file: str
    id: str
    phrasings: tuple[str, ...]
    steps: tuple[_Step, ...]
    cues: Cues
    answer: tuple[str, ...]


def holes(text: str) -> tuple[str, ...]:
    """The placeholders of a template (``{symbol}``, ``{quote.price}``), in order, once each."""
    out: list[str] = []
    for m in _PLACEHOLDER.findall(text):
        name = m.split(":", 1)[0].strip()
        if name not in out:
            out.append(name)
    return tuple(out)


def parse_asks(raw: Mapping[str, Any], where: str, problems: list[str]) -> tuple[str, ...]:
    """The asks of one ``{ text = ..., asks = [...] }`` table, with problems appended.

    ``asks`` is required: a default would put every placeholder of the template
    (ids, internal keys, values that were only conditions) into the grade."""
    if "asks" not in raw:
        problems.append(f"{where}: free text must declare `asks` (the values the request "
                        "asks it to carry; `asks = []` when the user left the content open)")
        return ()
    asks = raw["asks"]
    if not isinstance(asks, list) or not all(isinstance(a, str) for a in asks):
        problems.append(f"{where}.asks: must be a list of the text's placeholders")
        return ()
    template = holes(raw["text"])
    missing = [a for a in asks if a not in template]
    if missing:
        problems.append(f"{where}.asks: {missing} do not appear in the text")
    dup = sorted({a for a in asks if asks.count(a) > 1})
    if dup:
        problems.append(f"{where}.asks: {dup} listed twice")
    return tuple(dict.fromkeys(a for a in asks if a in template))


def parse_cues(raw: Any, where: str, problems: list[str]) -> Cues:
    """A scenario's ``cues`` table: step output -> the words a request asks for it with,
    and step id -> the words it asks for that Action step with (``action_cues``)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        problems.append(f'{where}.cues: expected a table {{ "step.key" = ["word", ...] }}')
        return ()
    out = []
    for ref, words in raw.items():
        w = f"{where}.cues.{ref}"
        if not _REF.match(ref):
            problems.append(f"{w}: cues are for step outputs (\"step.key\") or, by step id, "
                            "for an Action step; a param's ask is proved by its {placeholder}")
            continue
        if (not isinstance(words, list) or not words
                or not all(isinstance(c, str) and c.strip() for c in words)):
            problems.append(f"{w}: a non-empty list of words or phrases")
            continue
        out.append((ref, tuple(c.strip() for c in words)))
    return tuple(out)


def parse_answer(raw: Any, where: str, problems: list[str]) -> tuple[str, ...]:
    """A scenario's ``answer`` list: the step outputs the request asks to be told.

    Only step outputs: a param is the user's own literal, nothing to be told."""
    if raw is None:
        return ()
    w = f"{where}.answer"
    if not isinstance(raw, list) or not all(isinstance(r, str) for r in raw):
        problems.append(f'{w}: expected a list of step outputs ["step.key", ...]')
        return ()
    out: list[str] = []
    for ref in raw:
        if "." not in ref or not _REF.match(ref):
            problems.append(f"{w}: {ref!r} is not a step output (\"step.key\"); the answer "
                            "tells the user what the tools found, not what they said")
        elif ref in out:
            problems.append(f"{w}: {ref!r} listed twice")
        else:
            out.append(ref)
    return tuple(out)


@lru_cache(maxsize=1 << 16)  # one per phrasing and cue: graders ask the same pairs per task
def _cue_pattern(phrasing: str, cue: str) -> tuple[re.Pattern[str], str]:
    """``cue`` as a whole-word pattern, and ``phrasing`` as it is searched: outside its
    placeholders (so the cue ``date`` is not found in ``{date}``), quotes made plain."""
    plain = _PLACEHOLDER.sub(" ", phrasing).translate(_PLAIN).lower()
    want = cue.translate(_PLAIN).lower()
    return re.compile(rf"(?<!\w){re.escape(want)}(?!\w)"), plain


def cue_in(phrasing: str, cue: str) -> bool:
    """Whether ``phrasing`` says ``cue`` as whole words, outside its placeholders."""
    pattern, plain = _cue_pattern(phrasing, cue)
    return pattern.search(plain) is not None


def cue_spans(phrasing: str, cue: str) -> list[tuple[int, int]]:
    """Where ``phrasing`` says ``cue`` as ``cue_in`` reads it (spans in one plain text
    for every cue of the same phrasing, so they may be compared)."""
    pattern, plain = _cue_pattern(phrasing, cue)
    return [m.span() for m in pattern.finditer(plain)]


def _stated_params(phrasing: str) -> set[str]:
    return set(holes(phrasing))


def texts(sc: _Scenario) -> Iterable[tuple[str, _Arg]]:
    """Every free-text argument of a scenario, with its ``steps.<id>.args.<role>`` path."""
    for step in sc.steps:
        for a in step.args:
            if a.kind == "text":
                yield f"steps.{step.id}.args.{a.role}", a


def asks_problems(sc: _Scenario) -> list[str]:
    """Every ask (of a text or of the answer) some phrasing does not state, and every
    cue that no ask uses."""
    where = f"{sc.file}: {sc.id}"
    cues = dict(sc.cues)
    problems: list[str] = []
    asked: set[str] = set()
    for path, a in texts(sc):
        for ref in a.mention:
            asked.add(ref)
            problems += _unstated(where, path, ref, sc.phrasings, cues.get(ref, ()))
    for ref in sc.answer:
        asked.add(ref)
        problems += _unstated(where, "answer", ref, sc.phrasings, cues.get(ref, ()))
    for ref in cues:
        if "." in ref and ref not in asked:  # a step id's cues are an Action's (action_cues)
            problems.append(f"{where}.cues.{ref}: neither a free text nor the answer asks "
                            "for it (drop the cue, or add it to a text's asks or to `answer`)")
    return problems


def _unstated(where: str, path: str, ref: str, phrasings: Sequence[str],
              cues: Sequence[str]) -> list[str]:
    if "." not in ref:
        return [f"{where}.phrasings[{k}]: does not state {{{ref}}}, which "
                f"{path} asks for" for k, p in enumerate(phrasings)
                if ref not in _stated_params(p)]
    if not cues:
        return [f"{where}.{path}: asks for {ref!r} but the scenario declares no cues for it "
                f'(cues = {{ "{ref}" = ["word a request asks for it with", ...] }})']
    return [f"{where}.phrasings[{k}]: asks nothing about {ref!r} (none of its cues "
            f"{list(cues)}), which {path} asks for" for k, p in enumerate(phrasings)
            if not any(cue_in(p, c) for c in cues)]
