"""What a text asked to carry "all of it" must carry (grading version 21).

toolmaze-v9's c4-0080 asks to "cool the bedroom to that and the office thermostat as
well after checking its climate and dew point, tell me what the house used ..., and
notify the household with all of it and the climate headline", and c4-0091 to "send
the household in Manchester a notification with all of it". The tasks asked of the
notice only what their scenarios listed (the forecast, the cost and the headline; the
set points and the energy use), so a notice with the set points 22 C and the dew point
25 C (27 and 15.7 right), or none, passed, and so did one without the cost or with a
wrong one (the blind review of toolmaze-v9, issue 27).

So where the clause that asks for an Action's text says "all of it" ("all of that",
"all that", "it all", "everything"), the text is asked each figure the request's
earlier steps came to: every number its reference text is filled with that is the
result of another step and that no other step works from. A figure a later step reads
is a step on the way (the forecast low a set point is picked for, the reading a dew
point is worked from, the kWh priced into the cost); it is asked where the request
names it, as before. So are the words and codes of a text (a weather condition, an
order number, a delivery date): "all of it" is read as the figures, the reading a
reviewer settled as fair for c4-0091 ("both set to 19 °C; 592.31 kWh this month,
165.85" without the order of the plugs passes). And a reading converted into another
unit is the same fact as the reading (23.8 °C and 74.8 °F: toolmaze-v3's c4-0047
emails "all that together with ... the weather" and its °F, which the request never
names, is not asked of a mail that tells 23.8 °C); it is asked where the request
names it ("the high in Fahrenheit for my US guests"). "All of it: the low in both units,
the order number ..." lists what it means, and asks nothing more here.
"""

from __future__ import annotations

import re

from toolmaze_gym import values
from toolmaze_gym.corpus import Corpus
from toolmaze_gym.grading.asked_facts import clause_on, cue_starts, output_type
from toolmaze_gym.tasks.scenarios import Scenario, StepSpec

# "all of it", "all of that", "all that", "it all", "everything", "the lot"; not before a colon,
# where a list says what "all of it" is.
# "the lot" too (grading version 22, toolmaze-v10 review c4-0089: "mail ... the lot, with
# the new living room temperature" asked no figure of the mail).
_ALL = re.compile(r"\b(?:all\s+of\s+(?:it|that|this)|all\s+(?:that|this)|it\s+all|everything"
                  r"|the\s+lot)"
                  r"\b(?!\s*:)", re.I)
# Where the clause of an Action's cue begins: the request's start, or a stop, a
# semicolon, a colon or a comma before a space ("…per kWh, and notify the household").
_CLAUSE_START = re.compile(r"[.;:!?,]\s")
_NUMBER_KINDS = frozenset({"number", "integer"})
_TEXT = "text"
_UNIT_CONVERSION = "units."  # a reading in another unit: the same fact (°C and °F)


def says_all(query: str, words: tuple[str, ...]) -> bool:
    """Whether a clause of ``query`` with a cue word of an Action (``words``) asks for
    "all of it", said before the cue ("Send all that to the household as a home
    notification") or after it ("notify the household with all of it")."""
    for at in cue_starts(query, words):
        begun = [c.end() for c in _CLAUSE_START.finditer(query, 0, at)]
        if _ALL.search(query[begun[-1] if begun else 0: at] + clause_on(query, at)):
            return True
    return False


def results(sc: Scenario, step: StepSpec, corpus: Corpus) -> list[str]:
    """The figures (``step.field``) ``step``'s texts are filled with that another step
    came to and no step other than ``step`` works from, in the texts' order; a text a
    step wrote from figures (a formatted price line) stands for the figures it dresses
    that nothing else works from (grading version 22, toolmaze-v10 review c4-0089: "mail
    ... the lot" asked no figure of "241.05 GBP (Pound Sterling)")."""
    readers: dict[str, set[str]] = {}
    for st in sc.steps:
        for a in st.args:
            if a.kind == "field":
                readers.setdefault(a.ref, set()).add(st.id)
    by_id = {st.id: st for st in sc.steps}
    converted = {st.id for st in sc.steps if st.use.startswith(_UNIT_CONVERSION)}
    out: list[str] = []
    for h in dict.fromkeys(h for a in step.args for h in a.holes if "." in h):
        up = h.split(".", 1)[0]
        if up in (step.id, *converted) or readers.get(h, set()) - {step.id}:
            continue
        if _figure(corpus, sc, h):
            out.append(h)
        elif up in by_id and output_type(corpus, sc, h) == _TEXT:
            out += [a.ref for a in by_id[up].args if a.kind == "field"
                    and readers.get(a.ref, set()) == {up} and _figure(corpus, sc, a.ref)]
    return list(dict.fromkeys(out))


def _figure(corpus: Corpus, sc: Scenario, ref: str) -> bool:
    """Whether output ``ref`` is a number (a sum, a reading, a set point)."""
    spec = values.all_types().get(output_type(corpus, sc, ref) or "")
    return spec is not None and spec.schema.get("type") in _NUMBER_KINDS
