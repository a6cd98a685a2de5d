"""Policies: every agent behind the one interface the evaluation runner drives.

A policy plays many episodes at once, each named by a key the runner chooses
(e.g. ``"C3-017/P4/standard/0"``: task, mode, prompt and repeat index). The runner
calls ``start`` when an episode begins, ``act_many`` with the live episodes'
conversations (one batched model call where batching pays), and ``finish`` when
the episode ends, which frees the episode's state (a KV cache, a scripted agent)
and returns its usage.

Model policies read only the messages and the tool schemas, never the task's
hidden wiring; scripted baselines read the task (their plan), as they always did.

Seeding: a policy that samples (``random``; ``hf`` and ``openai`` with a
temperature above 0) seeds each episode from its own ``seed`` and the episode key
(:func:`episode_seed`; ``hf`` hashes the two with the turn). The key names the
repeat, so the ``--repeats k`` runs of one task play differently (pass^k measures
something) while a rerun with the same seed plays them again exactly. Greedy
policies ignore the seed and stay deterministic.

Context guard: a model policy whose next prompt would not fit the model raises
:class:`ContextOverflow` from ``act_many`` naming the episode keys concerned;
the runner cuts those episodes with reason ``"context"`` and may call
``act_many`` again for the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from toolmaze_gym import hashing
from toolmaze_gym.agents.base import Agent
from toolmaze_gym.tasks.model import Task

Turn = tuple[str, list[dict[str, Any]]]

SCRIPTED_NAMES = ("oracle", "naive", "retry", "validator", "random")
MODEL_NAMES = ("hf", "openai")
POLICY_NAMES = (*SCRIPTED_NAMES, *MODEL_NAMES)


class ContextOverflow(Exception):
    """The next prompt of some episodes exceeds the model's context window.

    Raised by ``act_many`` before generating anything, so no episode has been
    advanced; ``keys`` are the episodes to cut (reason ``"context"``). The
    runner calls ``finish`` on them as usual and retries the remaining turns.
    """

    def __init__(self, keys: list[str], tokens: dict[str, int], limit: int) -> None:
        self.keys = list(keys)
        self.tokens = dict(tokens)
        self.limit = limit
        worst = max(self.tokens.values()) if self.tokens else 0
        super().__init__(f"{len(self.keys)} episode(s) exceed the model's context window "
                         f"({worst} > {limit} tokens): {', '.join(self.keys)}")


@runtime_checkable
class Policy(Protocol):
    """What the runner drives; see the module docstring."""

    name: str

    def start(self, key: str, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        """Begin episode ``key`` with the tool schemas shown to the agent."""

    def act_many(self, turns: list[Turn]) -> list[str]:
        """One raw action text per (episode key, full OpenAI message list) turn."""

    def finish(self, key: str) -> dict[str, Any]:
        """Free episode ``key`` and return its usage: ``prompt_tokens``,
        ``completion_tokens``, ``turns`` and ``raw`` (the texts returned)."""


def episode_seed(seed: int, key: str) -> int:
    """The seed of episode ``key`` for a policy seeded with ``seed``: a stable hash of
    both, so every episode (every repeat) draws its own numbers, reproducibly."""
    return hashing.digest("policy-episode", seed, key) % (1 << 31)


def new_usage() -> dict[str, Any]:
    """The usage dict ``finish`` returns, before any turn."""
    return {"prompt_tokens": 0, "completion_tokens": 0, "turns": 0, "raw": []}


class EpisodeBook:
    """Per-episode state keyed by the runner's episode key, with a clear error for a
    key that was never started (or already finished): that is a runner bug, and
    silently starting a fresh episode would hide it."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.items: dict[str, Any] = {}

    def open(self, key: str, state: Any) -> None:
        if key in self.items:
            raise ValueError(f"{self.owner}: episode {key!r} is already running; "
                             "finish it before starting it again")
        self.items[key] = state

    def get(self, key: str) -> Any:
        try:
            return self.items[key]
        except KeyError:
            raise KeyError(f"{self.owner}: no running episode {key!r}; "
                           "call start() first") from None

    def close(self, key: str) -> Any:
        state = self.get(key)
        del self.items[key]
        return state


class ScriptedPolicy:
    """Adapts the one-episode ``Agent`` interface (``reset``/``act``) to ``Policy``:
    one fresh agent per episode key, so concurrent episodes never share plan state.
    ``factory(key)`` builds the agent for episode ``key`` (a sampling agent takes its
    seed from it)."""

    def __init__(self, name: str, factory: Callable[[str], Agent]) -> None:
        self.name = name
        self.model_id = name  # what a report shows; model policies name their model
        self.factory = factory
        self.episodes = EpisodeBook(f"policy {name!r}")

    def start(self, key: str, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        agent = self.factory(key)
        agent.reset(task, tools, mode)
        self.episodes.open(key, (agent, new_usage()))

    def act_many(self, turns: list[Turn]) -> list[str]:
        out = []
        for key, messages in turns:
            agent, usage = self.episodes.get(key)
            text = agent.act(messages)
            usage["turns"] += 1
            usage["raw"].append(text)
            out.append(text)
        return out

    def finish(self, key: str) -> dict[str, Any]:
        _, usage = self.episodes.close(key)
        return usage


def _scripted(name: str, options: dict[str, Any]) -> ScriptedPolicy:
    from toolmaze_gym.agents.random_policy import RandomAgent
    from toolmaze_gym.agents.scripted import SCRIPTED
    from toolmaze_gym.corpus import Simulator

    allowed = {"sim", "seed"} if name == "random" else {"sim"}
    _check_options(name, options, allowed)
    # one simulator for every episode of the policy (building one per agent is waste)
    sim = options.get("sim") or Simulator()
    if name == "random":
        seed = options.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"policy 'random': seed must be an integer, got {seed!r}")
        return ScriptedPolicy(name, lambda key: RandomAgent(sim, seed=episode_seed(seed, key)))
    cls = SCRIPTED[name]
    return ScriptedPolicy(name, lambda key: cls(sim))


def _check_options(name: str, options: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(f"policy {name!r} takes no option(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted(allowed)) or 'none'}")


def make_policy(name: str, **options: Any) -> Policy:
    """Build a policy by name.

    Scripted (``oracle``, ``naive``, ``retry``, ``validator``, ``random``): ``sim``
    (a ``Simulator``; default a fresh one), and ``seed`` for ``random``.
    ``hf``: ``model`` (a local checkpoint directory, or None for the embedded
    SmolLM2-135M-Instruct), ``compact_tools``, ``max_new_tokens``, ``temperature``,
    ``seed``, ``device``. ``openai``: ``model``, ``base_url``, ``api_key_env``,
    ``temperature``, ``max_tokens``, ``concurrency``, ``timeout``.

    Raises:
        ValueError: an unknown name or option, or an option value out of range.
    """
    if name in SCRIPTED_NAMES:
        return _scripted(name, dict(options))
    if name == "hf":
        from toolmaze_gym.agents.hf import HFPolicy

        _check_options(name, options, set(HFPolicy.OPTIONS))
        return HFPolicy(**options)
    if name == "openai":
        from toolmaze_gym.agents.openai_policy import OpenAIPolicy

        _check_options(name, options, set(OpenAIPolicy.OPTIONS))
        return OpenAIPolicy(**options)
    raise ValueError(f"unknown policy {name!r}; choose from {', '.join(POLICY_NAMES)}")
