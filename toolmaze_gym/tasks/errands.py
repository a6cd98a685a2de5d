"""The proof that a C4 goal's parts belong to one errand.

C4 asks for parallel parts joined in one goal (Table 1), and a scenario author can
meet that by gluing on a part nobody would ask for in the same message: "the main
travel headline today" beside a trip check-in, a news digest beside two cities'
flights. Such a part takes nothing from the rest of the request and feeds only the
final report. So the parts of a C4 goal (its steps connected by data, the final
step set aside) must each share a given (a parameter the request states) or a theme
with another part, or the scenario declares the part's theme as part of its errand
(``themes``), a claim a reviewer reads beside its goal. Themes and containers are
data: ``data/errands.toml``.

The rule reads a scenario (``errand_problems``, part of the library's checks) and a
built task (``task_stray_parts``: v3's tasks, the suite the lead rebuilds).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import networkx as nx

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.action_cues import action_steps

if TYPE_CHECKING:
    from toolmaze_gym.tasks.model import Task
    from toolmaze_gym.tasks.scenarios import Scenario

DATA = ("data", "errands.toml")


@dataclass(frozen=True)
class Errands:
    themes: dict[str, str]  # capability family -> theme
    containers: frozenset[str]  # capabilities that only make a place to write into

    def theme(self, use: str) -> str:
        """The theme of a capability ("" for one that serves every errand): its
        longest listed prefix (``office.contact`` before ``office``; a group id's
        ``gen_news`` before ``gen``)."""
        sep = "." if "." in use else "_"
        words = use.split(sep)
        for k in range(len(words), 0, -1):
            if sep.join(words[:k]) in self.themes:
                return self.themes[sep.join(words[:k])]
        return ""


@cache
def default_errands() -> Errands:
    raw = tomllib.loads(resources.files("toolmaze_gym").joinpath(*DATA)
                        .read_text(encoding="utf-8"))
    return Errands(dict(raw["theme"]), frozenset(raw["containers"]))


@dataclass(frozen=True)
class Step:
    """What the rule reads of a scenario step or a task slot."""

    id: str
    themes: frozenset[str]
    givens: frozenset[str]  # what the request states that it takes or must mention
    fed_by: frozenset[str]  # steps whose outputs it takes as arguments or must mention
    container: bool
    writes: bool  # not an Action, it turns a text the request asks things of (translate)


def report(steps: Sequence[Step], read: set[str]) -> set[str]:
    """The goal's final report: the steps nothing reads, and the steps that only write
    its text (a translation of the post's text)."""
    out = {s.id for s in steps if s.id not in read}
    grew = True
    while grew:
        readers = {s.id: {r.id for r in steps if s.id in r.fed_by} for s in steps}
        more = {s.id for s in steps if s.id not in out and s.writes
                and readers[s.id] and readers[s.id] <= out}
        out |= more
        grew = bool(more)
    return out


def parts(steps: Sequence[Step], read: set[str]) -> list[list[Step]]:
    """Steps connected by data, with the goal's final report and lone containers set
    aside."""
    kept = {s.id for s in steps} - report(steps, read)
    g = nx.Graph()
    g.add_nodes_from(s.id for s in steps if s.id in kept)  # in order: parts come out stable
    g.add_edges_from((s.id, u) for s in steps for u in s.fed_by if s.id in kept and u in kept)
    by_id = {s.id: s for s in steps}
    comps = [[by_id[i] for i in sorted(c, key=[s.id for s in steps].index)]
             for c in nx.connected_components(g)]
    return [c for c in comps if not all(s.container for s in c)]


def stray_parts(steps: Sequence[Step], read: set[str],
                declared: Iterable[str] = ()) -> list[tuple[list[str], set[str]]]:
    """Parts (step ids, themes) that share no given and no theme with any other part
    and whose themes are not declared, beside parts of some theme (a lone lookup of
    whom to tell has none). A part of declared themes is one the goal asks for: it
    is never stray, and the others need not share with it."""
    ps = parts(steps, read)
    if len(ps) < 2:
        return []
    givens = [set().union(*(s.givens for s in p)) for p in ps]
    themes = [set().union(*(s.themes for s in p)) for p in ps]
    meant = [bool(th) and th <= set(declared) for th in themes]  # the goal asks for them
    out = []
    for i, p in enumerate(ps):
        others = [j for j in range(len(ps)) if j != i and not meant[j]]
        if (not themes[i] or meant[i]
                or not set().union(*(themes[j] for j in others))  # lookups of whom to tell
                or any(givens[i] & givens[j] or themes[i] & themes[j] for j in others)):
            continue
        out.append(([s.id for s in p], themes[i]))
    return out


def scenario_steps(sc: Scenario, corpus: Corpus,
                   errands: Errands) -> tuple[list[Step], set[str]]:
    """A scenario's steps for the rule, and the ids some step reads."""
    acting = {s.id for s, _ in action_steps(sc, corpus)}
    steps = [Step(s.id, frozenset({errands.theme(s.use)} - {""}),
                  frozenset({a.ref for a in s.args if a.kind == "param"}
                            | {h for a in s.args for h in a.holes if "." not in h}),
                  frozenset({a.step for a in s.args if a.kind == "field"}
                            | {m.split(".", 1)[0] for a in s.args for m in a.mention
                               if "." in m}),
                  s.use in errands.containers,
                  s.id not in acting and any(a.mention for a in s.args))
             for s in sc.steps]
    return steps, {up for s in sc.steps for up in s.upstream()}


def task_steps(task: Task, corpus: Corpus, errands: Errands) -> tuple[list[Step], set[str]]:
    """A built task's slots for the rule (themes from their tools' behaviours or
    group; givens the literals it takes and the stated values its texts must
    mention), and the ids some slot reads."""
    steps = []
    for s in task.slots:
        uses = {corpus[t].behaviour for t in s.tools} | ({s.group} if s.group else set())
        steps.append(Step(s.id, frozenset({errands.theme(u) for u in uses} - {""}),
                          frozenset({str(i.source.value) for i in s.inputs
                                     if i.source.is_literal and i.type != "text"}
                                    | {str(m[1]) for i in s.inputs for m in i.mentions
                                       if len(m) < 3}),
                          frozenset({i.source.slot for i in s.inputs if not i.source.is_literal}
                                    | {m[2] for i in s.inputs for m in i.mentions
                                       if len(m) >= 3}),
                          bool(uses) and uses <= errands.containers,
                          all(corpus[t].category != "Action" for t in s.tools)
                          and any(i.mentions for i in s.inputs)))
    return steps, {u for s in task.slots for u in s.upstream()}


def task_stray_parts(task: Task, corpus: Corpus, declared: Iterable[str] = (),
                     errands: Errands | None = None) -> list[tuple[list[str], set[str]]]:
    """The stray parts of a built C4 task (``declared``: its scenario's themes)."""
    if task.level != "C4":
        return []
    return stray_parts(*task_steps(task, corpus, errands or default_errands()), declared)


def errand_problems(sc: Scenario, corpus: Corpus,
                    errands: Errands | None = None) -> list[str]:
    """Every stray part of a C4 scenario, and every declared theme no capability has."""
    errands = errands or default_errands()
    where = f"{sc.file}: {sc.id}"
    known = set(errands.themes.values()) - {""}
    problems = [f"{where}.themes: {t!r} is no theme of data/errands.toml ({sorted(known)})"
                for t in sc.themes if t not in known]
    if "C4" not in sc.levels:
        return problems
    return problems + [
        f"{where}: part {part} ({', '.join(sorted(th))}) shares no parameter and no theme "
        "with the goal's other parts: drop it, tie it to the errand, or declare its theme "
        "in `themes` if the goal asks for it"
        for part, th in stray_parts(*scenario_steps(sc, corpus, errands), sc.themes)]
