"""A visa asked as a yes or no, answered as one (grading version 22).

get_visa_requirements answers a visa type ("consular visa", "visa-free", "citizen, no
visa") and whether one is required. Where a scenario's text carries the type but the
request asks only *whether* a visa is needed ("say whether I need a visa there with my
passport from CN"), "a traveller with a CN passport needs a visa for the Czech
Republic" answers what was asked, and failing it for not naming "consular visa"
demands a word the request never asked (toolmaze-v10 play-test c4-0056 probe
``visa-yes-only``; review c1-0035, "note the visa rules" for a German going to Berlin,
held to the tool's "citizen, no visa"). So there the type is also told by
the need it implies, said one way and not the other. A type that needs no visa but
something else (an electronic travel authorisation, a pre-arrival registration) is not
told by "no visa needed": the reader would travel without it, so it is named.
A request that asks the type ("the visa type", "which visa") keeps it asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from toolmaze_gym.world.base import load_data

# A pseudo-type (``arguments.PSEUDO_TYPES``): an entry (VISA_NEED, visa type) is the
# type told by whether the traveller needs a visa.
VISA_NEED = "visa_need"
VISA_TYPE_KEY = "text@visa_type"

_VISA = re.compile(r"\bvisas?\b", re.I)
_TYPE_ASKED = re.compile(r"\b(?:visa\s+type|type\s+of\s+visa|kind\s+of\s+visa|which\s+visa"
                         r"|what\s+visa|visa\s+(?:category|status))\b", re.I)
_NO_VISA = re.compile(
    r"\bno\s+visa\b|\bvisa[- ](?:free|exempt)\b|\bwithout\s+a\s+visa\b"
    r"|\b(?:do|does|will|did)\s*(?:n['’]t|\s+not)\s+(?:need|require)\s+(?:a\s+)?visa\b"
    r"|\b(?:need|needs|require|requires)\s+no\s+visa\b"
    r"|\bvisa\s+(?:is\s+|was\s+)?not\s+(?:needed|required|necessary)\b"
    r"|\bno\s+need\s+(?:for|of)\s+a\s+visa\b|\bvisa(?:\s+required)?\s*:\s*(?:no|not|none)\b", re.I)
_NEEDS_VISA = re.compile(
    r"\b(?:need|needs|needed|require|requires|required|must\s+(?:get|obtain|apply\s+for|have)"
    r"|(?:has|have)\s+to\s+(?:get|obtain|apply\s+for))\s+(?:a|an)\s+(?:[\w-]+\s+)?visa\b"
    r"|\bvisa\s+(?:is\s+)?(?:required|needed|necessary)\b|\bvisa(?:\s+required)?\s*:\s*yes\b",
    re.I)
_NO_VISA_TYPES = frozenset({"visa-free", "citizen, no visa"})


def visa_asked_whether(query: str) -> bool:
    """Whether ``query`` asks about a visa ("whether I need a visa", "note the visa
    rules") and not which one."""
    return bool(_VISA.search(query)) and not _TYPE_ASKED.search(query)


@lru_cache(maxsize=1)
def _required() -> dict[str, bool]:
    return dict(load_data("travel.json")["visa"]["required"])


def visa_need_said(text: str, visa_type: Any) -> bool:
    """Whether ``text`` tells the need ``visa_type`` implies, and not the other."""
    if not isinstance(text, str) or not isinstance(visa_type, str):
        return False
    no = bool(_NO_VISA.search(text))
    yes = bool(_NEEDS_VISA.search(_NO_VISA.sub(" ; ", text)))  # "does not need a visa"
    if visa_type in _NO_VISA_TYPES:
        return no and not yes
    return _required().get(visa_type, False) and yes and not no


def need_claims(text: str) -> tuple[str, str]:
    """The words by which ``text`` says no visa is needed, and those by which it says
    one is ("" where it says neither)."""
    no = _NO_VISA.search(text)
    yes = _NEEDS_VISA.search(_NO_VISA.sub(" ; ", text))
    return (no.group(0) if no else ""), (yes.group(0) if yes else "")


def need_told_wrong(outputs: Mapping[str, Mapping[str, Any]], text: str
                    ) -> list[tuple[str, str, str]]:
    """(slot, visa type, the words) for each visa type this episode's visa look-up
    answered whose need ``text`` tells the other way only (grading version 23:
    v9-g21 play-test c4-0090 P1, "a Brazilian passport holder needs a Schengen visa
    for Germany" where the answer was "visa-free"). A text that says both ("visa-free
    for 90 days; a longer stay needs a visa") claims neither; a type that needs
    neither a visa nor no visa unsaid (an electronic travel authorisation) is read as
    the map ``required`` says; where the episode's visa answers differ in their need
    (two travellers), no text is read so."""
    if not isinstance(text, str) or not _VISA.search(text):
        return []
    types = [(slot, v) for slot, out in outputs.items()
             if isinstance(v := out.get(VISA_TYPE_KEY), str) and _need_of(v) is not None]
    if len({_need_of(v) for _, v in types}) != 1:
        return []
    no, yes = need_claims(text)
    wrong, right = (no, yes) if _need_of(types[0][1]) else (yes, no)
    return [(slot, v, wrong) for slot, v in types] if wrong and not right else []


def _need_of(visa_type: str) -> bool | None:
    """Whether ``visa_type`` needs a visa (None: a type the world does not list)."""
    if visa_type in _NO_VISA_TYPES:
        return False
    return _required().get(visa_type)
