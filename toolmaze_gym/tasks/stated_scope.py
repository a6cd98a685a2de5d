"""The proof that a request's words reach every fact the grader demands.

``tasks.asks`` proves that each phrasing *mentions* every ask (one of its cues).
A mention can still fall short of the ask: the draft v4 review (c4-0094) found
"send the welcome email with the reservation number and the arrival-day forecast
high (in °C and °F)" graded on the weather condition too. The cue "forecast" was
said, but the phrasing narrowed it to the high. And "the bedroom at an eco level
for that day's forecast low (also in °F for the sitter)" was graded on the
setpoint in °F (c4-0064): a unit asked in passing converts the value it follows.

So two checks, their words data (``data/cues/scope.toml``):

* **narrowed cues**: an occurrence of a broad cue ("forecast", "weather") right
  before or after a value's name ("high", "low") states only the asks whose
  output key is that value; an ask no occurrence states is unstated;
* **conversions**: a conversion step's cues ("°F", "Fahrenheit"), where its output
  is asked, must follow (nearest value name before them, in the same sentence) a
  name of the value the step converts, when they follow a value name at all.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from toolmaze_gym.tasks.action_cues import action_steps, action_tools
from toolmaze_gym.tasks.asks import cue_in, texts

if TYPE_CHECKING:
    from toolmaze_gym.corpus import Corpus
    from toolmaze_gym.tasks.scenarios import Scenario

DATA = ("data", "cues", "scope.toml")
_HOLE = re.compile(r"\{[^{}]*\}")
_PLAIN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_SENTENCE = re.compile(r"[.!?;:]\s")


@dataclass(frozen=True)
class Scope:
    names: Mapping[str, tuple[str, ...]]  # value name -> key fragments it names
    narrow: tuple[str, ...]  # broad cues a value name narrows
    convert: Mapping[str, str]  # conversion behaviour -> the argument it converts
    broad: tuple[str, ...] = ()  # words that name no one value
    medium: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # behaviour -> words


def parse_scope(text: str, where: str = "scope.toml") -> tuple[Scope, list[str]]:
    """The scope data from its text, and its problems (wrong shapes)."""
    raw = tomllib.loads(text)
    problems = [f"{where}: unknown table {k!r}" for k in raw if k not in
                {"names", "narrow", "convert", "broad", "medium"}]
    names = {k.lower(): tuple(v) for k, v in raw.get("names", {}).items()
             if isinstance(v, list) and v and all(isinstance(f, str) and f for f in v)}
    problems += [f"{where}: names.{k}: a non-empty list of key fragments"
                 for k in raw.get("names", {}) if k.lower() not in names]
    narrow = raw.get("narrow", {}).get("cues", [])
    if not narrow or not all(isinstance(c, str) and c for c in narrow):
        problems.append(f"{where}: narrow.cues: a non-empty list of words")
    convert = {k: v for k, v in raw.get("convert", {}).items() if isinstance(v, str)}
    broad = tuple(w.lower() for w in raw.get("broad", {}).get("words", []) if isinstance(w, str))
    medium = {k: tuple(v) for k, v in raw.get("medium", {}).items()
              if isinstance(v, list) and v and all(isinstance(w, str) and w for w in v)}
    problems += [f"{where}: medium.{k}: a non-empty list of words"
                 for k in raw.get("medium", {}) if k not in medium]
    return Scope(names, tuple(c.lower() for c in narrow), convert, broad, medium), problems


@cache
def scope() -> Scope:
    """The shipped scope data; a broken data file is a packaging error."""
    text = resources.files("toolmaze_gym").joinpath(*DATA).read_text(encoding="utf-8")
    data, problems = parse_scope(text)
    if problems:
        raise ValueError("; ".join(problems))
    return data


def _plain(phrasing: str) -> str:
    """The author's words: placeholders blanked out, quotes plain, lower case."""
    return _HOLE.sub(" ", phrasing).translate(_PLAIN).lower()


def _spans(text: str, word: str) -> Iterator[re.Match[str]]:
    return re.finditer(rf"(?<!\w){re.escape(word.lower())}(?!\w)", text)


def _name_at(text: str, data: Scope, before: bool) -> tuple[str, ...] | None:
    """The key fragments of a value name right at the end (``before``) or start of
    ``text`` (a possessive "'s" and "-" joins allowed); None when there is none."""
    for name, frags in data.names.items():
        pat = (rf"(?<!\w){re.escape(name)}(?:'s)?[\s-]*$" if before
               else rf"^(?:'s)?[\s-]*{re.escape(name)}(?!\w)")
        if re.search(pat, text):
            return frags
    return None


