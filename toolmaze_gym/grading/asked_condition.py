"""Whether a request asks the weather condition itself, not only a figure of it.

A text in another language says the weather condition in that language's words
(``condition_synonyms.condition_said_in``, grading version 19; toolmaze-v8 play-test
c1-0014: "mentioning ... the weather there right now" asks the thunderstorm, and an
Italian return reason without "temporale" or any weather passed). Up to version 18 a
condition in another language went unchecked, so this holds it only where the request
asks for it: a cue of the condition (the scenario's, else "weather" and "forecast") said
and not narrowed to a figure. "The forecast there on that day (high in °C and °F)"
asks the high, not the sky (toolmaze-v7 play-test c2-0003 ``probe-nocondition``,
which its player judged fair): a value name right beside the cue narrows it, as the
library's phrasings are held to (``tasks.stated_scope``), and so does a parenthesis
after it in the same clause that opens with one.

And a condition the request narrows away is not asked of the texts at all (grading
version 22): a scenario's welcome mail carries the forecast's condition, but "email
them ... the forecast (high in °C and °F)" asks the high, and a mail that gives the
high in both units and no sky failed for lacking "cloudy" (toolmaze-v10 review
c1-0083, settled by replay). Only where the request names a condition cue and every
one is narrowed: a request that names none may ask it in other words.
"""

from __future__ import annotations

import re
from dataclasses import replace

from toolmaze_gym.grading.asked_facts import scenario_of
from toolmaze_gym.tasks.model import Input, Task
from toolmaze_gym.tasks.stated_scope import cue_reaches, plain_words, scope, word_spans

_FALLBACK = ("weather", "forecast")
_CLAUSE_END = re.compile(r"[.;!?]")
_KEY = "condition"
_CONDITION = "weather_condition"


# "whether it'll rain", "if it will rain", "will it rain", "any rain": a yes/no question
_RAIN_QUESTION = re.compile(r"\b(?:whether|if) it(?:'ll|\u2019ll| will) rain\b"
                            r"|\bwill it rain\b|\bany rain\b", re.IGNORECASE)


def rain_question(task: Task) -> bool:
    """Whether ``task``'s request asks whether it will rain, a yes or no: answered by rain
    told or denied, not by the day's condition word (grading version 26, toolmaze-v11
    review c2-0074: "whether it'll rain in Cairo that day" on a windy day)."""
    return bool(_RAIN_QUESTION.search(task.query))


def condition_asked(task: Task) -> bool:
    """Whether ``task``'s request asks the weather condition itself (see above)."""
    text = plain_words(task.query)
    return any(_stated(text, cue) for cue in _cues(task))


def _cues(task: Task) -> tuple[str, ...]:
    sc = scenario_of(task)
    if sc is None:
        return _FALLBACK
    words = [w for ref, ws in sc.cues if ref.partition(".")[2] == _KEY for w in ws]
    return tuple(words) or _FALLBACK


def _stated(text: str, cue: str) -> bool:
    """Some occurrence of ``cue`` reaches the condition: not narrowed to another value
    beside it, nor by a parenthesis after it in its clause that names one first."""
    data = scope()
    if not cue_reaches(text, cue, _KEY, data):
        return False
    for m in word_spans(text, cue):
        rest = text[m.end():]
        end = _CLAUSE_END.search(rest)
        clause = rest[:end.start()] if end else rest
        inner = clause.partition("(")[2]
        if not inner or not any(re.match(rf"\s*{re.escape(n)}(?!\w)", inner)
                                for n in data.names):
            return True
    return False


def without_narrowed_condition(task: Task) -> Task:
    """``task`` with the weather condition taken off its texts' asks where the request
    names the weather and narrows every mention of it to a figure (see above)."""
    text = plain_words(task.query)
    if not any(next(word_spans(text, cue), None) for cue in _cues(task)) \
            or condition_asked(task):
        return task
    changed, slots = False, []
    for slot in task.slots:
        inputs = tuple(_less_condition(i) for i in slot.inputs)
        changed |= inputs != slot.inputs
        slots.append(replace(slot, inputs=inputs))
    return replace(task, slots=tuple(slots)) if changed else task


def _less_condition(inp: Input) -> Input:
    kept = tuple(m for m in inp.mentions if m[0] != _CONDITION)
    return inp if len(kept) == len(inp.mentions) else replace(inp, mentions=kept)
