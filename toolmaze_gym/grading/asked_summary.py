"""A text asked to carry a summary carries the summary the run made.

toolmaze-v10's c1-0046 asks to "give #it-helpdesk a one-line summary of the top review
along with my score and the new average". The scenario's post asks only the score and
the average: its other phrasings ask the review's gist of the user alone ("Skim the top
review for its gist, ..., and tell #it-helpdesk what I gave it and where the average
stands"), and a summary has no cue of its own that one phrasing could name. So a post
with the score and the average and no word of the review passed (toolmaze-v10's
play-test, p4 ``no-top-review``).

So where the clause that asks for an Action's text (``noted_facts``) says "summary"
("summarise", "gist", "digest"), each summary the text's reference carries from a step
that sums a text up (``text.summarize``) is asked of it, as a fact the clause names.
It is told in the agent's own words as any summary is (the grader reads a paraphrase of
the text summed up), and one the reference text leaves out is not asked.
"""

from __future__ import annotations

import re

from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

# The behaviours of the steps that sum a text up (as ``index.SUMMARISERS``).
SUMMARISERS = frozenset({"text.summarize", "office.text.summarize"})
_SUMMARY = re.compile(r"\b(?:summary|summaries|summari[sz]e[sd]?|gist|digest)\b", re.I)


def summaries_named(clauses: list[str], sc: Scenario, step: StepSpec) -> list[str]:
    """The summaries (``step.field`` of a summarising step) ``step``'s texts are filled
    with, where a clause asking for them (``clauses``) names a summary."""
    if not any(_SUMMARY.search(c) for c in clauses):
        return []
    summing = {s.id for s in sc.steps if s.use in SUMMARISERS}
    return list(dict.fromkeys(h for a in step.args for h in a.holes
                              if "." in h and h.split(".", 1)[0] in summing))
