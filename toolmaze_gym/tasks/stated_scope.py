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

And one of wiring, **summarised asks**: a text a summariser gets before it is posted
keeps only its lead sentences, so an ask written further on never reaches the post
("post a short announcement with room, time and the file link" lost the link to a
summary of its first sentence: the draft v4 review's c4-0097). Every ask of such a
text is written in the sentences the summariser keeps (``[summarise]`` in the data).
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
from toolmaze_gym.tasks.capabilities import capabilities

if TYPE_CHECKING:
    from toolmaze_gym.corpus import Corpus
    from toolmaze_gym.tasks.scenarios import Scenario

DATA = ("data", "cues", "scope.toml")
_HOLE = re.compile(r"\{[^{}]*\}")
_PLAIN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_SENTENCE = re.compile(r"[.!?;:]\s")
_SUMMARY_SPLIT = re.compile(r"(?<=[.!?])\s+")  # how the summarisers split sentences
_KEEPS = {"first", "third"}  # the lead sentence; the lead third (rounded up)


@dataclass(frozen=True)
class Scope:
    names: Mapping[str, tuple[str, ...]]  # value name -> key fragments it names
    narrow: tuple[str, ...]  # broad cues a value name narrows
    convert: Mapping[str, str]  # conversion behaviour -> the argument it converts
    broad: tuple[str, ...] = ()  # words that name no one value
    medium: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # behaviour -> words
    summarise: Mapping[str, str] = field(default_factory=dict)  # behaviour -> what it keeps


def parse_scope(text: str, where: str = "scope.toml") -> tuple[Scope, list[str]]:
    """The scope data from its text, and its problems (wrong shapes)."""
    raw = tomllib.loads(text)
    problems = [f"{where}: unknown table {k!r}" for k in raw if k not in
                {"names", "narrow", "convert", "broad", "medium", "summarise"}]
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
    summarise = {k: v for k, v in raw.get("summarise", {}).items() if v in _KEEPS}
    problems += [f"{where}: summarise.{k}: one of {sorted(_KEEPS)}"
                 for k in raw.get("summarise", {}) if k not in summarise]
    return Scope(names, tuple(c.lower() for c in narrow), convert, broad, medium,
                 summarise), problems


@cache
def scope() -> Scope:
    """The shipped scope data; a broken data file is a packaging error."""
    text = resources.files("toolmaze_gym").joinpath(*DATA).read_text(encoding="utf-8")
    data, problems = parse_scope(text)
    if problems:
        raise ValueError("; ".join(problems))
    return data


def plain_words(phrasing: str) -> str:
    """The author's words: placeholders blanked out, quotes plain, lower case."""
    return _HOLE.sub(" ", phrasing).translate(_PLAIN).lower()


def word_spans(text: str, word: str) -> Iterator[re.Match[str]]:
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


def cue_reaches(text: str, cue: str, key: str, data: Scope) -> bool:
    """Whether some occurrence of ``cue`` in ``text`` reaches the output ``key``: it
    is not a broad cue, or no value name narrows it, or the name is the key's."""
    for m in word_spans(text, cue):
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
            text = plain_words(p)
            said = [c for c in words if any(True for _ in word_spans(text, c))]
            if said and not any(cue_reaches(text, c, key, data) for c in said):
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
        for m in word_spans(text[start:end], name):
            if best is None or m.end() > best[0]:
                best = (m.end(), name, frags)
    return None if best is None or not best[2] else (best[1], best[2])


def _misplaced(text: str, words: set[str], key: str, data: Scope) -> list[tuple[str, str]]:
    """(cue, value name) of each unit cue that follows another value's name; empty
    when some cue follows the converted value's name or none."""
    found = []
    for c in sorted(words):
        for m in word_spans(text, c):
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
            for c, name in _misplaced(plain_words(p), words, src.key.lower(), data)[:1]:
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


def _kept(template: str, keep: str) -> str:
    """The lead sentences of a text a summariser keeps (placeholders as words, for a
    placeholder's dot is no sentence end)."""
    flat = _HOLE.sub(lambda m: m.group(0).replace(".", "\x00"), template)
    sents = [s for s in _SUMMARY_SPLIT.split(flat.strip()) if s]
    n = 1 if keep == "first" else -(-len(sents) // 3)
    return " ".join(sents[:n]).replace("\x00", ".")


def summarised_problems(sc: Scenario, corpus: Corpus, data: Scope | None = None) -> list[str]:
    """Every ask of a text a summariser gets that lies beyond the sentences it keeps."""
    data = data or scope()
    caps = capabilities(corpus)
    out = []
    for step in sc.steps:
        cap = caps.get(step.use)
        tools = [t for side in cap.sides for t in side] if cap else []
        keeps = {data.summarise[b] for b in {corpus[t].behaviour for t in tools} | {step.use}
                 if b in data.summarise}
        if not keeps:
            continue
        keep = "first" if "first" in keeps else "third"
        for a in step.args:
            lead = _kept(a.text, keep) if a.kind == "text" else ""
            out += [f"{sc.file}: {sc.id}.steps.{step.id}.args.{a.role}: asks {ref!r}, but a "
                    f"summariser keeps only the {keep} sentence(s), which do not write it "
                    "(put it first, or post without a summariser)"
                    for ref in a.mention if a.kind == "text" and "{" + ref + "}" not in lead]
    return out


def scope_problems(sc: Scenario, corpus: Corpus | None = None) -> list[str]:
    """The checks: what each phrasing's words reach, against what is graded."""
    out = narrowed_problems(sc) + conversion_problems(sc)
    if corpus is None:
        return out
    return out + medium_problems(sc, corpus) + summarised_problems(sc, corpus)
