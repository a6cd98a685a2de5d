"""The proof that every phrasing of a scenario asks for each Action it requires.

Success is the outcome the user asked for: every required Action (a tool that
changes the world: send, book, pay, set) done once with the right arguments. A
phrasing that never says "e-mail it" or "book it" would have the grader demand
an Action the user never requested, so this module proves, for every scenario
and every phrasing, that each **Action step** (a step whose capability has an
Action tool on some side) is stated by the phrasing.

A step is stated when the phrasing says one of its **cues**: the words a person
asks for that outcome with ("email", "book", "reserve"). Cues are data
(``toolmaze_gym/data/cues/actions.toml``, keyed by tool behaviour), so the
vocabulary of an Action is written once for every scenario that uses it. A step
whose capability is an alternative group takes the cues of the Action tools of
all its sides: the alternatives reach one outcome, and the request asks for the
outcome, not for one provider's verb. A scenario may add its own words for a step
(``cues = { "mail" = ["quote"] }``, keyed by the step id) where its wording is
particular. Cues match as the asks' cues do (``asks.cue_in``:
case-insensitive whole words, outside placeholders).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.asks import cue_in
from toolmaze_gym.tasks.capabilities import Capability, capabilities

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

DATA = ("data", "cues", "actions.toml")
ActionCues = Mapping[str, tuple[str, ...]]  # behaviour -> the words that ask for it


def parse_action_cues(text: str, where: str = "actions.toml") -> tuple[dict, list[str]]:
    """Behaviour -> cues from the data file's text, and its problems (a key that is
    not a list of non-empty words)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"{where}: not valid TOML ({exc})"]
    table = raw.get("behaviour")
    if set(raw) != {"behaviour"} or not isinstance(table, dict):
        return {}, [f"{where}: expected one [behaviour] table of behaviour -> [cues]"]
    out: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    for name, words in table.items():
        if (not isinstance(words, list) or not words
                or not all(isinstance(w, str) and w.strip() for w in words)):
            problems.append(f"{where}: {name}: a non-empty list of words or phrases")
            continue
        out[name] = tuple(w.strip() for w in words)
    return out, problems


@cache
def default_cues() -> dict[str, tuple[str, ...]]:
    """The shipped cues per behaviour; a broken data file is a packaging error."""
    text = resources.files("toolmaze_gym").joinpath(*DATA).read_text(encoding="utf-8")
    cues, problems = parse_action_cues(text)
    if problems:
        raise ValueError("; ".join(problems))
    return cues


def data_problems(corpus: Corpus, cues: ActionCues | None = None) -> list[str]:
    """Action behaviours of the corpus without cues, and entries that name neither an
    Action behaviour nor a group with Action sides (stale), so the data and the corpus
    never drift apart."""
    cues = default_cues() if cues is None else cues
    actions = {s.behaviour for s in corpus.tools.values() if s.category == "Action"}
    groups = {name for name, cap in capabilities(corpus).items()
              if name not in actions and action_tools(corpus, cap)}
    return ([f"actions.toml: behaviour {b!r} of an Action tool has no cues" for b in
             sorted(actions - set(cues))]
            + [f"actions.toml: {b!r} is neither the behaviour of an Action tool nor a "
               "capability with Action sides" for b in sorted(set(cues) - actions - groups)])


def action_tools(corpus: Corpus, cap: Capability) -> tuple[str, ...]:
    """The Action tools a capability may call, side by side in order, once each."""
    return tuple(dict.fromkeys(t for side in cap.sides for t in side
                               if corpus[t].category == "Action"))


def step_cues(corpus: Corpus, step: StepSpec, cap: Capability, own: ActionCues,
              cues: ActionCues) -> tuple[str, ...]:
    """The words that ask for an Action step: the capability's own entry, else those
    of every Action tool of its sides; then the scenario's own words for the step.

    A scenario's words add to the data's rather than replace them, so a step keeps
    the common vocabulary when the data grows and its TOML carries only what is
    particular to its wording ("quote {customer}" for an e-mail)."""
    if cap.name in cues:
        base = cues[cap.name]
    else:
        base = tuple(w for t in action_tools(corpus, cap)
                     for w in cues.get(corpus[t].behaviour, ()))
    return tuple(dict.fromkeys((*base, *own.get(step.id, ()))))


def action_steps(sc: Scenario, corpus: Corpus) -> list[tuple[StepSpec, Capability]]:
    """The scenario's steps whose capability has an Action tool, with the capability."""
    caps = capabilities(corpus)
    return [(s, caps[s.use]) for s in sc.steps
            if s.use in caps and action_tools(corpus, caps[s.use])]


def action_problems(sc: Scenario, corpus: Corpus, cues: ActionCues | None = None) -> list[str]:
    """Every (phrasing, Action step) where the phrasing never asks for the Action, and
    every scenario cue keyed by a step id that is no Action step of the scenario."""
    cues = default_cues() if cues is None else cues
    where = f"{sc.file}: {sc.id}"
    own = {ref: words for ref, words in sc.cues if "." not in ref}
    steps = action_steps(sc, corpus)
    problems: list[str] = []
    for step, cap in steps:
        words = step_cues(corpus, step, cap, own, cues)
        if not words:
            problems.append(f"{where}.steps.{step.id}: {step.use} is an Action with no cues "
                            f'(add its behaviour to data/cues/actions.toml, or declare '
                            f'cues = {{ "{step.id}" = ["word a request asks for it with"] }})')
            continue
        problems += [f"{where}.phrasings[{k}]: never asks for step {step.id!r} ({step.use}, "
                     f"an Action the grader requires): none of its cues {list(words)}"
                     for k, p in enumerate(sc.phrasings) if not any(cue_in(p, w) for w in words)]
    acting = {s.id for s, _ in steps}
    problems += [f"{where}.cues.{ref}: {ref!r} is no Action step of this scenario; cues are "
                 'for step outputs ("step.key") or, by step id, for an Action step'
                 for ref in own if ref not in acting]
    return problems
