"""Rewards as pure functions of the grade: the env and TRL reward functions share them.

No reward is earned without the behaviour it names: success pays only for a
completed valid path (or a graceful stop where none remains), recovery and its
cost only on top of a success after an exposure. Every failure earns exactly 0,
the same as aborting, finishing or answering at once, so doing nothing is never
worth more than trying: an agent cannot see a fault before it calls the tool, and
a failure that costs more once a fault has fired is a tax on calling tools that
only quitting avoids (the reward before issue 31 charged an exposed failure 0.5
and ranked "finish at once" above the naive agent over the whole suite). Looping,
calling everything or replaying blind fail and earn 0, below any success; the
partial credit (``toolmaze_gym.reward.partial``) prices loops below 0. The optional
shaping term (``toolmaze_gym.reward.shaping``) sums to 0 over every episode, so it
cannot change this ranking. Why the weights are what they are: docs/rewards.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RewardConfig:
    """Weights of the terminal reward; the defaults are what the env uses.

    reward = success·(w_success + exposed·(recovered·w_recovery − C_rec·w_cost))

    With the defaults a clean success earns 1.0, a success after a fault 1.0 to 1.5
    (1.5 when recovered in the fewest steps; the cost takes back up to 0.5 for the
    wasted ones), and every failure 0. ``failure_terms=True`` applies the recovery and
    cost terms to failed episodes too, the reward before issue 31 (an exposed failure
    then earns ``w_recovery·recovered − w_cost``, −0.5 unrecovered, below quitting):
    kept only to re-score older runs, never the default.
    """

    success: float = 1.0
    recovery: float = 0.5
    cost: float = 0.5
    shaping: bool = False  # add the potential-based term at every step (sums to 0)
    gamma: float = 1.0
    failure_terms: bool = False  # the pre-issue-31 reward: exposure taxed on failure too


DEFAULT = RewardConfig()
# The default terminal reward as it was before issue 31, for re-scoring older runs and
# for the before/after table (benchmarks/reward_ranking.py).
BEFORE_ISSUE_31 = RewardConfig(failure_terms=True)


def terminal_reward(grade: Mapping[str, Any], cfg: RewardConfig = DEFAULT) -> float:
    success = bool(grade["success"])
    r = cfg.success * success
    if grade["exposed"] and (success or cfg.failure_terms):
        r += cfg.recovery * bool(grade["recovered"]) - cfg.cost * float(grade["c_rec"])
    return float(r)


def record_reward(record: Mapping[str, Any], cfg: RewardConfig = DEFAULT) -> float:
    """The terminal reward of a trajectory record (runner output, TRL rollouts)."""
    return terminal_reward(record["grade"], cfg)
