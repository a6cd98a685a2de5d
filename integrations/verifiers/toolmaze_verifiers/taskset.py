"""ToolMaze tasks as a verifiers taskset: one row per (task, fault mode, prompt).

A row carries what the env shows an agent at ``reset`` (the system prompt with the
world's clock, worded for native tool calling since the harness hands the model the
MCP tools; the user's request) and what names the episode (level, mode, split,
seed, prompt variant, suite), so any process can rebuild the same episode: the rollout's
tool server (``toolset.py``) to play it, the task's scoring to grade it (``replay.py``).
The reward is the env's own episode return; ``success`` and the other grade fields are
metrics, and ``trace.info["toolmaze"]`` keeps the whole grade.

With ``urls`` (running ToolMaze MCP servers, ``toolmaze serve``), each rollout plays on
one of them: the task's ``setup`` takes the next server in turn (per process, over all
rollouts, so repeats of one row go to different servers) and writes it into the row the
rollout's tool server is handed (``server``), which keeps it for the whole episode.
Scoring is the same replay either way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from pydantic import field_validator

from toolmaze_gym.faults import MODES
from toolmaze_gym.prompts import NATIVE, PROMPTS
from toolmaze_gym.serving import EpisodeChoice, Session
from toolmaze_gym.serving.urls import server_urls
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import SPLITS, SUITE_NAME
from toolmaze_verifiers.replay import ENDING_TOOLS, replay
from toolmaze_verifiers.toolset import ToolMazeToolset

MAX_STEPS = 25
SUITE_SIZE = 100  # tasks per level in the reference suite


class ToolMazeData(vf.TaskData):
    """One episode: the opening the env gives, and the choice that rebuilds it."""

    task_id: str
    level: str
    mode: str
    split: str = "suite"
    seed: int = 0
    prompt_variant: str = "standard"
    suite: str = SUITE_NAME
    server: str | None = None
    """The ToolMaze server this rollout plays on (set by ``ToolMazeTask.setup``), or
    none: the episode runs in the rollout's tool server."""


class ToolMazeTaskConfig(vf.TaskConfig):
    tools: vf.ToolsetConfig = vf.ToolsetConfig()
    urls: list[str] = []
    """ToolMaze servers to play on, taken in turn (``ToolMazeConfig.urls``)."""


_TURNS: dict[tuple[str, ...], Iterator[int]] = {}


def next_server(urls: list[str]) -> str:
    """The next of ``urls`` in turn: one count per URL list, shared by every rollout
    this process starts."""
    turn = _TURNS.setdefault(tuple(urls), itertools.count())
    return urls[next(turn) % len(urls)]


class ToolMazeTask(vf.Task[ToolMazeData, vf.State, ToolMazeTaskConfig]):
    """Plays through :class:`ToolMazeToolset`, scored by ToolMaze's grader."""

    @property
    def key(self) -> str:
        d = self.data
        return f"{d.task_id}:{d.mode}:{d.prompt_variant}"

    @classmethod
    def toolsets(cls, config: ToolMazeTaskConfig) -> list[vf.Toolset]:
        return [ToolMazeToolset(config.tools)]

    async def setup(self, trace: vf.Trace, runtime: Any = None) -> None:
        """Pin the rollout to its server: verifiers hands the toolset ``trace.task.data``
        (``toolsets`` runs several times per rollout, ``setup`` once)."""
        if self.config.urls:
            trace.task.data = trace.task.data.model_copy(
                update={"server": next_server(self.config.urls)})

    @vf.stop
    async def episode_over(self, trace: vf.Trace) -> bool:
        """The env has ended the episode (an ending call answered, or the step limit):
        another model turn could change nothing."""
        calls = [c for m in trace.assistant_messages for c in m.tool_calls or ()]
        answered = {m.tool_call_id for m in trace.tool_messages}
        ended = any(c.name in ENDING_TOOLS and c.id in answered for c in calls)
        return ended or len(calls) >= MAX_STEPS

    @vf.reward(weight=1.0)
    async def toolmaze_reward(self, trace: vf.Trace) -> float:
        """The episode's return in the env (``toolmaze_gym.reward``, the env's default)."""
        return graded(self.data, trace)["reward"]

    @vf.metric
    async def grade(self, trace: vf.Trace) -> dict[str, float]:
        """The grade's numbers: success, exposure, recovery, calls, replay agreement."""
        out = graded(self.data, trace)
        g = out["grade"]
        metrics = {"success": float(g["success"]), "exposed": float(g["exposed"]),
                   "calls": float(g["c"]), "replay_match": out["replay_match"]}
        if g["recovered"] is not None:
            metrics["recovered"] = float(g["recovered"])
        return metrics


