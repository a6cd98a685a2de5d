"""A status phrase told as people write it: "label created" in a sentence.

A carrier's status reads like a form's field ("label created": a noun and what
happened to it), and a person telling it writes a sentence: "the label has been
created", "UPS has created the shipping label". Those say the status as surely as
the phrase itself (toolmaze-v6 review, c1-0021: both failed while "label created,
awaiting pickup" passed), so a text mentions a status of the form ``<noun>
<participle>`` when it says the participle of the noun in the passive (the noun,
then auxiliaries only, then the participle) or in the active (the participle, then
at most two words such as an article or "shipping", then the noun), with no
negation before it ("the label has not been created" says no such thing). Another
status stays another: "in transit" never says "label created".
"""

from __future__ import annotations

import re
from functools import lru_cache

# The types whose values are such status phrases (``values.domains.shopping``).
STATUS_TYPES = frozenset({"shipment_status", "order_status"})

# Words that may stand between a noun and its participle in the passive:
# "label has been created", "label's been created", "label was just created".
_AUXILIARIES = ("has", "have", "had", "was", "were", "is", "are", "be", "been", "being",
                "now", "just", "already", "successfully", "also")
_NEGATION = re.compile(r"\b(?:not|never|no|yet to)\s*$|n't\s*$")
_FORM = re.compile(r"([a-z]+) ([a-z]+ed)")  # "label created"


@lru_cache(maxsize=64)
def _patterns(value: str) -> tuple[re.Pattern[str], ...]:
    """The passive and active sentences of ``value`` (none when it is no
    ``<noun> <participle>`` phrase)."""
    m = _FORM.fullmatch(" ".join(value.casefold().split()))
    if not m:
        return ()
    noun, done = map(re.escape, m.groups())
    aux = "|".join(_AUXILIARIES)
    passive = rf"\b{noun}s?(?:'s)?(?:\s+(?:{aux}))*\s+{done}\b"
    active = rf"\b{done}\s+(?:[\w-]+\s+){{0,2}}?{noun}s?\b"
    return re.compile(passive), re.compile(active)


def status_told(text: str, value: str) -> bool:
    """Whether ``text`` tells status ``value`` in a sentence of its own (see the
    module docstring); the phrase word for word is ``mentions``' plain rule."""
    flat = " ".join(text.replace("\u2019", "'").casefold().split())
    for rx in _patterns(value):
        for m in rx.finditer(flat):
            if not _NEGATION.search(flat[max(0, m.start() - 12):m.start()]):
                return True
    return False
