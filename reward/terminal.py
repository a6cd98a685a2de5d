"""Rewards as pure functions of the grade: the env and TRL reward functions share them.

No reward is earned without the behaviour it names: success pays only for a
completed valid path (or a graceful stop where none remains), recovery only
after an exposure, and the recovery-cost penalty grows with wasted calls.
Aborting or finishing at once earns 0; calling everything or looping fails and
pays less. The optional shaping term (``toolmaze_gym.reward.shaping``) sums to 0
over every episode, so it cannot change this ranking.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RewardConfig:
    """Weights of the terminal reward; the defaults are what the env uses.

    reward = success·w_success + exposed·(recovered·w_recovery − C_rec·w_cost)
    """

    success: float = 1.0
    recovery: float = 0.5
    cost: float = 0.5
    shaping: bool = False  # add the potential-based term at every step (sums to 0)
    gamma: float = 1.0


DEFAULT = RewardConfig()


def terminal_reward(grade: Mapping[str, Any], cfg: RewardConfig = DEFAULT) -> float:
    r = cfg.success * bool(grade["success"])
    if grade["exposed"]:
        r += cfg.recovery * bool(grade["recovered"]) - cfg.cost * float(grade["c_rec"])
    return float(r)


def record_reward(record: Mapping[str, Any], cfg: RewardConfig = DEFAULT) -> float:
    """The terminal reward of a trajectory record (runner output, TRL rollouts)."""
    return terminal_reward(record["grade"], cfg)
