"""``ToolMazePool``: many ToolMaze episodes stepped together for batched generation.

Unlike Gymnasium's Sync/Async vector envs it never autoresets and steps only the
envs given an action, because LLM episodes end at different times and one
batched ``generate`` call should serve exactly the live episodes. Per-env
``messages`` and ``tools`` are exposed for ``apply_chat_template``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Tuple
from gymnasium.vector import AutoresetMode, VectorEnv
from toolmaze_gym.envs.registration import make_env

Actions = Mapping[int, str] | Sequence[str | None]


class ToolMazePool(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.DISABLED, "render_modes": ["ansi"]}

    def __init__(self, num_envs: int, level: str | None = "C1", mode: str | None = "P0",
                 max_episode_steps: int | None = None, **kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_episode_steps is not None:
            kwargs["max_steps"] = max_episode_steps
        self.envs = [make_env(level, mode, **kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = Tuple([self.single_observation_space] * num_envs)
        self.action_space = Tuple([self.single_action_space] * num_envs)
        self._done = [True] * num_envs

    # -- subsets ------------------------------------------------------------------------

    def _indices(self, indices: Sequence[int] | None) -> list[int]:
        idx = list(range(self.num_envs)) if indices is None else [int(i) for i in indices]
        bad = [i for i in idx if not 0 <= i < self.num_envs]
        if bad:
            raise IndexError(f"env indices {bad} out of range 0..{self.num_envs - 1}")
        return idx

    @property
    def live(self) -> list[int]:
        """Indices of envs whose episode is running."""
        return [i for i, d in enumerate(self._done) if not d]

    # -- API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[tuple[str, ...], dict[str, Any]]:
        """Reset all envs, or ``options["indices"]``; others keep their episode.

        ``seed`` may be an int (env i gets seed + i) or one seed per reset env;
        ``options["task_ids"]`` may give one task id per reset env.
        """
        options = dict(options or {})
        idx = self._indices(options.pop("indices", None))
        task_ids = options.pop("task_ids", None)
        if isinstance(seed, int):
            seeds: list[int | None] = [seed + k for k in range(len(idx))]
        elif seed is None:
            seeds = [None] * len(idx)
        else:
            seeds = list(seed)
        if len(seeds) != len(idx) or (task_ids is not None and len(task_ids) != len(idx)):
            raise ValueError("need one seed (and task id) per reset env")
        obs = [""] * self.num_envs
        infos: dict[str, Any] = {}
        for k, i in enumerate(idx):
            opts = dict(options)
            if task_ids is not None:
                opts["task_id"] = task_ids[k]
            obs[i], info = self.envs[i].reset(seed=seeds[k], options=opts)
            self._done[i] = False
            infos = self._add_info(infos, info, i)
        return tuple(obs), infos

    def step(self, actions: Actions) -> tuple[tuple[str, ...], np.ndarray, np.ndarray,
                                              np.ndarray, dict[str, Any]]:
        """Step the envs given an action (a mapping, or None for an idle env)."""
        if isinstance(actions, Mapping):
            todo = {int(i): a for i, a in actions.items()}
        else:
            if len(actions) != self.num_envs:
                raise ValueError(f"expected {self.num_envs} actions (None for idle envs)")
            todo = {i: a for i, a in enumerate(actions) if a is not None}
        self._indices(list(todo))
        obs = ["[]"] * self.num_envs
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for i in range(self.num_envs):
            ep = self.envs[i].unwrapped.episode
            terminated[i] = bool(ep and ep.ended)
            truncated[i] = bool(ep and ep.truncated)
        for i, action in todo.items():
            if self._done[i]:
                continue
            obs[i], rewards[i], terminated[i], truncated[i], info = self.envs[i].step(action)
            self._done[i] = bool(terminated[i] or truncated[i])
            infos = self._add_info(infos, info, i)
        return tuple(obs), rewards, terminated, truncated, infos

    # -- for batched generation ------------------------------------------------------------

    def messages(self, i: int) -> list[dict[str, Any]]:
        return self.envs[i].unwrapped.messages

    def tools(self, i: int) -> list[dict[str, Any]]:
        return self.envs[i].unwrapped.tools

    def batch(self) -> list[tuple[int, list[dict[str, Any]], list[dict[str, Any]]]]:
        """(index, messages, tools) for every live env: one generate call's inputs."""
        return [(i, self.messages(i), self.tools(i)) for i in self.live]

    def record(self, i: int, agent: str = "") -> dict[str, Any]:
        return self.envs[i].unwrapped.record(agent)

    def render(self) -> tuple[str | None, ...]:
        return tuple(e.render() for e in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for e in self.envs:
            e.close()
