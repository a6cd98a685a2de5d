"""An id asked of a text or of the answer is asked for as a number.

toolmaze-v8's blind review: c3-0079 asked to text a sister "the extra order" and
c4-0001 to email a friend "the order"; the grader took only the order's id
(SO-92PT9NCW), and a reader who named the order by what it holds ("I also ordered 2
Willow Premium Smartwatches") failed. A request that wants the id says so, so there
is one outcome a careful reader sees: every phrasing of a scenario whose text or answer
asks for such a field (``data/wording/requests.toml`` [asked_ids]) asks for its number.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from toolmaze_gym.tasks.people_words import wording

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario


@cache
def _rules() -> dict[str, tuple[re.Pattern[str], str]]:
    return {key: (re.compile(r["pattern"], re.IGNORECASE), r["why"])
            for key, r in wording()["asked_ids"].items()}


def asked_id_problems(sc: Scenario) -> list[str]:
    """Each phrasing that does not ask for the number of an id a text or the answer
    asks for."""
    asked = {*sc.answer, *(ref for s in sc.steps for a in s.args for ref in a.mention)}
    out = []
    for ref in sorted(asked):
        rule = _rules().get(ref.rpartition(".")[2]) if "." in ref else None
        if rule is None:
            continue
        pattern, why = rule
        out += [f"{sc.file}: {sc.id}.phrasings[{k}]: {ref!r}: {why}"
                for k, p in enumerate(sc.phrasings) if not pattern.search(p)]
    return out


def asks_the_number(text: str, key: str) -> bool:
    """Whether ``text`` (a request) asks for the number of a ``key`` id."""
    return bool(_rules()[key][0].search(text))
