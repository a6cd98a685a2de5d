"""The proof that no request leaves a convention hidden.

Several derivations admit more than one reading: a growth "at 7 % a year" compounded
monthly or yearly, "the total" of an order with or without its shipping, "an eco
setpoint for the weather" from the forecast's high or its low, a cost "per person" or
for the group, a projection of the converted value or of the original one, the offer
a search with several results picks. The reference takes one reading; a careful
reader who takes another fails on the task, not on a fault. Each family and its
readings are data (``data/cues/readings.toml``, loaded by ``tasks.readings``).

For every scenario this module finds the families its steps open and the reading
each takes (by the outputs the scenario reads, or by what feeds an argument), and
proves that every phrasing states that reading with one of its words, as the Action
cues are proved (``tasks.action_cues``). A scenario may instead declare a family among
the readings the grader accepts (``readings = ["percent_base"]``), which only a family
the grader grades either way (``graded_any``) allows.

It also finds steps the request does not need: a lookup whose outputs nothing reads
(no argument, text, answer or premise), which a careful agent skips, so a fault on it
tests nothing and a reference that calls it grades a call nobody asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.capabilities import Capability, capabilities
from toolmaze_gym.tasks.readings import Family, Reading, default_families, states

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

Families = Mapping[str, Family]


def behaviours(corpus: Corpus, step: StepSpec, caps: Mapping[str, Capability]) -> set[str]:
    """Every behaviour a step may call: its own use and those of all its sides' tools
    (a search-then-book composite calls the search)."""
    cap = caps.get(step.use)
    return {step.use} | ({corpus[t].behaviour for t in cap.tools} if cap else set())


def reads(sc: Scenario, by: str = "any") -> set[str]:
    """Every step output (``step.key``) the scenario reads: by an argument, as an ask
    of a text (what the grade checks), in its answer, or in a premise. ``by``:
    "argument" keeps only arguments; "asks" only what the user is told (the answer and
    texts' asks); "template" takes every hole of a text's template (what the reference
    fills in) instead of its asks."""
    args = {a.ref for step in sc.steps for a in step.args if a.kind == "field"}
    if by == "argument":
        return args
    out = set(sc.answer) | (set() if by == "asks" else args)
    for step in sc.steps:
        for a in step.args:
            out |= {m for m in (a.holes if by == "template" else a.mention) if "." in m}
    if by != "asks":
        out |= {o.ref for p in sc.premises for o in p.operands if o.kind == "field"}
    return out


def _param_count(sc: Scenario, type_: str) -> int:
    return sum(p.type == type_ for p in sc.params)


def _with_holds(sc: Scenario, fam: Family, used: set[str]) -> bool:
    """Whether the scenario also has what opens the family (``with``)."""
    if not fam.with_:
        return True
    for cond in fam.with_:
        if cond.startswith("type:"):
            type_, _, n = cond[5:].partition("*")
            if _param_count(sc, type_) >= int(n or 1):
                return True
        elif cond in used:
            return True
    return False


def _source(sc: Scenario, step: StepSpec, role: str, corpus: Corpus,
            caps: Mapping[str, Capability]) -> tuple[str, set[str]]:
    """What feeds ``role`` of a step: ("param", {name}), ("field", its behaviours), or
    ("none", ∅) where nothing does (an optional argument left out)."""
    arg = next((a for a in step.args if a.role == role), None)
    if arg is None:
        return "none", set()
    if arg.kind == "text":
        return "", set()
    if arg.kind == "param":
        return "param", {arg.ref}
    up = sc.step_by_id.get(arg.step)
    return "field", behaviours(corpus, up, caps) if up else set()


def _downstream(sc: Scenario, ref: str) -> set[str]:
    """The steps a step output flows into, directly or through later steps."""
    reached = {s.id for s in sc.steps if any(a.kind == "field" and a.ref == ref
                                             for a in s.args)}
    grew = True
    while grew:
        more = {s.id for s in sc.steps if s.id not in reached
                and any(a.kind == "field" and a.step in reached for a in s.args)}
        reached |= more
        grew = bool(more)
    return reached


def _keyed(fam: Family, r: Reading, sc: Scenario, step: StepSpec, read: set[str],
           by_step: Mapping[str, set[str]]) -> bool:
    """Whether a reading chosen by keys is taken: a key is read and, where the family
    tells readings apart by where the value flows, it flows as the reading says."""
    through = {b for x in fam.readings for b in x.through}
    for k in r.keys:
        ref = f"{step.id}.{k}"
        if ref not in read:
            continue
        flows = any(by_step[s] & (set(r.through) or through) for s in _downstream(sc, ref))
        if not through or flows == bool(r.through):
            return True
    return False


def _chosen(fam: Family, sc: Scenario, step: StepSpec, read: set[str], corpus: Corpus,
            caps: Mapping[str, Capability], by_step: Mapping[str, set[str]]) -> list[Reading]:
    """The readings one step of the family takes."""
    kind, src = _source(sc, step, fam.role, corpus, caps) if fam.role else ("", set())
    out: list[Reading] = []
    for r in fam.readings:
        if r.fixed or (r.keys and _keyed(fam, r, sc, step, read, by_step)):
            out.append(r)
        elif kind and r.sources:
            named = {s for s in r.sources if s not in ("param", "none", "*")}
            stated = kind in ("param", "none") and kind in r.sources
            if stated or (kind == "field" and src & named):
                out.append(r)
    if kind == "field" and not any(r in out for r in fam.readings if r.sources):
        out += [r for r in fam.readings if "*" in r.sources]
    return out


def taken(sc: Scenario, corpus: Corpus, families: Families | None = None
          ) -> list[tuple[Family, StepSpec, Reading]]:
    """Every (family, step, reading) the scenario's steps take."""
    families = default_families() if families is None else families
    caps = capabilities(corpus)
    by_step = {s.id: behaviours(corpus, s, caps) for s in sc.steps}
    used = set().union(*by_step.values()) if by_step else set()
    out = []
    for fam in families.values():
        if not _with_holds(sc, fam, used):
            continue
        read = reads(sc, fam.by)
        for step in sc.steps:
            if by_step[step.id] & set(fam.use):
                out += [(fam, step, r) for r in _chosen(fam, sc, step, read, corpus, caps,
                                                                  by_step)]
    return out


def _words(reading: Reading, step: StepSpec) -> tuple[str, ...]:
    """The reading's words with ``{role}`` put as the placeholder of the param bound to
    that argument; a word whose role no param feeds cannot be said, so it is dropped."""
    params = {a.role: a.ref for a in step.args if a.kind == "param"}
    out = []
    for w in reading.words:
        if "{" not in w:
            out.append(w)
            continue
        role = w[w.index("{") + 1:w.index("}")]
        if role in params:
            out.append(w.replace("{" + role + "}", "{" + params[role] + "}"))
    return tuple(out)


def _said(phrasing: str, words: Iterable[str]) -> bool:
    """Plain words outside placeholders; a word naming a placeholder as written."""
    plain = [w for w in words if "{" not in w]
    held = [w.casefold() for w in words if "{" in w]
    flat = " ".join(phrasing.split()).casefold().replace("\u2019", "'")
    return states(phrasing, tuple(plain)) or any(w in flat for w in held)


def convention_problems(sc: Scenario, corpus: Corpus, families: Families | None = None
                        ) -> list[str]:
    """Every (phrasing, reading) the phrasing leaves unstated, every declared reading
    the grader does not accept either way, and every declared family the scenario
    does not open."""
    families = default_families() if families is None else families
    where = f"{sc.file}: {sc.id}"
    declared = set(sc.readings)
    problems = [f"{where}.readings: {name!r} is no family of readings.toml" if name not in
                families else f"{where}.readings: the grader does not accept every reading "
                f"of {name!r} ({families[name].about}); state the reading in every phrasing"
                for name in sorted(declared) if name not in families
                or not families[name].graded_any]
    hits = taken(sc, corpus, families)
    for fam, step, reading in hits:
        if fam.name in declared:
            continue
        words = _words(reading, step)
        problems += [f"{where}.phrasings[{k}]: leaves open {fam.about} — step {step.id!r} "
                     f"takes {reading.name!r}; say one of {list(words)} (or declare "
                     f"readings = [\"{fam.name}\"] where the grader accepts every reading)"
                     for k, p in enumerate(sc.phrasings) if not _said(p, words)]
    opened = {fam.name for fam, _, _ in hits}
    problems += [f"{where}.readings: {name!r} is declared but no step opens it"
                 for name in sorted(declared & set(families) - opened)]
    return problems


def idle_steps(sc: Scenario, corpus: Corpus) -> list[str]:
    """Every step that is no Action and whose outputs nothing reads, not even a text's
    template: a lookup the request does not need (a balance that feeds nothing)."""
    caps = capabilities(corpus)
    read = {r.split(".", 1)[0] for r in reads(sc, "template")}
    where = f"{sc.file}: {sc.id}"
    return [f"{where}.steps.{s.id}: {s.use} feeds nothing the request asks (no argument, "
            "text, answer or premise reads it); drop the step or ask for its result"
            for s in sc.steps if s.id not in read and s.use in caps
            and not any(corpus[t].category == "Action" for t in caps[s.use].tools)]


def data_problems(corpus: Corpus, families: Families | None = None) -> list[str]:
    """Families whose behaviours the corpus does not have, or whose keys no tool of
    theirs returns, so readings.toml and the corpus never drift apart."""
    families = default_families() if families is None else families
    known = {s.behaviour for s in corpus.tools.values()}
    problems: list[str] = []
    for fam in families.values():
        where = f"readings.toml: family.{fam.name}"
        named = [b for b in (*fam.use, *fam.with_) if not b.startswith("type:")]
        problems += [f"{where}: {b!r} is no behaviour of the corpus" for b in named
                     if b not in known]
        returns = {f.canonical for s in corpus.tools.values() if s.behaviour in fam.use
                   for f in s.returns}
        problems += [f"{where}.reading.{r.name}: no tool of {list(fam.use)} returns {k!r}"
                     for r in fam.readings for k in r.keys if k not in returns]
    return problems
