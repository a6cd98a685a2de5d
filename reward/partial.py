"""Partial credit over a whole episode: a reward that separates bad from less bad.

The terminal reward (``toolmaze_gym.reward.terminal``) pays for success and
recovery only, so a model that cannot finish a task yet earns 0 on every rollout:
a GRPO group of equal rewards has no advantage and teaches nothing. Partial
credit adds what a researcher would accept as progress towards the goal:

* ``named``: the share of the agent's actions that were calls naming a tool the
  episode showed, whatever their arguments: the rung below ``valid``. Measured on
  the SFT'd SmolLM2-135M's own sampled rollouts (README, Training), almost no call
  had valid arguments, so without this rung 11 of 12 GRPO groups were all-zero;
  naming a real tool instead of an invented one is what such a model learns next;
* ``valid``: the share of the agent's actions that were well-formed calls to a
  tool the episode showed (``finish``/``abort`` excluded, so ending at once earns
  nothing), the first skill a small model lacks;
  A repeated call (``toolmaze_gym.reward.repeats``: the same call again after
  a clean answer) is not counted as valid, and each one costs ``repeat``, so
  looping on a valid call lowers the reward with every turn instead of raising
  the share;
* ``progress``: the share of the task's fewest-steps cost that the agent's calls
  removed (``grading.remaining_optimal`` at the start versus after the calls, under
  the faults met), i.e. how far along a valid path the episode got, in [0, 1); the
  cost counts the closing step, which success pays for.

reward = terminal_reward(grade) + w_named·named + w_valid·valid + w_progress·progress
− w_repeat·repeats (a repeated call counts in neither share). With the default weights
the bonus is at most 0.6, below the 1.0
or more of a clean or recovered success, so no amount of partial progress outranks
finishing the task (every failure's terminal reward is 0: docs/rewards.md), and a
loop of k repeats costs 0.1·k (a 25-step loop ends far below an immediate stop).
Why not the potential-based shaping term: it is built to telescope to 0 over every
episode (it only moves credit between steps), so summed over an episode, as GRPO
sums, it is 0 and adds no variance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolmaze_gym.reward.terminal import DEFAULT, RewardConfig, terminal_reward

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.episode import ENDINGS, Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading import remaining_optimal
from toolmaze_gym.tasks.model import Task


@dataclass(frozen=True)
class PartialCredit:
    """Weights of the partial credit added to the terminal reward."""

    named: float = 0.1
    valid: float = 0.2
    progress: float = 0.3
    repeat: float = 0.1  # per repeated call (toolmaze_gym.reward.repeats)


PARTIAL = PartialCredit()


def partial_reward(grade: Mapping[str, Any], valid: float, progress: float,
                   credit: PartialCredit = PARTIAL, cfg: RewardConfig = DEFAULT,
                   repeats: int = 0, named: float = 0.0) -> float:
    """Terminal reward plus the weighted named-tool share, valid-call share and path
    progress (each clamped to [0, 1]), less ``credit.repeat`` per repeated call
    (``named`` and ``valid`` should count only the calls that were not repeats:
    ``repeats.repeat_indices``)."""
    def unit(x: float) -> float:
        return min(1.0, max(0.0, float(x)))

    bonus = (credit.named * unit(named) + credit.valid * unit(valid)
             + credit.progress * unit(progress))
    return terminal_reward(grade, cfg) + bonus - credit.repeat * max(0, int(repeats))


def path_progress(corpus: Corpus, task: Task, profile: FaultProfile,
                  steps: Sequence[Step]) -> float:
    """The share of the fewest-steps cost at the start that the calls removed, in
    [0, 1] (0 when the calls made none, or the faults made the rest dearer)."""
    calls = list(steps)
    while calls and calls[-1].kind in ENDINGS:
        calls.pop()
    start = remaining_optimal(corpus, task, profile, [])
    if start <= 0:
        return 0.0
    left = remaining_optimal(corpus, task, profile, calls)
    return min(1.0, max(0.0, (start - left) / start))