def _states(text: str, cue: str, key: str, data: Scope) -> bool:
    """Whether some occurrence of ``cue`` in ``text`` reaches the output ``key``: it
    is not a broad cue, or no value name narrows it, or the name is the key's."""
    for m in _spans(text, cue):
        if cue.lower() not in data.narrow:
            return True
        frags = (_name_at(text[m.end():], data, before=False)
                 or _name_at(text[:m.start()], data, before=True))
        if frags is None or any(f in key for f in frags):
            return True
    return False


def narrowed_problems(sc: Scenario, data: Scope | None = None) -> list[str]:
    """Every ask that a phrasing mentions only through cues it narrows to another value."""
    data = data or scope()
    where = f"{sc.file}: {sc.id}"
    cues = dict(sc.cues)
    asked = [(path, ref) for path, a in texts(sc) for ref in a.mention if "." in ref]
    asked += [("answer", ref) for ref in sc.answer]
    out = []
    for path, ref in asked:
        words = cues.get(ref, ())
        key = ref.split(".", 1)[1].lower()
        for k, p in enumerate(sc.phrasings):
            text = _plain(p)
            said = [c for c in words if any(True for _ in _spans(text, c))]
            if said and not any(_states(text, c, key, data) for c in said):
                out.append(f"{where}.phrasings[{k}]: says {said} only of another value, "
                           f"so it never asks {ref!r}, which {path} asks for (name it in "
                           "every phrasing, or drop it from the asks)")
    return out


def _value_before(text: str, end: int, data: Scope) -> tuple[str, tuple[str, ...]] | None:
    """The nearest value name before ``end`` in the same sentence, with its fragments
    (None: no name there, or a broad word is nearer)."""
    start = max((m.end() for m in _SENTENCE.finditer(text, 0, end)), default=0)
    words = [(n, f) for n, f in data.names.items()] + [(b, ()) for b in data.broad]
    best: tuple[int, str, tuple[str, ...]] | None = None
    for name, frags in words:
        for m in _spans(text[start:end], name):
            if best is None or m.end() > best[0]:
                best = (m.end(), name, frags)
    return None if best is None or not best[2] else (best[1], best[2])


def _misplaced(text: str, words: set[str], key: str, data: Scope) -> list[tuple[str, str]]:
    """(cue, value name) of each unit cue that follows another value's name; empty
    when some cue follows the converted value's name or none."""
    found = []
    for c in sorted(words):
        for m in _spans(text, c):
            named = _value_before(text, m.start(), data)
            if named is None or any(f in key for f in named[1]):
                return []
            found.append((c, named[0]))
    return found


def conversion_problems(sc: Scenario, data: Scope | None = None) -> list[str]:
    """Every phrasing whose unit for a conversion follows the name of another value."""
    data = data or scope()
    where = f"{sc.file}: {sc.id}"
    cues = dict(sc.cues)
    asked = {ref for _, a in texts(sc) for ref in a.mention} | set(sc.answer)
    out = []
    for step in sc.steps:
        role = data.convert.get(step.use)
        src = next((a for a in step.args if a.role == role and a.kind == "field"), None)
        refs = [r for r in asked if r.split(".", 1)[0] == step.id]
        if src is None or not refs:
            continue
        words = {c for r in refs for c in cues.get(r, ())}
        for k, p in enumerate(sc.phrasings):
            for c, name in _misplaced(_plain(p), words, src.key.lower(), data)[:1]:
                out.append(f"{where}.phrasings[{k}]: {c!r} follows {name!r}, but step "
                           f"{step.id!r} converts {src.ref!r} (name the value the unit is for)")
    return out


def medium_problems(sc: Scenario, corpus: Corpus, data: Scope | None = None) -> list[str]:
    """Every phrasing that names a recipient of a post but not that it is a post: "a
    summary for security" may be mailed, so the channel is not knowable."""
    data = data or scope()
    where = f"{sc.file}: {sc.id}"
    out = []
    for step, cap in action_steps(sc, corpus):
        kinds = {corpus[t].behaviour for t in action_tools(corpus, cap)}
        if len(kinds) != 1 or not kinds <= set(data.medium):
            continue  # no one medium (a post or a mail both reach the outcome)
        words = set(data.medium[next(iter(kinds))])
        out += [f"{where}.phrasings[{k}]: never says how step {step.id!r} delivers "
                f"({', '.join(sorted(kinds))}): none of {sorted(words)}"
                for k, p in enumerate(sc.phrasings)
                if words and not any(cue_in(p, w) for w in words)]
    return out


def scope_problems(sc: Scenario, corpus: Corpus | None = None) -> list[str]:
    """The checks: what each phrasing's words reach, against what is graded."""
    out = narrowed_problems(sc) + conversion_problems(sc)
    return out + (medium_problems(sc, corpus) if corpus is not None else [])
