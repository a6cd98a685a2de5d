"""The expert whose trajectories are worth imitating: recovery from visible evidence only.

Training data must not teach shortcuts a model cannot take. The ``oracle`` knows
the fault profile: it discards a well-formed response because it *knows* the tool
is a victim, and spends a permanent fault on a side it would not use anyway, so
its transcripts show calls repeated or abandoned for no visible reason. The
``validator`` judges responses with the world's hidden facts as well (a city's
climate band) and retries permanent HTTP errors three times. The careful agent
acts only on what the transcript shows:

* an explicit transient error (429, 5xx other than 501) is retried, up to 3 times;
* an explicit permanent error (403, 404, 410, 501, ...) is not retried: the agent
  switches to an untried alternative at once;
* a response that breaks a documented invariant (``visible_violations``: the
  docs, the call and the clock, nothing hidden) is retried once, since a silent
  fault may be transient, then the agent switches;
* with no alternative left it stops with ``abort``, naming the tool and the failure.

Like every scripted baseline it follows the task's plan (what a perfect reader of
the query would derive); it never reads the fault profile.
"""

from __future__ import annotations

import json
from typing import Any

from toolmaze_gym.agents.scripted import ValidatorAgent, call_text
from toolmaze_gym.corpus.invariants import visible_violations

TRANSIENT_CODES = frozenset({408, 425, 429, 500, 502, 503, 504})
TRANSIENT_RETRIES = 3
SILENT_RETRIES = 1


class CarefulAgent(ValidatorAgent):
    """See the module docstring."""

    name = "careful"
    max_retries = TRANSIENT_RETRIES

    def reset(self, *args: Any, **kwargs: Any) -> None:
        self.failure: tuple[str, str, str] | None = None  # tool, verdict, what went wrong
        super().reset(*args, **kwargs)

    def judge(self, name: str, args: dict[str, Any], body: dict[str, Any]) -> str:
        """"ok", "transient" / "permanent" (explicit errors, by HTTP status) or "bad"
        (a documented invariant visibly broken)."""
        error = body.get("error")
        if error is not None:
            code = error.get("code") if isinstance(error, dict) else None
            verdict = "transient" if code in TRANSIENT_CODES else "permanent"
            self.failure = (name, verdict, _error_phrase(error))
            return verdict
        found = visible_violations(self.sim.corpus[name], args, body, self.sim.world)
        if found:
            # the field and the rule it breaks, never the suspect value: repeating a
            # corrupted value in free text would pass it on
            self.failure = (name, "bad", f"{found[0].field}: {found[0].invariant}")
            return "bad"
        return "ok"

    def on_failure(self, verdict: str) -> str:
        limit = {"transient": TRANSIENT_RETRIES, "bad": SILENT_RETRIES}.get(verdict, 0)
        if self.retries < limit:
            return "retry"
        return "switch" if self._untried() is not None else "abort"

    def abort(self, tool: str) -> str:
        if self.failure is not None:
            return call_text("abort", {"reason": abort_reason(*self.failure)})
        return super().abort(tool)


def _error_phrase(error: Any) -> str:
    if not isinstance(error, dict):
        return json.dumps(error, ensure_ascii=False)[:120]
    code, status = error.get("code"), error.get("status")
    return " ".join(str(x) for x in ("HTTP", code, status) if x is not None)


def abort_reason(tool: str, verdict: str, detail: str) -> str:
    """An honest stop: which tool failed, how, and that nothing else provides its data."""
    how = {"transient": f"kept failing ({detail}) after retries",
           "permanent": f"failed permanently ({detail})",
           "bad": f"kept returning data that contradicts its documentation ({detail})"}[verdict]
    return (f"{tool} {how}, and no other available tool provides the same information; "
            "stopping rather than continuing with missing or wrong data.")
