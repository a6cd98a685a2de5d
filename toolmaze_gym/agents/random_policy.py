"""The random baseline: shown tools with arguments sampled from their types."""

from __future__ import annotations

from typing import Any

from toolmaze_gym import hashing, values
from toolmaze_gym.agents.scripted import FINISH, call_text
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.tasks.model import Task


class RandomAgent:
    name = "random"

    def __init__(self, sim: Simulator | None = None, seed: int = 0) -> None:
        self.sim = sim or Simulator()
        self.seed = seed

    def reset(self, task: Task, tools: list[dict[str, Any]] | None = None,
              mode: str = "P0") -> None:
        self.task = task
        self.stream = hashing.Stream("random-agent", self.seed, task.id, mode)
        self.budget = self.stream.randint(1, 10)
        self.n = 0

    def act(self, messages: list[dict[str, Any]]) -> str:
        if self.n >= self.budget:
            return FINISH
        self.n += 1
        spec = self.sim.corpus[self.stream.choice(self.task.tools)]
        args = {}
        for p in spec.params:
            if p.required:
                args[p.name] = (self.stream.choice(p.enum) if p.enum else
                                values.get(p.type).sample(self.sim.world,
                                                          f"{self.stream.unit()}"))
        return call_text(spec.name, args)
