"""Tool docs agree with the tasks: what a doc says a value is, the scenarios feed it.

A parameter's doc is what a careful agent reads to decide which value to pass. When
it names where the value comes from ("Outdoor temperature in °C, e.g. a forecast
high") and the scenario library feeds that parameter something else (the forecast
*low*), the doc teaches a reading the grader rejects (issue 28, c4-0079). This module
proves statically, over the corpus and the library, that no doc does so:

* every example a doc gives (after "e.g.", "for example", ...: the markers of
  ``data/cues/doc_sources.toml``) is a literal value ('AAPL', 360, DOC-7Q2X9ZLM4K),
  or is made of phrases that file declares with the sources they name
  (``"forecast high" = ["weather.forecast.high_c"]``), or is declared there as an
  illustration of what a tool computes; an undeclared example is a problem, so a
  new doc cannot slip a reading past the check;
* a parameter whose doc names sources (by those phrases, in an example or not) is
  fed by the library only from sources it names: each scenario step that binds the
  parameter to an earlier step's output (``capability.key``) must bind one of them.

Literal examples are values of the parameter's type, which ``scenarios`` already
checks scenario bindings against; a literal the request states is the user's word,
not the doc's, so only step outputs are compared.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.tasks.capabilities import capabilities
from toolmaze_gym.tasks.scenarios import Scenario

DATA = ("data", "cues", "doc_sources.toml")
# An example ends at a clause boundary: a semicolon, a closing bracket, a sentence end.
_CLAUSE_END = re.compile(r";|\)|\.(?:\s|$)|$")
# A literal: quoted, or a first token that carries a digit or is an upper-case id.
_LITERAL = re.compile(r"^(?:['\"‘“]|[^\s]*\d|[A-Z]{2,}[-_][A-Z0-9]+)")


@dataclass(frozen=True)
class DocSources:
    """``doc_sources.toml``: example markers, source phrases, declared illustrations."""

    markers: tuple[str, ...]
    sources: Mapping[str, tuple[str, ...]]  # phrase -> capability.key it names
    illustrations: Mapping[str, str]  # example -> why it names no source
    untranslated: str = ""  # what a translator's doc says of a text it hands back as is


def load_doc_sources(text: str | None = None) -> DocSources:
    """The shipped declarations, or those of ``text`` (a TOML snippet, for tests)."""
    if text is None:
        text = resources.files("toolmaze_gym").joinpath(*DATA).read_text(encoding="utf-8")
    raw = tomllib.loads(text)
    return DocSources(tuple(raw.get("markers", ())),
                      {k.lower(): tuple(v) for k, v in raw.get("sources", {}).items()},
                      {k.lower(): v for k, v in raw.get("illustrations", {}).items()},
                      raw.get("translators", {}).get("untranslated", ""))


def examples(doc: str, markers: Iterable[str]) -> list[str]:
    """The examples a doc gives: the clause after each marker."""
    out = []
    low = doc.lower()
    for marker in markers:
        for m in re.finditer(re.escape(marker.lower()), low):
            rest = doc[m.end():].lstrip(" ,:")
            out.append(rest[: _CLAUSE_END.search(rest).start()].strip())
    return out


def named_sources(doc: str, ds: DocSources) -> set[str]:
    """The sources a doc names by a declared phrase, anywhere in it."""
    low = doc.lower()
    return {s for phrase, srcs in ds.sources.items() if phrase in low for s in srcs}


def example_problems(where: str, doc: str, ds: DocSources) -> list[str]:
    """An example that is no literal, no declared illustration and names no source."""
    out = []
    for ex in examples(doc, ds.markers):
        if _LITERAL.match(ex) or ex.lower() in ds.illustrations or named_sources(ex, ds):
            continue
        out.append(f"{where}: example {ex!r} is no literal value and names no source "
                   f"declared in {'/'.join(DATA)} (declare what it names, or make it a "
                   "literal)")
    return out


def library_feeds(corpus: Corpus, scenarios: Iterable[Scenario]
                  ) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(tool, parameter) -> (source capability.key, scenario.step) for each scenario
    step that binds the parameter's canonical argument to an earlier step's output."""
    caps = capabilities(corpus)
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for sc in scenarios:
        steps = sc.step_by_id
        for step in sc.steps:
            cap = caps.get(step.use)
            if cap is None:
                continue
            for a in step.args:
                if a.kind != "field" or a.step not in steps:
                    continue
                source = f"{steps[a.step].use}.{a.key}"
                for tool in sorted(cap.tools):
                    for p in corpus[tool].params:
                        if p.canonical == a.role:
                            out.setdefault((tool, p.name), []).append(
                                (source, f"{sc.id}.{step.id}"))
    return out


def doc_problems(corpus: Corpus, scenarios: Iterable[Scenario],
                 ds: DocSources | None = None) -> list[str]:
    """Every example that names nothing declared, and every parameter fed by the
    library from a source its doc does not name while naming others."""
    ds = ds or load_doc_sources()
    feeds = library_feeds(corpus, scenarios)
    out: list[str] = []
    for name in sorted(corpus.tools):
        tool = corpus[name]
        out += example_problems(name, tool.description, ds)
        for p in tool.params:
            where = f"{name}.{p.name}"
            out += example_problems(where, p.description, ds)
            named = named_sources(p.description, ds)
            if not named:
                continue
            for source, step in feeds.get((name, p.name), []):
                if source not in named:
                    out.append(f"{where}: its doc names {', '.join(sorted(named))} but "
                               f"{step} feeds it {source}")
    return out
