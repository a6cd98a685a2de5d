"""``ToolMazePool``: many ToolMaze episodes stepped together for batched generation.

Unlike Gymnasium's Sync/Async vector envs it never autoresets and steps only the
envs given an action, because LLM episodes end at different times and one
batched ``generate`` call should serve exactly the live episodes. Per-env
``messages`` (OpenAI wire format), ``template_messages`` (arguments as dicts, for
``apply_chat_template``) and ``tools`` are exposed; ``cut`` ends an episode from
outside and ``record`` gives its grade as one plain dict.

    pool = gym.make_vec("ToolMaze-C3P4-v0", 8, max_steps=20)
    obs, infos = pool.reset(seed=0)               # env i plays suite task i of C3
    while pool.live:
        batch = pool.batch(template=True)         # [(i, messages, tools), ...]
        texts = generate(batch)                   # one batched model call
        obs, rewards, term, trunc, infos = pool.step({i: t for (i, _, _), t in
                                                      zip(batch, texts)})
    grades = [pool.record(i)["grade"] for i in range(pool.num_envs)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Tuple
from gymnasium.vector import AutoresetMode, VectorEnv
from toolmaze_gym.envs.registration import make_env

Actions = Mapping[int, str | None] | Sequence[str | None]
_DTYPES = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64)}


class ToolMazePool(VectorEnv):
    """``num_envs`` independent ToolMaze envs; see the module docstring.

    Extra keyword arguments go to every env (``split``, ``prompt``, ``reward``,
    ``max_steps``, …). ``max_episode_steps`` (Gymnasium's name, which ``gym.make_vec``
    passes on) is accepted as another name for ``max_steps``; giving both with
    different values is refused, so the episode length is never chosen silently.
    """

    metadata = {"autoreset_mode": AutoresetMode.DISABLED, "render_modes": ["ansi"]}

    def __init__(self, num_envs: int, level: str | None = "C1", mode: str | None = "P0",
                 max_episode_steps: int | None = None, **kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_episode_steps is not None:
            given = kwargs.setdefault("max_steps", max_episode_steps)
            if given != max_episode_steps:
                raise ValueError(f"max_steps={given} and max_episode_steps="
                                 f"{max_episode_steps} disagree; pass only max_steps")
        self.envs = [make_env(level, mode, **kwargs) for _ in range(num_envs)]
        self._bases = [e.unwrapped for e in self.envs]
        self.num_envs = num_envs
        self.render_mode = kwargs.get("render_mode")
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = Tuple([self.single_observation_space] * num_envs)
        self.action_space = Tuple([self.single_action_space] * num_envs)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._truncated = np.zeros(num_envs, dtype=bool)
        self._started = np.zeros(num_envs, dtype=bool)

    # -- subsets ------------------------------------------------------------------------

    def _indices(self, indices: Sequence[int] | None) -> list[int]:
        """Checked env indices: ints (NumPy's too) in 0..num_envs-1, each once. A float,
        text or bool is refused rather than coerced (``int("1")``, ``int(1.9)``), and a
        negative index is never Python's count from the end (env -1 is no env)."""
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, str | bytes) or not isinstance(indices, Sequence | np.ndarray):
            raise TypeError(f"env indices must be a sequence of ints, got {indices!r}")
        odd = [i for i in indices if isinstance(i, bool) or not isinstance(i, int | np.integer)]
        if odd:
            raise TypeError(f"env indices must be ints, got {odd[:3]!r}")
        idx = [int(i) for i in indices]
        bad = [i for i in idx if not 0 <= i < self.num_envs]
        if bad:
            raise IndexError(f"env indices {bad} out of range 0..{self.num_envs - 1}")
        if len(set(idx)) != len(idx):
            raise ValueError(f"env indices {idx} repeat an index")
        return idx

    @property
    def live(self) -> list[int]:
        """Indices of envs whose episode is running."""
        return [i for i in range(self.num_envs)
                if self._started[i] and not (self._terminated[i] or self._truncated[i])]

    # -- API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[tuple[str, ...], dict[str, Any]]:
        """Reset all envs, or only ``options["indices"]``; the others keep their episode
        (their observation is ``""`` and their info entries are masked out).

        ``seed`` may be an int (env ``i`` gets ``seed + i``, as in Gymnasium) or one seed
        per reset env; on the reference suite seed ``k`` is task ``k`` of the level, so
        ``reset(seed=0)`` on ``n`` envs plays tasks 0..n-1. ``options["task_ids"]`` may
        give one task id per reset env. Other options go to every reset env.
        """
        options = dict(options or {})
        idx = self._indices(options.pop("indices", None))
        task_ids = options.pop("task_ids", None)
        if isinstance(seed, int | np.integer):
            seeds: list[int | None] = [int(seed) + i for i in idx]
        elif seed is None:
            seeds = [None] * len(idx)
        elif isinstance(seed, Sequence) and not isinstance(seed, str | bytes):
            seeds = list(seed)  # each env's reset checks its own
        else:
            raise ValueError(f"reset(seed=...) takes an int, one seed per reset env, or None, "
                             f"got {seed!r}")
        if len(seeds) != len(idx) or (task_ids is not None and len(task_ids) != len(idx)):
            raise ValueError("need one seed (and task id) per reset env")
        obs = [""] * self.num_envs
        items = []
        for k, i in enumerate(idx):
            opts = options if task_ids is None else {**options, "task_id": task_ids[k]}
            obs[i], info = self.envs[i].reset(seed=seeds[k], options=opts)
            self._started[i] = True
            self._terminated[i] = self._truncated[i] = False
            items.append((i, info))
        return tuple(obs), self._batch_infos(items)

    def step(self, actions: Actions) -> tuple[tuple[str, ...], np.ndarray, np.ndarray,
                                              np.ndarray, dict[str, Any]]:
        """Step the envs given an action: a mapping ``{i: text}``, or a sequence of
        ``num_envs`` entries with ``None`` for idle envs (``None`` in a mapping is idle
        too). Envs that are idle, ended or never reset are not stepped: their
        observation is ``"[]"``, their reward 0, and ``terminated``/``truncated`` give
        their episode's state."""
        if isinstance(actions, Mapping):
            self._indices(list(actions))
            todo = {int(i): a for i, a in actions.items() if a is not None}
        elif isinstance(actions, str | bytes) or not isinstance(actions, Sequence):
            # a str is a Sequence too: "abcd" would send one character to each of 4 envs
            raise TypeError("actions must be a mapping {index: text} or a list of "
                            f"{self.num_envs} texts (None for idle envs), got "
                            f"{type(actions).__name__}")
        else:
            if len(actions) != self.num_envs:
                raise ValueError(f"expected {self.num_envs} actions (None for idle envs)")
            todo = {i: a for i, a in enumerate(actions) if a is not None}
        obs = ["[]"] * self.num_envs
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        items = []
        started, term, trunc, envs = self._started, self._terminated, self._truncated, self.envs
        for i, action in todo.items():
            if not started[i] or term[i] or trunc[i]:
                continue
            obs[i], rewards[i], term[i], trunc[i], info = envs[i].step(action)
            items.append((i, info))
        return tuple(obs), rewards, term.copy(), trunc.copy(), self._batch_infos(items)

    def _batch_infos(self, items: list[tuple[int, dict[str, Any]]],
                     masks: dict[tuple[int, ...], np.ndarray] | None = None) -> dict[str, Any]:
        """Gymnasium's vector-info layout (``infos[key][i]`` with a ``_key`` mask, dicts
        nested), built once per call rather than env by env. A key whose values are not
        all of one of bool/int/float gets an object array, so nothing is cast silently
        (Gymnasium's own batching turns a ``None`` after a bool into ``False``)."""
        n = self.num_envs
        masks = {} if masks is None else masks
        keys: dict[str, None] = {}
        for _, info in items:
            keys.update(dict.fromkeys(info))
        out: dict[str, Any] = {}
        for key in keys:
            present = [(i, info[key]) for i, info in items if key in info]
            first = present[0][1]
            kind = type(first)
            if kind is dict and all(type(v) is dict for _, v in present):
                out[key] = self._batch_infos(present, masks)
            else:
                dtype = _DTYPES.get(kind)
                if dtype is not None and all(type(v) is kind for _, v in present):
                    array = np.zeros(n, dtype=dtype)
                else:
                    array = np.empty(n, dtype=object)
                for i, v in present:
                    array[i] = v
                out[key] = array
            idx = tuple(i for i, _ in present)
            mask = masks.get(idx)
            if mask is None:
                mask = masks[idx] = np.zeros(n, dtype=np.bool_)
                mask[list(idx)] = True
            out[f"_{key}"] = mask.copy()
        return out

    # -- for batched generation ------------------------------------------------------------

    def messages(self, i: int) -> list[dict[str, Any]]:
        """Env ``i``'s full transcript (OpenAI chat format)."""
        (i,) = self._indices([i])
        return self._bases[i].messages

    def template_messages(self, i: int) -> list[dict[str, Any]]:
        """Env ``i``'s transcript with tool-call arguments as dicts (for HF chat templates)."""
        (i,) = self._indices([i])
        return self._bases[i].template_messages

    def tools(self, i: int) -> list[dict[str, Any]]:
        """Env ``i``'s tool schemas (OpenAI format)."""
        (i,) = self._indices([i])
        return self._bases[i].tools

    def batch(self, template: bool = False
              ) -> list[tuple[int, list[dict[str, Any]], list[dict[str, Any]]]]:
        """(index, messages, tools) for every live env: one generate call's inputs.

        ``template=True`` gives the messages with tool-call arguments as dicts, the shape
        Hugging Face chat templates take; the default is the OpenAI wire format.
        """
        bases = self._bases
        if template:
            return [(i, bases[i].template_messages, bases[i].tools) for i in self.live]
        return [(i, bases[i].messages, bases[i].tools) for i in self.live]

    def base(self, i: int) -> Any:
        """Env ``i`` itself (the ``ToolMazeEnv`` under its wrappers), for what only it
        knows, such as its episode's steps and fault profile."""
        (i,) = self._indices([i])
        return self._bases[i]

    def record(self, i: int, agent: str = "") -> dict[str, Any]:
        """Env ``i``'s trajectory record, graded: ``record(i)["grade"]`` is the grade as
        one plain dict (the vector infos spread it over masked arrays)."""
        (i,) = self._indices([i])
        return self._bases[i].record(agent)

    def cut(self, i: int, reason: str) -> dict[str, Any]:
        """End env ``i``'s running episode from outside (``ToolMazeEnv.cut``): it counts
        as truncated, leaves ``live``, and its final info (with ``grade``) is returned."""
        (i,) = self._indices([i])
        if not self._started[i]:
            raise ValueError(f"env {i} has no episode to cut; reset it first")
        info = self._bases[i].cut(reason)
        self._truncated[i] = True
        return info

    def render(self) -> tuple[str | None, ...]:
        return tuple(e.render() for e in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for e in self.envs:
            e.close()
