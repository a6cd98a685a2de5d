"""``ToolMazeEnv``: a ToolMaze task as a Gymnasium environment.

Observation and action are strings: the observation is the JSON list of the new
chat messages (OpenAI format), the action is the raw model text (a dict or list in
OpenAI ``tool_calls`` shape, as chat clients return it, is accepted too). The env owns an
``Episode`` (simulator state, fault engine, trajectory) and grades it at the end;
the reward is a pure function of the grade (plus optional potential-based shaping).

Nothing an agent sends makes ``step`` raise: malformed text, wrong types, unknown
tools and oversized payloads all come back as realistic error observations.

The episode length has one knob, ``max_steps`` (default 25): the env truncates and
grades the last step itself, so every episode that ends carries ``info["grade"]``.
The ids are registered without Gymnasium's ``max_episode_steps``, whose outer
``TimeLimit`` would cut episodes without a grade. A runner can also end an episode
from outside with ``cut(reason)`` (context overflow, loop guard), graded like a
truncation and recorded with its reason.

On the reference suite, ``reset(seed=k)`` plays task ``k`` (mod the level's task
count) in suite order, and a later ``reset()`` without a seed plays the next one, so
seeds 0..99 (or one seed and 99 plain resets) walk a level exactly once. The first
``reset()`` of an env never seeded starts at a task drawn from the env's ``np_random``
(Gymnasium seeds it from fresh entropy, as for any env never seeded), so unseeded copies
in a vector env do not all play task 0 in lockstep; seed it to reproduce the walk.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.error import ResetNeeded
from toolmaze_gym.envs.reset_options import ResetOptions, check_options, check_seed
from toolmaze_gym.envs.spaces import BoundedText
from toolmaze_gym.reward import DEFAULT, RewardConfig, potential, terminal_reward

from toolmaze_gym.actions import MAX_ACTION_CHARS
from toolmaze_gym.corpus import Simulator, load_corpus
from toolmaze_gym.episode import ENDINGS, MAX_STEPS, Episode
from toolmaze_gym.faults import MODE_NAMES, get_mode
from toolmaze_gym.faults.profiles import FaultProfile
from toolmaze_gym.faults.store import playable_profile, profile_for
from toolmaze_gym.grading import remaining_optimal
from toolmaze_gym.prompts import PROMPTS, TEXT, check_calling, opening_messages
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suite import (
    SPLITS,
    SUITE_NAME,
    SuiteError,
    get_task,
    load_suite,
    suite_of,
    suite_signatures,
)
from toolmaze_gym.tasks.suites import kind as suite_kind
from toolmaze_gym.transcript import append_step, episode_tools, template_messages
from toolmaze_gym.world import get_world

MAX_OBSERVATION_CHARS = 1 << 20
CELLS = tuple(f"{lv}{m}" for lv in LEVELS for m in MODE_NAMES)
# An assistant message longer than this (only a rejected, over-long action can be)
# is echoed cut, so one huge action cannot blow up the observation or the prompt.
MAX_ECHO_CHARS = MAX_ACTION_CHARS
PROCEDURAL_TRIES = 16


@cache
def shared_simulator(world_seed: int = 0) -> Simulator:
    """One simulator per world: it holds only compiled validators, so envs share it."""
    return Simulator(load_corpus(), get_world(world_seed))


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_ENCODE_ASCII = json.JSONEncoder().encode


def _dumps(obj: Any) -> str:
    """JSON text that is also valid UTF-8 (lone surrogates escaped, not emitted raw)."""
    text = _ENCODE(obj)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _ENCODE_ASCII(obj)
    return text


class ToolMazeEnv(gym.Env[str, str]):
    """One ToolMaze episode per ``reset``; see the module docstring.

    Args:
        level: ``C1``–``C4``, or None to sample it per episode (with ``curriculum``).
        mode: ``P0``–``P4`` (``NP`` = ``P0``), or None to sample it per episode.
        split: ``"suite"`` (the reference suite) or a procedural split (``"train"``,
            ``"dev"``) of the same kind (scenarios for toolmaze-v15), disjoint from it.
        suite: the reference suite (default ``toolmaze-v15``; ``toolmaze-v1`` to
            ``toolmaze-v3`` for old runs). A ``task_id`` that names a shipped suite
            (``tmz-v3-...``) is played from that suite, with its fault profiles.
        prompt: ``"standard"`` or ``"failure_aware"`` system prompt.
        calling: ``"text"`` (the model writes its calls as text; default) or ``"native"``
            (the tools travel in the request): how the system prompt says to call tools.
        reward: reward weights and shaping (``toolmaze_gym.reward.RewardConfig``).
        max_steps: the env truncates (and grades) after this many steps (default 25).
        curriculum: weights per cell, e.g. ``{"C1P0": 3, "C3P4": 1}``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, level: str | None = "C1", mode: str | None = "P0", split: str = "suite",
                 suite: str = SUITE_NAME, prompt: str = "standard",
                 reward: RewardConfig | None = None, max_steps: int = MAX_STEPS,
                 curriculum: Mapping[str, float] | None = None, render_mode: str | None = None,
                 world_seed: int = 0, calling: str = TEXT) -> None:
        self.calling = check_calling(calling)
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        if mode is not None:
            mode = get_mode(mode).name
        if split not in ("suite", *SPLITS):
            raise ValueError(f"unknown split {split!r}; choose from suite, {', '.join(SPLITS)}")
        if split != "suite":
            try:
                self._kind = suite_kind(suite)
            except SuiteError as exc:
                raise ValueError(f"split {split!r}: {exc}") from None
        if prompt not in PROMPTS:
            raise ValueError(f"unknown prompt {prompt!r}; choose from {', '.join(PROMPTS)}")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) \
                or max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}")
        self.level, self.mode, self.split, self.suite = level, mode, split, suite
        self.prompt, self.reward_cfg, self.max_steps = prompt, reward or DEFAULT, int(max_steps)
        self.render_mode = render_mode
        self.curriculum = self._curriculum(curriculum)
        self.observation_space = BoundedText(MAX_OBSERVATION_CHARS)
        self.action_space = BoundedText(MAX_ACTION_CHARS)
        self.sim = shared_simulator(world_seed)
        self._episode: Episode | None = None
        self._messages: list[dict[str, Any]] = []
        self._tools: list[dict[str, Any]] = []
        self._phi = 0.0  # potential of the current state (shaping)
        self._start_cost = 0  # fewest steps needed at the start (shaping)
        self._next_index: int | None = None  # suite position of the next seedless reset
        self._cum = list(itertools.accumulate(self.curriculum[1].tolist()))

    # -- task choice ------------------------------------------------------------------

    def _curriculum(self, weights: Mapping[str, float] | None) -> tuple[list[str], np.ndarray]:
        cells = [c for c in CELLS if (self.level in (None, c[:2]))
                 and (self.mode in (None, c[2:]))]
        if weights is None:
            w = [1.0] * len(cells)
        else:
            unknown = set(weights) - set(cells)
            if unknown:
                raise ValueError(f"curriculum names unknown cells {sorted(unknown)}; "
                                 "use e.g. 'C3P4'")
            w = [float(weights.get(c, 0.0)) for c in cells]
            if min(w) < 0 or sum(w) <= 0:
                raise ValueError("curriculum weights must be non-negative and not all zero")
        p = np.asarray(w, dtype=np.float64)
        return cells, p / p.sum()

    def _cell(self) -> tuple[str, str]:
        cells = self.curriculum[0]
        if len(cells) == 1:
            return cells[0][:2], cells[0][2:]
        # one uniform draw and a bisection: ~20x cheaper than Generator.choice(p=...)
        k = bisect.bisect_right(self._cum, float(self.np_random.random()) * self._cum[-1])
        cell = cells[min(k, len(cells) - 1)]
        return cell[:2], cell[2:]

    def _task(self, level: str, mode: str, options: ResetOptions
              ) -> tuple[Task, FaultProfile]:
        if options.task is not None:
            task = options.task
        elif options.task_id is not None:
            try:
                # an old id (tmz-v3-...) is looked up in the suite it names
                task = get_task(options.task_id, suite_of(options.task_id) or self.suite)
            except SuiteError as exc:
                raise ValueError(f"reset option 'task_id': {exc}") from None
        elif self.split == "suite":
            task = self._suite_task(level)
        else:
            return self._procedural_task(level, mode)
        return task, profile_for(task, mode, self.sim, self.suite)

    def _procedural_task(self, level: str, mode: str) -> tuple[Task, FaultProfile]:
        """A procedural task of the suite's kind, fully determined by reset(seed), never
        equal to a task of the suite, on which ``mode``'s fault can be played (a v7
        task may have no node an implicit fault can fall on: the next index is tried)."""
        index = int(self.np_random.integers(1 << 30))
        for k in range(PROCEDURAL_TRIES):
            # a prime stride: retries never meet v1's own index + k attempts
            task = self._kind.procedural_task(level, index + 7919 * k, self.split, self.sim,
                                              skip=suite_signatures(self.suite))
            profile = playable_profile(task, mode, self.sim)
            if profile is not None:
                return task, profile
        raise SuiteError(f"no {level} task playable in {mode} near index {index} "
                         f"(split {self.split})")

    def _suite_task(self, level: str) -> Task:
        """The task at the env's suite position, then step the position on by one."""
        tasks = load_suite(self.suite, [level])
        k = self._next_index
        if k is None:  # never seeded: start somewhere drawn from np_random
            k = int(self.np_random.integers(len(tasks)))
        self._next_index = k + 1
        return tasks[k % len(tasks)]

    # -- Gymnasium API ------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode.

        ``seed``: on the reference suite, task ``seed`` (mod the level's task count) in
        suite order; a later reset without a seed takes the next task.
        ``options``: ``task_id`` (a suite task), ``task`` (a ``Task`` or its dict),
        ``level`` / ``mode`` (override this episode's cell).

        Raises:
            ValueError: a seed that is not a non-negative int, or an option of the wrong
                kind (one line naming it). The env is then left without an episode, so a
                ``step`` raises ``ResetNeeded`` before doing anything.
        """
        self._episode = None  # a failed reset leaves nothing half-started to step
        seed = check_seed(seed)
        opts = check_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self._next_index = seed
        level, mode = self._cell()
        mode = opts.mode or mode
        task, profile = self._task(opts.level or level, mode, opts)
        self._episode = Episode(task, mode, self.sim, profile, max_steps=self.max_steps)
        self._messages = opening_messages(task, self.prompt, self.sim.world.now, self.calling)
        self._tools = episode_tools(task, self.sim)
        self._phi = 0.0  # shaping measures progress from here
        if self.reward_cfg.shaping:
            self._start_cost = remaining_optimal(self.sim.corpus, task, profile, [])
        info = {"task_id": task.id, "level": task.level, "mode": mode, "prompt": self.prompt,
                "tools": self._tools}
        return _dumps(self._messages), info

    def step(self, action: str | dict[str, Any] | list[Any]
             ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        ep = self._episode
        if ep is None:
            raise ResetNeeded("call reset() before step()")
        if ep.done:
            return "[]", 0.0, ep.ended, ep.truncated, {"warning": "episode already ended"}
        step = ep.step(action)
        k = len(ep.steps) - 1
        before = len(self._messages)
        append_step(self._messages, ep, k)
        if len(step.raw) > MAX_ECHO_CHARS:
            self._cut_echo(before)
        obs = _dumps(self._messages[before:])
        ended = step.kind in ENDINGS
        truncated = not ended and len(ep.steps) >= ep.max_steps
        reward = self._shaping(ended or truncated)
        info: dict[str, Any] = {"step": len(ep.steps)}
        if step.status is not None:  # endings have none; a None would break vector infos
            info["status"] = step.status
        if ended or truncated:
            reward += self._close(info)
        return obs, float(reward), ended, truncated, info

    def cut(self, reason: str) -> dict[str, Any]:
        """End the running episode from outside, without an agent action.

        For a runner whose model ran out of context, looped, or failed: the episode is
        graded like a truncation (never like the agent's own ending) and its record
        carries ``"cut": reason``. Returns the final info: ``step``, ``grade``,
        ``cut``, and ``reward`` (what the last ``step`` would have added).

        Raises:
            ResetNeeded: no episode has started.
            ValueError: ``reason`` is empty, or the episode has already ended.
        """
        ep = self._episode
        if ep is None:
            raise ResetNeeded("call reset() before cut()")
        ep.cut(reason)
        info: dict[str, Any] = {"step": len(ep.steps), "cut": reason}
        info["reward"] = float(self._shaping(True) + self._close(info))
        return info

    def _shaping(self, over: bool) -> float:
        """The shaping term of the step just taken (0 without shaping): γΦ(s') − Φ(s),
        Φ measured from the start and 0 once the episode is ``over``."""
        if not self.reward_cfg.shaping:
            return 0.0
        ep = self._episode
        assert ep is not None
        phi = potential(self.sim.corpus, ep.task, ep.profile, ep.steps, over, self._start_cost)
        term = self.reward_cfg.gamma * phi - self._phi
        self._phi = phi
        return term

    def _close(self, info: dict[str, Any]) -> float:
        """Grade the ended episode into ``info``; returns the terminal reward."""
        ep = self._episode
        assert ep is not None
        g = ep.grade().to_dict()  # kept by the episode: a later record() reuses it
        info["grade"] = g
        return terminal_reward(g, self.reward_cfg)

    def _cut_echo(self, start: int) -> None:
        """Shorten over-long assistant text from ``start`` on (a rejected huge action)."""
        for i in range(start, len(self._messages)):
            m = self._messages[i]
            content = m.get("content")
            if m["role"] == "assistant" and isinstance(content, str) \
                    and len(content) > MAX_ECHO_CHARS:
                self._messages[i] = {**m, "content": content[:MAX_ECHO_CHARS]
                                     + f"…[{len(content) - MAX_ECHO_CHARS} characters cut]"}

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
    def template_messages(self) -> list[dict[str, Any]]:
        """The transcript with tool-call arguments as dicts, ready for a Hugging Face
        chat template (``tokenizer.apply_chat_template(env.template_messages,
        tools=env.tools)``); ``messages`` is the OpenAI wire format."""
        return template_messages(self._messages)

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The OpenAI tool schemas offered in this episode: the task's tools, then the
        reserved ``finish`` and ``abort`` (shared objects: read-only)."""
        return self._tools

    @property
    def episode(self) -> Episode | None:
        return self._episode

    def record(self, agent: str = "") -> dict[str, Any]:
        """The trajectory record of the current episode, graded as it stands: the
        usable form of the grade (``record()["grade"]``), also after an outer
        ``TimeLimit`` cut the episode short; ``"cut"`` holds a ``cut`` reason."""
        if self._episode is None:
            raise ResetNeeded("no episode yet")
        return self._episode.record(agent=agent, prompt=self.prompt)
