"""Agents: scripted baselines and language models behind one interface."""

from toolmaze_gym.agents.base import Agent
from toolmaze_gym.agents.policy import (
    POLICY_NAMES,
    ContextOverflow,
    Policy,
    ScriptedPolicy,
    make_policy,
)
from toolmaze_gym.agents.random_policy import RandomAgent
from toolmaze_gym.agents.scripted import (
    SCRIPTED,
    NaiveAgent,
    OracleAgent,
    PlanFollower,
    RetryAgent,
    ValidatorAgent,
)

BASELINES = ("oracle", "naive", "retry", "validator", "random")


def make_scripted(name: str, sim=None):
    if name == "random":
        return RandomAgent(sim)
    if name not in SCRIPTED:
        raise ValueError(f"unknown scripted agent {name!r}; choose from {', '.join(BASELINES)}")
    return SCRIPTED[name](sim)


__all__ = ["BASELINES", "POLICY_NAMES", "SCRIPTED", "Agent", "ContextOverflow", "NaiveAgent",
           "OracleAgent", "PlanFollower", "Policy", "RandomAgent", "RetryAgent",
           "ScriptedPolicy", "ValidatorAgent", "make_policy", "make_scripted"]
