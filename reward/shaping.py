"""Potential-based shaping: Φ(s) = −(fewest calls still needed under the faults seen).

F(s, s') = γΦ(s') − Φ(s) telescopes over an episode, so it leaves the optimal
policy unchanged (Ng et al., 1999) while rewarding progress step by step.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import ENDINGS, Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading import remaining_optimal
from toolmaze_gym.tasks.model import Task


def potential(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step]) -> float:
    if steps and steps[-1].kind in ENDINGS:
        return 0.0
    return -float(remaining_optimal(corpus, task, profile, steps))


def shaping_term(corpus: Corpus, task: Task, profile: FaultProfile, steps: Sequence[Step],
                 gamma: float = 1.0) -> float:
    """γΦ(after the last step) − Φ(before it)."""
    return gamma * potential(corpus, task, profile, steps) - potential(corpus, task, profile,
                                                                       steps[:-1])
