"""Every question a request asks is graded: each "tell me ..." and "how much ...?" names an ask.

toolmaze-v6's c4-0050 said "tell me the total before shipping in CAD" and declared no
answer, so a final answer without the figure, or with a wrong one, passed; c4-0005 asked
"how much did the Chicago house and the Oslo cabin use this month?" and "(tell me what
it's at now)" but graded only the cabin bill. A question the grader never reads is a
promise the task does not keep: the careless agent passes and the score says nothing
about whether it told the user what they asked.

So each phrasing's questions are found by their words, and each must contain a cue of
an ask (``tasks.asks``: an ``answer`` output, or a free text's ask when the question is
answered by a message, "tell me the balance by a push"):

* a **telling clause**: "tell me", "let me know", "show me", "give me", "report back"
  up to the clause's end (a sentence stop, a semicolon, or "then");
* a **question sentence**: one ending in "?" that opens with a question word
  ("how much", "what", "which", "when", "where"), after any lead-in ending in a colon
  ("Energy check: how much ...?"). "Can you book it?" is a request, not a question.

The cue must fall inside the clause: a cue said elsewhere in the phrasing (for another
thing) does not make this question graded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from toolmaze_gym.tasks.asks import cue_in, texts

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

TELLING = ("tell me", "let me know", "show me", "give me", "report back", "tell us",
           "let us know")
QUESTION_WORDS = ("how much", "how many", "how long", "how warm", "how cold", "what",
                  "which", "when", "where", "who")
# where a telling clause ends: a sentence or list stop, or the next errand; a
# parenthesis ends it only when the telling words are inside one ("(tell me ...)")
_CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|[:;]|\bthen\b")
_SENTENCE = re.compile(r"[^.!?]*[.!?]")
_TELL = re.compile(r"(?<!\w)(" + "|".join(re.escape(t) for t in TELLING) + r")(?!\w)",
                   re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _plain(phrasing: str) -> str:
    """The phrasing with its placeholders kept as opaque words (a ``{date}`` holds no stop)."""
    return _PLACEHOLDER.sub(lambda m: m.group(0).replace(".", "_"), phrasing)


def telling_clauses(phrasing: str) -> list[str]:
    """Each "tell me ..." clause: from the telling words to the clause's end."""
    text = _plain(phrasing)
    out = []
    for m in _TELL.finditer(text):
        rest = text[m.end():]
        ends = [e.start() for e in [_CLAUSE_END.search(rest)] if e]
        if text[:m.start()].count("(") > text[:m.start()].count(")") and ")" in rest:
            ends.append(rest.index(")"))
        stop = min(ends, default=len(rest))
        out.append(text[m.start(): m.end() + stop].strip())
    return out


def question_sentences(phrasing: str) -> list[str]:
    """Each sentence ending in "?" that opens (after a lead-in colon) with a question word."""
    out = []
    for s in _SENTENCE.findall(_plain(phrasing)):
        s = s.strip()
        if not s.endswith("?"):
            continue
        head = s.rsplit(":", 1)[-1].strip().lower()
        if any(re.match(rf"{re.escape(w)}(?!\w)", head) for w in QUESTION_WORDS):
            out.append(s)
    return out


def questions(phrasing: str) -> list[str]:
    """Every question of a phrasing, telling clauses first."""
    return telling_clauses(phrasing) + question_sentences(phrasing)


def _ask_cues(sc: Scenario) -> Iterable[str]:
    """The cues of every output the scenario grades as told: answer asks and text asks."""
    asked = set(sc.answer)
    for _path, a in texts(sc):
        asked |= {ref for ref in a.mention if "." in ref}
    for ref, words in sc.cues:
        if ref in asked:
            yield from words


def question_problems(sc: Scenario) -> list[str]:
    """Each question of a phrasing in which no cue of a graded ask is said."""
    where = f"{sc.file}: {sc.id}"
    cues = list(_ask_cues(sc))
    problems = []
    for k, phrasing in enumerate(sc.phrasings):
        for q in questions(phrasing):
            if not any(cue_in(q, c) for c in cues):
                problems.append(
                    f"{where}.phrasings[{k}]: asks {q!r} but no graded ask has a cue in it "
                    "(declare the told output in `answer` with a cue from these words, or "
                    "reword it as no question)")
    return problems
