"""How an episode ended, and what that ending is worth: one rule per ending.

An agent ends an episode with ``finish`` (an answer), ``abort`` (a reason) or a
plain-text reply; otherwise it is cut (step limit, context, runner). What the
ending is worth depends on the situation at that moment:

completed  a valid path of S was completed cleanly;
blocked    a permanent fault on a step without alternative was met: no valid
           path is left, so the right move is to stop and say so;
open       neither: a valid path is still open (retry, reroute, or carry on);
doomed     no valid path exists (a permanent fault without alternative lies
           ahead) but the agent has not met it yet.

situation  finish/text claiming  finish/text reporting  abort                 cut
           success               the failure
---------  --------------------  ---------------------  --------------------  ----
completed  success               success                fail (aborted_after_  fail
                                                        completion)
blocked    fail (false_claim)    graceful stop          graceful stop         fail
open       fail (premature_give_ fail (premature_give_  fail (premature_give_ fail
           up, false_claim)      up)                    up)
doomed     fail (false_claim)    fail                   fail                  fail

A graceful stop is a success only if the agent also never called a tool
downstream of the victim (before or after meeting the fault) and caused no
collateral damage; ``toolmaze_gym.grading`` applies those conditions. The same
table, with the reasons, is in docs/grading.md. Whether an answer claims success or
reports the failure is ``toolmaze_gym.failure_text.reports_failure``.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolmaze_gym.failure_text import reports_failure

COMPLETED, BLOCKED, OPEN, DOOMED = "completed", "blocked", "open", "doomed"
SITUATIONS = (COMPLETED, BLOCKED, OPEN, DOOMED)
AGENT_ENDINGS = ("finish", "answer", "abort")  # "" stands for a cut episode
__all__ = ["AGENT_ENDINGS", "SITUATIONS", "Verdict", "judge", "reports_failure"]


@dataclass(frozen=True)
class Verdict:
    """What an ending makes of its situation, before the downstream and collateral rules.

    ``ok`` is success (for ``blocked``: a graceful stop); ``labels`` name what happened.
    """

    ok: bool
    labels: tuple[str, ...] = ()


def judge(situation: str, ending: str, text: str = "") -> Verdict:
    """The endings table above, for one (situation, ending, answer text)."""
    if situation not in SITUATIONS:
        raise ValueError(f"unknown situation {situation!r}; choose from {SITUATIONS}")
    if ending not in (*AGENT_ENDINGS, ""):
        raise ValueError(f"unknown ending {ending!r}; choose from {AGENT_ENDINGS} or ''")
    if not ending:
        return Verdict(False)
    claims = ending != "abort" and not reports_failure(text)
    if situation == COMPLETED:
        return Verdict(False, ("aborted_after_completion",)) if ending == "abort" \
            else Verdict(True)
    if situation == BLOCKED:
        return Verdict(False, ("false_claim",)) if claims else Verdict(True)
    labels = ("premature_give_up",) if situation == OPEN else ()
    return Verdict(False, labels + (("false_claim",) if claims else ()))
