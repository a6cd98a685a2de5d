"""Readings of a request that the wording leaves open, and how to tell.

A percent change has a base: "the shares cost 96.73 % less than the ETH" and "the
ETH costs 2,961.77 % more than the shares" are the same comparison, measured from
either side. Where the request says which value the change is measured from ("since
I bought", "from the 287530", "than the refund", "the drop"), one reading is right;
where it only asks to "compare A with B", both are, and the grader accepts either.

The readings of every family that admits several (a percent change's base, growth
compounded monthly, a total with or without shipping, a forecast's high or low, ...)
are data, ``data/cues/readings.toml``: per reading, what selects it in a scenario and
the words a request states it with. ``tasks.conventions`` proves statically that
every phrasing states the reading its scenario takes, or that the scenario declares
the family among those the grader accepts; the grader tells a stated percent base by
the same words (``names_base``), so the check and the grading never drift apart.

A text a tool returned (a headline, a story's description) that the request asks to
be passed on is asked for its content ("a summary of the latest science news"), so
the agent's own words carrying its facts pass; word for word only where the request
asks for the text as such ("quote the headline", "forward the message verbatim").
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from toolmaze_gym.tasks.asks import cue_in

DATA = ("data", "cues", "readings.toml")
_FAMILY_KEYS = {"about", "use", "with", "role", "graded_any", "by", "reading"}
_READING_KEYS = {"keys", "from", "through", "words"}


@dataclass(frozen=True)
class Reading:
    """One way to read a family's result, what selects it and the words that state it."""

    name: str
    keys: tuple[str, ...] = ()  # chosen when the scenario reads one of these outputs
    sources: tuple[str, ...] = ()  # or when the family's role is fed by one of these
    words: tuple[str, ...] = ()
    through: tuple[str, ...] = ()  # and the key flows into a step of one of these

    @property
    def fixed(self) -> bool:
        """The tools' own convention: chosen whenever the family is open."""
        return not self.keys and not self.sources


@dataclass(frozen=True)
class Family:
    """A derivation that admits several readings (``readings.toml``)."""

    name: str
    about: str
    use: tuple[str, ...]
    readings: tuple[Reading, ...]
    with_: tuple[str, ...] = ()
    role: str = ""
    graded_any: bool = False
    # "argument": a key selects a reading only where an argument reads it (a text that
    # reports the whole forecast carries the high and the low, so it leaves nothing open)
    by: str = "any"


def _strings(raw: object) -> tuple[str, ...] | None:
    if isinstance(raw, list) and all(isinstance(w, str) and w.strip() for w in raw):
        return tuple(w.strip() for w in raw)
    return None


def _parse_reading(name: str, raw: object, where: str, problems: list[str]) -> Reading | None:
    if not isinstance(raw, dict) or set(raw) - _READING_KEYS:
        problems.append(f"{where}: a table of {sorted(_READING_KEYS)}")
        return None
    words, keys, sources, through = (_strings(raw.get(k, []))
                                     for k in ("words", "keys", "from", "through"))
    if not words or keys is None or sources is None or through is None:
        problems.append(f"{where}: `words` (non-empty), `keys` and `from` are lists of strings")
        return None
    return Reading(name, keys, sources, words, through)


def parse_families(text: str, where: str = "readings.toml") -> tuple[dict[str, Family], list[str]]:
    """Family name -> Family from the data file's text, and its problems."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"{where}: not valid TOML ({exc})"]
    table = raw.get("family")
    if set(raw) != {"family"} or not isinstance(table, dict):
        return {}, [f"{where}: expected one [family] table"]
    out: dict[str, Family] = {}
    problems: list[str] = []
    for name, fam in table.items():
        w = f"{where}: family.{name}"
        if not isinstance(fam, dict) or set(fam) - _FAMILY_KEYS:
            problems.append(f"{w}: a table of {sorted(_FAMILY_KEYS)}")
            continue
        use, with_ = _strings(fam.get("use")), _strings(fam.get("with", []))
        readings = [_parse_reading(r, v, f"{w}.reading.{r}", problems)
                    for r, v in (fam.get("reading") or {}).items()]
        if not use or with_ is None or not readings:
            problems.append(f"{w}: `use` (behaviours) and at least one reading are required")
            continue
        if any(r.sources for r in readings if r) and not fam.get("role"):
            problems.append(f"{w}: a reading chosen by `from` needs the family's `role`")
        out[name] = Family(name, str(fam.get("about", "")), use,
                           tuple(r for r in readings if r is not None), with_,
                           str(fam.get("role", "")), bool(fam.get("graded_any", False)),
                           str(fam.get("by", "any")))
        if out[name].by not in ("any", "argument", "asks"):
            problems.append(f"{w}.by: \"any\" (default), \"argument\" or \"asks\"")
    return out, problems


@cache
def default_families() -> dict[str, Family]:
    """The shipped families; a broken data file is a packaging error."""
    text = resources.files("toolmaze_gym").joinpath(*DATA).read_text(encoding="utf-8")
    families, problems = parse_families(text)
    if problems:
        raise ValueError("; ".join(problems))
    return families


def states(query: str, words: tuple[str, ...]) -> bool:
    """Whether a request (or a phrasing, outside its placeholders) says one of ``words``."""
    return any(cue_in(query, w) for w in words)


@lru_cache(maxsize=1024)  # per request: read for each asked text of its task
def names_base(query: str) -> bool:
    """Whether the request says which value a percent change is measured from: one
    of the words of the percent family's reading (``readings.toml``)."""
    return states(query, default_families()["percent_base"].readings[0].words)


def other_direction(pct: float) -> float:
    """The same change measured from the other side: a/b − 1 for b/a − 1, in percent."""
    return 100.0 * (1.0 / (1.0 + pct / 100.0) - 1.0)


def other_direction_slack(pct: float, step: float = 0.005) -> float:
    """How far ``other_direction`` of a value rounded to ``step`` may be off: the
    reverse of a steep drop magnifies its rounding (−96.73 % → +2,958 … +2,963 %)."""
    base = 1.0 + pct / 100.0
    return abs(step / 100.0 / (base * base)) * 100.0 + 0.01


_VERBATIM = re.compile(r"\b(quot(?:e|ed|ing)|verbatim|word for word|exact (?:words|wording|text)|"
                       r"as (?:is|written)|forward(?:ed|ing)? (?:the|that|this|it)|"
                       r"(?:headline|title|story) as (?:the|its|a)|as the (?:title|subject))\b",
                       re.IGNORECASE)


@lru_cache(maxsize=1024)  # per request: read for each asked text of its task
def asks_verbatim(query: str) -> bool:
    """Whether the request asks for a returned text as such, not for its content."""
    return bool(_VERBATIM.search(query))


def quotes(query: str, text: str) -> bool:
    """Whether the request sets ``text`` in quotation marks ("a title \"Q3 review\""):
    a phrase it quotes is asked word for word; one it only uses is asked for its facts."""
    flat = " ".join(str(text).split()).strip(" .").casefold()
    q = " ".join(query.split()).casefold()
    return any(f"{a}{flat}{b}" in q or f"{a}{flat}.{b}" in q
               for a, b in (('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("\u2018", "\u2019"),
                            ("\u00ab", "\u00bb"), ("\u00ab ", " \u00bb")))
