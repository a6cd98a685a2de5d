"""``ToolMazeEnv``: a ToolMaze task as a Gymnasium environment.

Observation and action are strings: the observation is the JSON list of the new
chat messages (OpenAI format), the action is the raw model text. The env owns an
``Episode`` (simulator state, fault engine, trajectory) and grades it at the end;
the reward is a pure function of the grade.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
from gymnasium.error import ResetNeeded
from toolmaze_gym.envs.spaces import BoundedText
from toolmaze_gym.reward import DEFAULT, RewardConfig, shaping_term, terminal_reward

from toolmaze_gym.actions import MAX_ACTION_CHARS
from toolmaze_gym.corpus import Simulator, load_corpus
from toolmaze_gym.episode import MAX_STEPS, Episode
from toolmaze_gym.faults import MODE_NAMES, get_mode
from toolmaze_gym.grading import grade
from toolmaze_gym.prompts import PROMPTS, opening_messages
from toolmaze_gym.rollout import append_step, tool_schemas
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suite import SPLITS, SUITE_NAME, get_task, load_suite, suite_signatures
from toolmaze_gym.world import get_world

MAX_OBSERVATION_CHARS = 1 << 20
CELLS = tuple(f"{lv}{m}" for lv in LEVELS for m in MODE_NAMES)


class ToolMazeEnv(gym.Env[str, str]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, level: str | None = "C1", mode: str | None = "P0", split: str = "suite",
                 suite: str = SUITE_NAME, prompt: str = "standard",
                 reward: RewardConfig | None = None, max_steps: int = MAX_STEPS,
                 curriculum: Mapping[str, float] | None = None, render_mode: str | None = None,
                 world_seed: int = 0) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        if mode is not None:
            mode = get_mode(mode).name
        if split not in ("suite", *SPLITS):
            raise ValueError(f"unknown split {split!r}; choose from suite, {', '.join(SPLITS)}")
        if prompt not in PROMPTS:
            raise ValueError(f"unknown prompt {prompt!r}; choose from {', '.join(PROMPTS)}")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.level, self.mode, self.split, self.suite = level, mode, split, suite
        self.prompt, self.reward_cfg, self.max_steps = prompt, reward or DEFAULT, max_steps
        self.render_mode = render_mode
        self.curriculum = self._curriculum(curriculum)
        self.observation_space = BoundedText(MAX_OBSERVATION_CHARS)
        self.action_space = BoundedText(MAX_ACTION_CHARS)
        self.sim = Simulator(load_corpus(), get_world(world_seed))
        self._episode: Episode | None = None
        self._messages: list[dict[str, Any]] = []
        self._tools: list[dict[str, Any]] = []
        self._generator = None

    # -- task choice ------------------------------------------------------------------

    def _curriculum(self, weights: Mapping[str, float] | None) -> tuple[list[str], list[float]]:
        cells = [c for c in CELLS if (self.level in (None, c[:2]))
                 and (self.mode in (None, c[2:]))]
        if weights is None:
            return cells, [1.0] * len(cells)
        unknown = set(weights) - set(cells)
        if unknown:
            raise ValueError(f"curriculum names unknown cells {sorted(unknown)}; use e.g. 'C3P4'")
        w = [float(weights.get(c, 0.0)) for c in cells]
        if min(w) < 0 or sum(w) <= 0:
            raise ValueError("curriculum weights must be non-negative and not all zero")
        return cells, w

    def _cell(self) -> tuple[str, str]:
        cells, w = self.curriculum
        p = [x / sum(w) for x in w]
        cell = cells[int(self.np_random.choice(len(cells), p=p))]
        return cell[:2], cell[2:]

    def _task(self, level: str, options: Mapping[str, Any]) -> Task:
        if "task" in options:
            t = options["task"]
            return t if isinstance(t, Task) else Task.from_dict(dict(t))
        if "task_id" in options:
            return get_task(str(options["task_id"]), self.suite)
        if self.split == "suite":
            tasks = load_suite(self.suite, [level])
            return tasks[int(self.np_random.integers(len(tasks)))]
        from toolmaze_gym.tasks.generator import TaskGenerator

        if self._generator is None:
            self._generator = TaskGenerator(self.sim)
        index = int(self.np_random.integers(1 << 30))
        return self._generator.generate(level, index, f"{self.split}:env",
                                        f"tmz-{self.split}-{level.lower()}-{index}",
                                        skip=suite_signatures(self.suite))

    # -- Gymnasium API ------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        level, mode = self._cell()
        mode = get_mode(options.get("mode", mode)).name
        task = self._task(options.get("level", level), options)
        self._episode = Episode(task, mode, self.sim, max_steps=self.max_steps)
        self._messages = opening_messages(task, self.prompt)
        self._tools = tool_schemas(task, self.sim)
        info = {"task_id": task.id, "level": task.level, "mode": mode, "prompt": self.prompt,
                "tools": self._tools}
        return json.dumps(self._messages, ensure_ascii=False), info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        ep = self._episode
        if ep is None:
            raise ResetNeeded("call reset() before step()")
        if ep.done:
            return "[]", 0.0, ep.ended, ep.truncated, {"warning": "episode already ended"}
        ep.step(action)
        before = len(self._messages)
        append_step(self._messages, ep, len(ep.steps) - 1)
        obs = json.dumps(self._messages[before:], ensure_ascii=False)
        reward = 0.0
        if self.reward_cfg.shaping:
            reward += shaping_term(self.sim.corpus, ep.task, ep.profile, ep.steps,
                                   self.reward_cfg.gamma)
        info: dict[str, Any] = {"step": len(ep.steps), "status": ep.steps[-1].status}
        if ep.done:
            g = grade(ep.task, ep.profile, ep.steps, ep.truncated, self.sim)
            reward += terminal_reward(g.to_dict(), self.reward_cfg)
            info["grade"] = g.to_dict()
        return obs, float(reward), ep.ended, ep.truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        lines = []
        for m in self._messages:
            content = m.get("content") or json.dumps(m.get("tool_calls"), ensure_ascii=False)
            lines.append(f"[{m['role']}] {content}")
        return "\n".join(lines)

    # -- for prompt building and analysis ---------------------------------------------------

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The full transcript so far (OpenAI chat format)."""
        return self._messages

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The OpenAI tool schemas shown in this episode."""
        return self._tools

    @property
    def episode(self) -> Episode | None:
        return self._episode

    def record(self, agent: str = "") -> dict[str, Any]:
        """The trajectory record of the current episode."""
        if self._episode is None:
            raise ResetNeeded("no episode yet")
        return self._episode.record(agent=agent, prompt=self.prompt)
