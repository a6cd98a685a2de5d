"""A text the user leaves open is graded by its asks, never by the author's sentence.

A scenario's free text (``{ text = "...", asks = [...] }``) is a template the task's
author wrote: the reference run sends it, but the request never shows it, so only its
asks may be graded (``tasks.asks``). The grader keeps to that for a text an Action
sends and for a text a Processor renders in the request's language: with no asks,
any words pass. One path reads the template itself: a text a Processor renders into
*another* language (a translation: the step takes a language the request states).
An agent that writes that text itself must then carry the facts of the author's
English sentence — its figures and names (``grading.index``, ``_own_content``) —
which appear nowhere in the request or the responses (issue 28, c3-0087: "record my
third ... with the description in Spanish").

So such a text must declare its asks: the facts the request says it carries, stated
in every phrasing like any ask. A template every phrasing quotes word for word is the
user's own wording and needs none.
"""

from __future__ import annotations

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.tasks.capabilities import capabilities, role_types
from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

LANGUAGE = "language_code"


def _stated_language(corpus: Corpus, step: StepSpec) -> bool:
    """Whether the step renders its text into a language the request states."""
    cap = capabilities(corpus).get(step.use)
    if cap is None:
        return False
    roles = role_types(corpus, cap)
    return any(a.kind == "param" and LANGUAGE in roles.get(a.role, ())
               for a in step.args)


def open_text_problems(sc: Scenario, corpus: Corpus) -> list[str]:
    """Each author-written text a step translates with no asks, unless every phrasing
    quotes it."""
    out = []
    for step in sc.steps:
        if not _stated_language(corpus, step):
            continue
        for a in step.args:
            if a.kind != "text" or a.mention or all(a.text in p for p in sc.phrasings):
                continue
            out.append(f"{sc.file}: {sc.id}.steps.{step.id}.args.{a.role}: the request "
                       f"leaves this text open but it is translated with no asks, so an "
                       f"agent's own translation is graded on the author's sentence "
                       f"{a.text!r}; declare the facts it must carry (asks, with cues)")
    return out
