"""Agents: scripted baselines and language models behind one interface."""

from toolmaze_gym.agents.base import Agent
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


__all__ = ["BASELINES", "SCRIPTED", "Agent", "NaiveAgent", "OracleAgent", "PlanFollower",
           "RandomAgent", "RetryAgent", "ValidatorAgent", "make_scripted"]
