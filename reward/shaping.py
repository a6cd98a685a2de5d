"""Potential-based shaping that cannot pay for anything by itself.

Φ(s) = (fewest steps needed at the start) − (fewest steps still needed in s, under
the faults met so far): progress measured *from the start state*, so Φ(start) = 0,
and Φ = 0 again once the episode is over, however it ended (finish, abort, answer,
step limit, or a cut from outside). Each step adds F = γΦ(s') − Φ(s).

Why from the start: with the plain Φ = −remaining and Φ(end) = 0, the terms telescope
to −Φ(start) = +(optimal length), which every episode collects, so finishing at once
earned +5 on a five-call task. Measured from the start, the discounted sum of F over
any episode is γ^T·Φ(end) − Φ(start) = 0: shaping only moves credit to the steps that
made progress (+1 per useful call, paid back when the episode ends), it never changes
an episode's return, and so it keeps the optimal policies (Ng et al., 1999). With
γ = 1 the plain sum of the terms is 0 as well.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import ENDINGS, Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading import remaining_optimal
from toolmaze_gym.tasks.model import Task


def potential(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
              over: bool = False, start: int | None = None) -> float:
    """Φ after ``steps``: steps of progress since the start; 0 once the episode is over.

    ``over`` marks an episode ended from outside (step limit, cut); one the agent
    ended is recognised from its last step. ``start`` is the remaining optimal cost
    at the start, if the caller has it already (it is a search over the task).
    """
    if over or (steps and steps[-1].kind in ENDINGS):
        return 0.0
    if start is None:
        start = remaining_optimal(corpus, task, profile, [])
    return float(start - remaining_optimal(corpus, task, profile, steps))


def shaping_term(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
                 gamma: float = 1.0, over: bool = False) -> float:
    """γΦ(after the last step) − Φ(before it); ``over``: the last step ended the episode
    from outside (step limit or cut)."""
    start = remaining_optimal(corpus, task, profile, [])
    after = potential(corpus, task, profile, steps, over, start)
    return gamma * after - potential(corpus, task, profile, steps[:-1], start=start)
