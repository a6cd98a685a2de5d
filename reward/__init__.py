"""Rewards derived from the grade; they import grading only, never the env or agents."""

from toolmaze_gym.reward.partial import PARTIAL, PartialCredit, partial_reward, path_progress
from toolmaze_gym.reward.repeats import repeat_indices
from toolmaze_gym.reward.shaping import potential, shaping_term
from toolmaze_gym.reward.terminal import (
    BEFORE_ISSUE_31,
    DEFAULT,
    RewardConfig,
    record_reward,
    terminal_reward,
)

__all__ = ["BEFORE_ISSUE_31", "DEFAULT", "PARTIAL", "PartialCredit", "RewardConfig",
           "partial_reward", "path_progress", "potential", "record_reward", "repeat_indices",
           "shaping_term", "terminal_reward"]
