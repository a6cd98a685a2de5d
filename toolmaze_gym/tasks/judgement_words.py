"""A setpoint the grader fixes is never left to the agent's judgement in the request.

toolmaze-v6's c4-0088 asked to "set the bedroom heating to a sensible eco value" and
graded exactly the thermostat's recommendation (19.0 °C): a reader who chose 18 °C,
sensibly, failed (the settle replay c4-0088__eco_18). A scenario whose setpoint comes
from the eco recommendation (``RECOMMENDERS``) may not call it a judgement ("sensible",
"reasonable", "the right temperature") unless the same phrasing says it is the
recommended one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolmaze_gym.tasks.asks import cue_in

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

RECOMMENDERS = frozenset({"iot.eco_setpoint"})
JUDGEMENT = ("sensible", "reasonable", "suitable", "appropriate", "right temperature",
             "good temperature", "comfortable temperature", "whatever you think")
RECOMMENDED = ("recommended", "recommends", "recommendation", "suggested", "suggests")


def judgement_problems(sc: Scenario) -> list[str]:
    """Each phrasing that leaves a recommended setpoint to the agent's judgement."""
    if not any(st.use in RECOMMENDERS for st in sc.steps):
        return []
    where = f"{sc.file}: {sc.id}"
    out = []
    for k, phrasing in enumerate(sc.phrasings):
        said = [w for w in JUDGEMENT if cue_in(phrasing, w)]
        if said and not any(cue_in(phrasing, w) for w in RECOMMENDED):
            out.append(f"{where}.phrasings[{k}]: leaves the setpoint to judgement "
                       f"({', '.join(repr(w) for w in said)}) while the grade wants the "
                       "tool's recommendation: ask for the recommended value")
    return out
