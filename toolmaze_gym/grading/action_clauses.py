"""Which clauses of a request ask for an Action's text (grading version 32).

The noted-facts rule (``noted_facts``) reads, from each word that asks for an Action
("to-do", "invite", "post"), the rest of its clause for the facts the text must note.
toolmaze-v14's sweep of what it added found clauses read for the wrong Action: a word
two Actions share ("book a room" and "book a call"), a word that names an Action's
result inside another's clause ("post a summary with the meeting time and the room"),
and a clause that runs on into the next errand ("..., and text Mia Schmidt the
invoice"). A clause here is the one its reader sees: from the Action's own word to the
next errand.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.asked_facts import action_words, clause_on, cue_starts
from toolmaze_gym.tasks.asks import cue_spans
from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

# How many words after a cue word shared by two Actions are read for the other's own
# cue: "book a room" (the room's), "book a call" (the meeting's).
SHARED_CUE_REACH = 3


def own_starts(query: str, sc: Scenario, step: StepSpec, corpus: Corpus,
               theirs: tuple[str, ...]) -> tuple[int, ...]:
    """Where ``query`` asks for ``step`` by one of its cue words, less a word another
    Action shares that the words right after it give to that Action (grading version
    32): "Please book a room, save the to-dos ... and invite Ines Moreau" books the
    room; its clause does not ask the meeting's subject to name the room
    (toolmaze-v14 review's sweep: off-retro-room-notes-and-invite c4-0034,
    off-new-hire-first-day-setup c4-0005). A shared word followed by the step's own
    cue ("book a call with the customer") stays the step's. Nor does a word that
    names the thing inside another Action's clause ask for it (``_referred``).
    ``theirs``: the other Actions' cue words ``step`` does not share (``_others_words``)."""
    by_step = action_words(sc, corpus)
    words = by_step.get(step.id, ())
    others = {w for sid, ws in by_step.items() if sid != step.id for w in ws}
    return tuple(at for w in words for at in cue_starts(query, (w,))
                 if (w not in others or not _followed_by(query, at + len(w), theirs))
                 and not _referred(query, at, words, theirs)
                 and not _in_output_cue(query, at, len(w), sc))


def _in_output_cue(query: str, at: int, size: int, sc: Scenario) -> bool:
    """Whether the cue word at ``at`` is said inside a longer cue of an output: "meeting
    time (Milan time) and room included" names the meeting's time, not the meeting
    (toolmaze-v14 c4-0060), as ``_named`` reads a cue inside a longer one."""
    return any(x <= at and at + size <= y and y - x > size
               for ref, cues in sc.cues if "." in ref
               for c in cues for x, y in cue_spans(query, c))


# Words before a cue that make it name a thing already there ("the meeting time").
_REFERRING = frozenset({"the", "its", "their", "that", "this"})


def _referred(query: str, at: int, words: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether the cue word at ``at`` names its Action's result inside another Action's
    clause: "post a brief summary with the meeting time in Dubai time and the room"
    asks the post, not the meeting, for the room (toolmaze-v14 c4-0005); "reply ...
    with the ticket number and the call time" the reply, not the ticket. It is so
    where "the" (or "its", "their", ...) precedes it and the nearest cue word before
    it in its sentence is another Action's own."""
    before = query[:at].split()
    if not before or before[-1].lower() not in _REFERRING:
        return False
    sentence = re.split(r"[.;!?](?:\s|$)", query[:at])[-1]
    mine, yours = cue_starts(sentence, words), cue_starts(sentence, theirs)
    return bool(yours) and max(yours) > max(mine, default=-1)


def _followed_by(query: str, end: int, words: tuple[str, ...]) -> bool:
    """Whether one of ``words`` starts within ``SHARED_CUE_REACH`` words after ``end``
    in the same clause."""
    ahead = clause_on(query, end) if end < len(query) else ""
    near = " ".join(ahead.split()[:SHARED_CUE_REACH])
    return bool(near) and bool(cue_starts(near, words))


@lru_cache(maxsize=4096)  # per request and step: a task's index reads it for each text
def asking_clauses(query: str, sc: Scenario, step: StepSpec, corpus: Corpus
                   ) -> tuple[str, ...]:
    """The clauses of ``query`` that ask for ``step``'s text (none: no Action step),
    each from one of its own cue words (``own_starts``) to the next errand
    (``_to_next_errand``)."""
    theirs = _others_words(sc, step, corpus)
    return tuple(_to_next_errand(clause_on(query, at), theirs)
                 for at in own_starts(query, sc, step, corpus, theirs))


def _others_words(sc: Scenario, step: StepSpec, corpus: Corpus) -> tuple[str, ...]:
    """The cue words of the scenario's other Actions that ``step`` does not share."""
    by_step = action_words(sc, corpus)
    words = by_step.get(step.id, ())
    return tuple(dict.fromkeys(w for sid, ws in by_step.items() if sid != step.id
                               for w in ws if w not in words))


# ", and" or ", then": where a list of errands goes on (a bare comma lists nouns as
# often: "the return, refund and new order number", v7 c4-0099).
_NEXT = re.compile(r",\s*(?:and|then)\s+", re.I)
# Words that begin a noun phrase of things already there, not an errand ("..., and
# the booking reference"); "a"/"an" may begin one ("..., and a summary ... posted").
_DETERMINERS = frozenset({"the", "its", "their", "my", "his", "her", "our", "your",
                          "that", "this", "each", "every", "any", "both"})


def _to_next_errand(clause: str, theirs: tuple[str, ...]) -> str:
    """``clause`` up to an ", and" after which another Action is asked by a verb
    phrase (grading version 32): "... a welcome meeting with yuki.novak@umbrella.co
    ..., and post a brief summary with ... the room" asks the meeting nothing of the
    post's room (toolmaze-v14 c4-0005), "... slot for a walkthrough call, and text Mia
    Schmidt the invoice" the call nothing of the invoice (c2-0083). One before a noun
    phrase ("the total, and the booking reference") lists what the text holds."""
    for m in _NEXT.finditer(clause):
        ahead = clause[m.end():].split()[:SHARED_CUE_REACH + 1]
        if ahead and ahead[0].lower() not in _DETERMINERS \
                and cue_starts(" ".join(ahead), theirs):
            return clause[:m.start()]
    return clause
