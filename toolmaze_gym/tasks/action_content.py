"""The proof that every Action step of a scenario carries content the request asks for.

A free text with ``asks = []`` passes with any non-empty text (``tasks.asks``). That
is right for a subject line beside an asked body, and for a booking whose dates and
guest are checked; but a notification whose texts all ask nothing and whose other
arguments only say where it goes (a channel, a site, a recipient) checks nothing at
all: "send the household a notification" is not a task step until the request says
what it must tell them. So each Action step must have an asked text, or an argument
that is content (neither free text nor an address role: ``data/cues/addresses.toml``),
or an output a later step reads (a document created to be written into).

The other way round, an Action must not carry content the request never asks for: an
optional free text (a push's title, a payment's note) that the scenario sets with no
asks becomes part of the expected call, and the grader then wants *some* text there,
so a careful agent that leaves the optional title out fails (toolmaze-v4 c2-0020). An
optional text is set only with asks the request states; otherwise it is left to the
agent (``unasked_optional_problems``).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.action_cues import action_steps
from toolmaze_gym.tasks.capabilities import capabilities

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

DATA = ("data", "cues", "addresses.toml")


@cache
def address_roles() -> frozenset[str]:
    """Roles that address a message rather than fill it (the shipped data file)."""
    text = resources.files("toolmaze_gym").joinpath(*DATA).read_text(encoding="utf-8")
    return frozenset(tomllib.loads(text)["roles"])


def carries_content(step: StepSpec, read: set[str], addresses: frozenset[str]) -> bool:
    """Whether the request asks the step for something a grader can check."""
    texts = [a for a in step.args if a.kind == "text"]
    return (any(a.mention for a in texts)
            or any(a.kind != "text" and a.role not in addresses for a in step.args)
            or step.id in read)


def empty_action_problems(sc: Scenario, corpus: Corpus,
                          addresses: frozenset[str] | None = None) -> list[str]:
    """Every Action step of ``sc`` that carries nothing the request asks for."""
    addresses = address_roles() if addresses is None else addresses
    read = {up for st in sc.steps for up in st.upstream()}
    return [f"{sc.file}: {sc.id}.steps.{step.id}: {step.use} is an Action whose texts ask "
            f"nothing and whose other arguments only address it "
            f"({sorted(a.role for a in step.args if a.kind != 'text')}): give a text the "
            "asks the request states, or drop the step"
            for step, _ in action_steps(sc, corpus)
            if not carries_content(step, read, addresses)]


def unasked_optional_problems(sc: Scenario, corpus: Corpus) -> list[str]:
    """Every free-text argument a scenario sets with no asks where the parameter is
    optional for every tool of the step (an optional text the request never asks for
    would be graded as required)."""
    caps = capabilities(corpus)
    out: list[str] = []
    for step in sc.steps:
        cap = caps.get(step.use)
        if cap is None:
            continue
        for a in step.args:
            params = [p for t in sorted(cap.tools) for p in corpus[t].params
                      if p.canonical == a.role]
            if a.kind == "text" and not a.mention and params \
                    and not any(p.required for p in params):
                out.append(f"{sc.file}: {sc.id}.steps.{step.id}.args.{a.role}: an optional "
                           "text the request does not ask for (asks = []) would be graded as "
                           "required; leave it out, or give it asks the request states")
    return out
