"""Driving one agent through one episode without Gymnasium (tests, scripted runs).

The message list has the shape an LLM sees (OpenAI chat format), so scripted and
model agents share one interface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Episode
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.prompts import opening_messages
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.transcript import append_step, episode_tools, tool_schemas

if TYPE_CHECKING:
    from toolmaze_gym.agents.base import Agent

__all__ = ["append_step", "rollout", "tool_schemas"]


def rollout(task: Task, mode: str, agent: Agent, sim: Simulator | None = None,
            profile: FaultProfile | None = None, prompt: str = "standard",
            max_steps: int = 25) -> dict[str, Any]:
    """Play one episode and return its graded record; the agent sees what the env shows
    (the same opening messages, clock and tool schemas, ``finish``/``abort`` included)."""
    sim = sim or Simulator()
    episode = Episode(task, mode, sim, profile, max_steps)
    messages = opening_messages(task, prompt, sim.world.now)
    agent.reset(task, episode_tools(task, sim), episode.mode)
    while not episode.done:
        episode.step(agent.act(messages))
        append_step(messages, episode, len(episode.steps) - 1)
    return episode.record(agent=agent.name, prompt=prompt)
