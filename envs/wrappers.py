"""``PerturbationWrapper``: put any perturbation mode on any ToolMaze env."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym

from toolmaze_gym.faults import get_mode


class PerturbationWrapper(gym.Wrapper[str, str, str, str], gym.utils.RecordConstructorArgs):
    """Every episode of the wrapped env runs under ``mode`` (P0–P4, or NP).

    The outermost choice wins: a ``reset(options={"mode": ...})`` overrides this
    wrapper, and this wrapper overrides any mode set further in (the registered ids
    already carry one), so ``PerturbationWrapper(gym.make("ToolMaze-C1P0-v0"), "P2")``
    runs P2.
    """

    def __init__(self, env: gym.Env[str, str], mode: str) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, mode=mode)
        gym.Wrapper.__init__(self, env)
        self.mode = get_mode(mode).name

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        if options is not None and not isinstance(options, Mapping):
            return self.env.reset(seed=seed, options=options)  # the env says what is wrong
        return self.env.reset(seed=seed, options={"mode": self.mode, **(options or {})})