def graded(data: ToolMazeData, trace: vf.Trace) -> dict[str, Any]:
    """The replayed grade of ``trace``, computed once and kept in ``trace.info``."""
    if "toolmaze" not in trace.info:
        trace.info["toolmaze"] = replay(data, trace.messages, MAX_STEPS)
    return trace.info["toolmaze"]


def _choices(value: str, allowed: tuple[str, ...], what: str) -> list[str]:
    """``all`` or a comma-separated list, each checked; a one-line error otherwise."""
    items = list(allowed) if value.strip().lower() == "all" else [
        v.strip().upper() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        raise ValueError(f"unknown {what} {', '.join(bad) or value!r}; use all or "
                         f"a comma list of {', '.join(allowed)}")
    return items


class ToolMazeConfig(vf.TasksetConfig):
    """``--env.taskset.level C2 --env.taskset.mode P1,P2 --env.taskset.n 10``."""

    level: str = "all"
    """Levels, ``all`` or a comma list of C1..C4."""
    mode: str = "all"
    """Fault modes, ``all`` or a comma list of P0..P4."""
    split: str = "suite"
    """``suite`` (the reference suite), ``train`` or ``dev`` (procedural tasks)."""
    n: int = 10
    """Tasks per level (the first ``n`` of the suite's order, or procedural seeds 0..n-1)."""
    prompt: str = "standard"
    """``standard`` or ``failure_aware`` (its hint applies under P1-P4 only, as in eval)."""
    urls: list[str] = []
    """Running ToolMaze MCP servers (``toolmaze serve``), e.g. ``http://127.0.0.1:8765``:
    the rollouts are spread over them in turn, each played on one; empty: in process."""
    task: ToolMazeTaskConfig = ToolMazeTaskConfig()

    @field_validator("urls", mode="before")
    @classmethod
    def _urls(cls, v: Any) -> list[str]:
        if v is None or v == [] or v == "":
            return []
        return list(server_urls(v, "ToolMaze server"))

    @field_validator("level")
    @classmethod
    def _level(cls, v: str) -> str:
        return ",".join(_choices(v, LEVELS, "level"))

    @field_validator("mode")
    @classmethod
    def _mode(cls, v: str) -> str:
        return ",".join(_choices(v, tuple(MODES), "mode"))

    @field_validator("prompt")
    @classmethod
    def _prompt(cls, v: str) -> str:
        if v not in PROMPTS:
            raise ValueError(f"unknown prompt {v!r}; use {', '.join(PROMPTS)}")
        return v

    @field_validator("split")
    @classmethod
    def _split(cls, v: str) -> str:
        if v not in ("suite", *SPLITS):
            raise ValueError(f"unknown split {v!r}; use suite, {', '.join(SPLITS)}")
        return v

    @field_validator("n")
    @classmethod
    def _n(cls, v: int) -> int:
        if v < 1:
            raise ValueError("n must be at least 1")
        return v


class ToolMazeTaskset(vf.Taskset[ToolMazeTask, ToolMazeConfig]):
    """Rows in order level, mode, seed; each opened once through the env to read its
    opening (the same reset the rollout's tool server will make)."""

    def load(self) -> Iterator[ToolMazeTask]:
        cfg = self.config
        if cfg.split == "suite" and cfg.n > SUITE_SIZE:
            raise ValueError(f"the reference suite has {SUITE_SIZE} tasks per level; "
                             f"n={cfg.n} asks for more")
        task_config = cfg.task.model_copy(update={"urls": cfg.urls}) if cfg.urls else cfg.task
        for level in cfg.level.split(","):
            for mode in cfg.mode.split(","):
                for seed in range(cfg.n):
                    yield ToolMazeTask(self._data(level, mode, seed), task_config)

    def _data(self, level: str, mode: str, seed: int) -> ToolMazeData:
        choice = EpisodeChoice(split=self.config.split, seed=seed, level=level, mode=mode,
                               prompt=self.config.prompt).checked()
        opening = Session(choice, calling=NATIVE).opening  # the harness sends MCP tools
        return ToolMazeData(id=f"{opening['task_id']}:{mode}", name=opening["task_id"],
                            prompt=opening["request"], system_prompt=opening["system_prompt"],
                            task_id=opening["task_id"], level=level, mode=mode,
                            split=choice.split, seed=seed, prompt_variant=choice.prompt)
