"""A reading of one site, in a request about two, says which site it is.

toolmaze-v6's c4-0098 heated a cabin in Melbourne and a home in Dublin, then asked
"tell me this month's energy use and its bill at 0.22 per kWh" and graded the Dublin
home's meter: a reader who reported the cabin's use (or both) had guessed the other way
(the settle replay c4-0098__melbourne_usage failed). So where a scenario's steps act on
two sites or more and it tells the reading of one (an ``answer`` or a text's ask of a
per-site step: ``SITE_READINGS``), each clause of a phrasing that asks for it (says one
of its cues) names its site's placeholder. A request that asks each site's reading
(c4-0005's "how much did the house and the cabin use") is not ambiguous and is left be.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from toolmaze_gym.tasks.asks import cue_in, texts

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

SITE_READINGS = frozenset({"iot.energy_usage"})  # a meter read at one site


def _sites(sc: Scenario) -> set[str]:
    """The params the steps bind to a ``site``: the places the request is about."""
    return {a.ref for st in sc.steps for a in st.args if a.role == "site" and a.kind == "param"}


def _told(sc: Scenario) -> set[str]:
    refs = set(sc.answer)
    for _path, a in texts(sc):
        refs |= {r for r in a.mention if "." in r}
    return refs


def _clauses(phrasing: str) -> list[str]:
    """The phrasing cut at commas and stops (not at "and": "the setpoints and the
    energy use" is one list of one clause), placeholders kept whole."""
    out, depth, start = [], 0, 0
    for m in re.finditer(r"\{|\}|[,;.!?]", phrasing):
        if m.group() in "{}":
            depth += 1 if m.group() == "{" else -1
        elif depth == 0:
            out.append(phrasing[start:m.start()])
            start = m.end()
    return [c for c in [*out, phrasing[start:]] if c.strip()]


def site_reading_problems(sc: Scenario) -> list[str]:
    """Each clause asking a one-site reading, among two sites, that names no site."""
    where = f"{sc.file}: {sc.id}"
    if len(_sites(sc)) < 2:
        return []
    readings = [st for st in sc.steps if st.use in SITE_READINGS]
    if len({a.ref for st in readings for a in st.args if a.role == "site"}) != 1:
        return []  # none, or each site's reading: nothing to guess
    cues = dict(sc.cues)
    problems = []
    for st in readings:
        site = next(a.ref for a in st.args if a.role == "site")
        words = [c for ref in _told(sc) if ref.split(".", 1)[0] == st.id
                 for c in cues.get(ref, ())]
        for k, phrasing in enumerate(sc.phrasings):
            for clause in _clauses(phrasing):
                if any(cue_in(clause, c) for c in words) and f"{{{site}}}" not in clause:
                    problems.append(f"{where}.phrasings[{k}]: asks for {st.id}'s reading in "
                                    f"{clause.strip()!r} without saying it is {{{site}}}'s, "
                                    "in a request about two sites")
    return problems
