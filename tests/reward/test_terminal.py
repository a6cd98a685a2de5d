"""The terminal reward as a pure function of the grade, and its use by the env."""

from __future__ import annotations

import gymnasium as gym
import pytest
from toolmaze_gym.reward import (
    BEFORE_ISSUE_31,
    DEFAULT,
    RewardConfig,
    record_reward,
    terminal_reward,
)

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.envs._helpers import play


def _grade(success, exposed, recovered=None, c_rec=0.0):
    return {"success": success, "exposed": exposed, "recovered": recovered, "c_rec": c_rec}


@pytest.mark.parametrize("grade,expected", [
    (_grade(False, False), 0.0),                       # nothing done, nothing earned
    (_grade(True, False), 1.0),                        # clean success
    (_grade(True, True, True, 0.0), 1.5),              # fault met, recovered at c = c*
    (_grade(True, True, True, 0.5), 1.25),             # recovered, twice the needed steps
    (_grade(False, True, True, 1.0), 0.0),             # recovered the slot, task failed
    (_grade(False, True, False, 1.0), 0.0),            # fault met, not recovered: as quitting
    (_grade(False, True, None, 1.0), 0.0),
])
def test_default_weights(grade, expected):
    assert terminal_reward(grade) == pytest.approx(expected)
    assert terminal_reward(grade, DEFAULT) == terminal_reward(grade)


@pytest.mark.parametrize("grade,expected", [
    (_grade(False, False), 0.0),
    (_grade(True, True, True, 0.5), 1.25),
    (_grade(False, True, True, 1.0), 0.0),
    (_grade(False, True, False, 1.0), -0.5),           # the tax on trying that issue 31 removed
])
def test_the_reward_before_issue_31_rescores_old_runs(grade, expected):
    assert terminal_reward(grade, BEFORE_ISSUE_31) == pytest.approx(expected)


def _grades():
    """Every grade shape the grader can give (c_rec = 1 on any exposed failure)."""
    for exposed in (False, True):
        for recovered in ((None,) if not exposed else (None, False, True)):
            yield _grade(False, exposed, recovered, 1.0 if exposed else 0.0)
            for c_rec in ((0.0,) if not exposed else (0.0, 0.25, 0.5, 0.75, 0.95)):
                yield _grade(True, exposed, recovered, c_rec)


QUIT = _grade(False, False)  # finish, abort or answer at once: no call, nothing done


def test_no_failure_earns_less_than_quitting():
    """The agent cannot see a fault before it calls the tool: a failure after one must
    not cost more than never calling (issue 31), nor earn more (a loop that retries the
    victim and never finishes is a failure)."""
    failures = [g for g in _grades() if not g["success"]]
    assert {terminal_reward(g) for g in failures} == {terminal_reward(QUIT)} == {0.0}


def test_every_success_beats_every_failure_and_recovery_never_pays_less():
    """A success after a fault, recovered, never earns less than a clean success (so
    no path is worth avoiding for its risk); every success earns more than any failure."""
    successes = [g for g in _grades() if g["success"]]
    assert min(terminal_reward(g) for g in successes) > 0.0
    clean = terminal_reward(_grade(True, False))
    assert all(terminal_reward(g) >= clean for g in successes if g["recovered"])


def test_weights_are_configurable():
    cfg = RewardConfig(success=2.0, recovery=1.0, cost=0.25)
    assert terminal_reward(_grade(True, True, True, 0.4), cfg) == pytest.approx(2 + 1 - 0.1)
    assert terminal_reward(_grade(True, False), cfg) == 2.0
    assert record_reward({"grade": _grade(True, False)}, cfg) == 2.0


def test_recovery_pays_only_after_exposure():
    # an unexposed episode never earns the recovery bonus, whatever the flag says
    assert terminal_reward(_grade(False, False, True)) == 0.0


@pytest.mark.parametrize("env_id", ["ToolMaze-C2P0-v0", "ToolMaze-C3P2-v0"])
def test_env_reward_is_the_terminal_reward_of_its_grade(env_id):
    cfg = RewardConfig(success=3.0, recovery=0.7, cost=0.2)
    env = gym.make(env_id, reward=cfg)
    for agent in ("validator", "naive", "random"):
        for seed in range(4):
            out = play(env, agent, seed=seed)
            assert out["rewards"][-1] == pytest.approx(terminal_reward(out["grade"], cfg))
            assert sum(out["rewards"][:-1]) == 0.0
            assert record_reward(env.unwrapped.record(), cfg) == out["rewards"][-1]
