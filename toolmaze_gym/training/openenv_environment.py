"""TRL's ``environment_factory`` over the ToolMaze OpenEnv server instead of an
in-process env, as TRL documents for OpenEnv environments (a class whose ``reset``
and tool methods talk to the environment's client).

:func:`over_openenv` turns the factories of :func:`~toolmaze_gym.training.environment.
grpo_dataset` into classes with the same tool methods, docstrings and rows, whose
episodes run on the server (``toolmaze serve --protocol openenv``): the same prompts,
the same tool catalogue (checked against the server's listing at every reset), and
the same reward, computed here with the class's own weights from the reward inputs
the server reports at the end (the grade, the named-tool and valid-call shares, the
path progress and the repeated calls: ``training.environment.reward_inputs``). Closing
prose goes to the server as the agent's plain reply and a budget-cut episode is cut
there, as the in-process adapter does in the env. Tools never raise: a server error
comes back to the model as a JSON error string.

One trainer may play on several servers (replicas on other machines, or
``toolmaze serve --workers N`` on one): given a list of URLs, the environments are
spread over them in turn as TRL creates them (one per rollout slot), and each keeps
its server for good, so a session never leaves the process that holds it.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from toolmaze_gym.serving.urls import server_urls
from toolmaze_gym.training.environment import (
    ENDED,
    NOT_STARTED,
    ToolMazeEnvironment,
    reward_from,
)


class OpenEnvEpisodes:
    """The mixin that moves a :class:`ToolMazeEnvironment`'s episode to one of the
    servers at ``base_urls`` (the next in turn, shared by every class of one
    :func:`over_openenv` call); put it first: ``type(name, (OpenEnvEpisodes, cls),
    {...})``."""

    base_urls: ClassVar[tuple[str, ...]] = ("http://127.0.0.1:8000",)
    _turn: ClassVar[Iterator[int]] = itertools.count()

    def __init__(self) -> None:
        super().__init__()
        self.base_url = self.base_urls[next(self._turn) % len(self.base_urls)]
        self._client: Any = None
        self._running = False
        self._started = False
        self._inputs: dict[str, Any] | None = None

    def reset(self, task: str | dict[str, Any] | None = None, task_id: str | None = None,
              split: str | None = None, seed: int | None = None, level: str | None = None,
              mode: str = "P0", prompt_variant: str = "standard", **_: Any) -> str:
        """Start the row's episode on the server; returns the user's request."""
        client = self._connection()
        given = {"task": task if task is None or isinstance(task, str) else json.dumps(task),
                 "task_id": None if task is not None else task_id, "split": split,
                 "seed": seed, "level": level, "mode": mode, "prompt": prompt_variant}
        obs = client.reset(**{k: v for k, v in given.items() if v is not None}).observation
        if getattr(obs, "error", None):
            raise ValueError(f"the OpenEnv server refused the row: {obs.error}")
        names = tuple(t["function"]["name"] for t in obs.tool_schemas)
        if self.tool_names and set(names) != set(self.tool_names):
            raise ValueError(f"task {obs.task_id} offers other tools than {type(self).__name__}")
        self._running, self._started, self._inputs = True, True, None
        return obs.request

    def get_reward(self) -> float:
        if not self._started:
            return 0.0
        if self._running:
            self._step("", {"cut": "tool budget"})
        return reward_from(self._reward_inputs(), self.partial_credit, self.reward_config)

    # -- helpers ----------------------------------------------------------------------

    def _connection(self) -> Any:
        if self._client is None:
            from toolmaze_gym.openenv import ToolMazeEnv

            self._client = ToolMazeEnv(base_url=self.base_url).sync()
            self._client.connect()
        return self._client

    def _episode_over(self) -> bool:
        return not self._running

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if not self._started:
            return NOT_STARTED
        if not self._running:
            return ENDED
        return self._step(name, arguments)

    def _step(self, name: str, arguments: dict[str, Any]) -> str:
        from openenv.core.env_server.mcp_types import CallToolAction

        result = self._client.step(CallToolAction(tool_name=name, arguments=arguments))
        obs = result.observation
        if obs.error is not None:
            return json.dumps({"error": {"code": 409, "type": "server_error",
                                         "message": obs.error.message}})
        self._running = not result.done
        return obs.result["data"]

    def _end_with_text(self, text: str) -> None:
        if self._started and self._running:
            self._step("", {"text": text})

    def _reward_inputs(self) -> dict[str, Any]:
        if self._inputs is None:
            self._inputs = self._client.state().reward_inputs
        return self._inputs

    @property
    def trajectory(self) -> dict[str, Any] | None:
        """The server's view of the episode (task, steps, grade) once it ended."""
        if not self._started:
            return None
        state = self._client.state()
        return {"task_id": state.task_id, "mode": state.mode, "steps": state.step_count,
                "grade": state.grade}


def over_openenv(factories: dict[str, type[ToolMazeEnvironment]],
                 base_url: str | Sequence[str]) -> dict[str, type[ToolMazeEnvironment]]:
    """The same factories (same names, tools and settings) playing on ``base_url``: a
    server's URL, or several (a list, or one string with commas), taken in turn."""
    urls = server_urls(base_url)
    shared = {"base_urls": urls, "_turn": itertools.count()}
    return {key: type(cls.__name__, (OpenEnvEpisodes, cls), dict(shared))
            for key, cls in factories.items()}
