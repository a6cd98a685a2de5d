"""A "[es] …" tag is the translators' mark, not a language (grading version 23).

The world's translators know a fixed set of sentences; any other text "is not
translated: it comes back unchanged, tagged with the target language ('[es] …')", as
their docs say. That tagged answer is the world's simulated translation: a text bound
to the translator's output passes when it carries the answer the episode got
(``arguments.TextRule``'s need), whatever wording the agent gave the translator.

A tag the agent writes itself ("[es] Hi Emma, …", no translator called) translates
nothing: ``arguments.says`` reads a text's language by its words alone (v10-g22
play-test c2-0001 P2, ``es_tag_no_translator``: an English SMS asked "in Spanish"
passed as Spanish). The one exception is a world that has no translation for the text
its own request routes through the translator (older editions: the reference run got
"[es] <the English text>" back and sends it): there a text under the tag that the
translators would answer so (``tag_counts``) is Spanish, as the reference's is, since
the grader reads texts, not which call wrote them (toolmaze-v3 c2-0040 P2 sent an own
English line through the translator, a call the path did not take as the slot's).
"""

from __future__ import annotations

import re

from toolmaze_gym.tasks.model import Task
from toolmaze_gym.world import phrasebook


def tag_counts(text: str, code: str) -> bool:
    """Whether ``text`` carries the translators' ``[code]`` tag on a text they have no
    translation for (their answer): a tag on a sentence the phrasebook holds in ``code``
    is English passed off as that language (c1-0034: the translator returns real
    German). Asked only where the task's world answers ``code`` tagged
    (``tagged_languages``)."""
    tag = f"[{code}] "
    rests = [part.split(tag, 1)[1] for part in text.splitlines() if tag in part]
    return any(phrasebook.translation(r, code) is None for r in rests)


def tagged_languages(task: Task) -> frozenset[str]:
    """The languages whose tag a translator's answer in the task's reference runs
    carries: those its world has no translation into for the text the request routes
    (older world editions), where that tagged answer is the translation there is."""
    return frozenset(m.group(1) for path in task.solutions for call in path.calls
                     for v in call.response.values()
                     if isinstance(v, str) and (m := _CODE.match(v)))


_CODE = re.compile(r"^\s*\[([a-z]{2})\]\s")
