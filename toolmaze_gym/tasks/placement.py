"""The proof that a request puts each graded value where the grader reads it.

A text's asks are graded in that text only (``tasks.asks``). A phrasing that asks for
a value in the breath of *another* Action ties it to that Action instead: "line up Kofi
to review the doc with me (first free time, with the time in Sydney where they sit)
... and tell #product" reads as the meeting's time in Sydney, yet the grader read it
in the #product post only (toolmaze-v4 c4-0051). A careful agent put it in the invite
and failed.

So for every phrasing and every ask of an Action's text, this module looks at the
sentences that say the ask's cue: when none of them also asks for the Action that
carries the text, and one of them asks for another Action that writes a text of its own
(where the value could as well go), the value's place is left open. A cue said in a
sentence of no Action ("work out the total. Email it to me.") leaves nothing open: the
one text that is asked for carries it.

Sentences end at ``.``, ``?`` or ``!`` before a capital, a placeholder or a quote, so a
parenthesis stays with the clause it qualifies. Cues match as everywhere else
(``asks.cue_in``); an Action's cues are its words (``tasks.action_cues``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.action_cues import action_steps, default_cues, step_cues
from toolmaze_gym.tasks.asks import cue_in

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z{\"'])")


def sentences(phrasing: str) -> list[str]:
    """The phrasing's sentences, in order."""
    return _SENTENCE_END.split(phrasing.strip())


def placement_problems(sc: Scenario, corpus: Corpus) -> list[str]:
    """Every (phrasing, ask) whose value the phrasing asks for beside another Action
    that writes a text, and never beside the Action whose text the grader reads."""
    own = {ref: words for ref, words in sc.cues if "." not in ref}
    value_cues = {ref: words for ref, words in sc.cues if "." in ref}
    cues = default_cues()
    acts = [(step, step_cues(corpus, step, cap, own, cues))
            for step, cap in action_steps(sc, corpus)]
    writers = {step.id for step, _ in acts if any(a.kind == "text" for a in step.args)}
    where = f"{sc.file}: {sc.id}"
    out: list[str] = []
    for step, words in acts:
        for ref in dict.fromkeys(r for a in step.args if a.kind == "text" for r in a.mention):
            if ref not in value_cues:
                continue
            for k, phrasing in enumerate(sc.phrasings):
                held = [s for s in sentences(phrasing)
                        if any(cue_in(s, w) for w in value_cues[ref])]
                if not held or any(cue_in(s, w) for s in held for w in words):
                    continue
                rivals = [o.id for o, ow in acts if o.id != step.id and o.id in writers
                          and any(cue_in(s, w) for s in held for w in ow)]
                if rivals:
                    out.append(f"{where}.phrasings[{k}]: asks for {ref!r} beside step "
                               f"{rivals[0]!r} but the grader reads it in step {step.id!r}; "
                               f"say it in the sentence that asks for {step.id!r} (one of "
                               f"{list(words)[:4]}), or say where it goes")
    return out
