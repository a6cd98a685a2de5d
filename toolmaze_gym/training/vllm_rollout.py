"""A TRL ``rollout_func`` that plays ToolMaze episodes over ``ToolMazePool``.

For GPU training with vLLM (``GRPOConfig(use_vllm=True)``, colocate or server):
every live episode's next turn is generated in one batched call to the trainer's
vLLM engine, the pool steps all of them, and the loop repeats until every episode
has ended. Like TRL's own tool loop, a rollout's token sequence is built by
concatenation (prompt + generated tokens + the chat template's rendering of the
tool results and the next assistant header), never by re-tokenising the
conversation, so the log-probabilities stay aligned with what the model
generated; ``env_mask`` marks the tokens the environment wrote (not trained on).

The prompt rows are those of ``toolmaze_gym.training.environment.grpo_dataset``:
a rollout function sees only the prompts, so the user message carries the
episode (task, mode, prompt variant) as JSON under ``"episode"``. The reward is
the one the ``environment_factory`` path gives
(``toolmaze_gym.training.environment.episode_reward``: the partial credit by
default, the terminal reward with ``partial_credit=None``), returned as the extra
column ``toolmaze_reward`` that :func:`rollout_reward` passes to the trainer.

``generate`` is pluggable (``(trainer, token id lists) -> (completion ids,
logprobs)``): the default calls ``trainer.vllm_generation``; tests pass a scripted
stand-in.

Strict calls (``strict_calls=True``, ``grpo_recovery.py --use-vllm --strict-calls``):
each turn is generated under vLLM's structured outputs, every row held to one call of
its own episode's tools by the grammar the ``hf`` agent decodes with
(``toolmaze_gym.agents.strict_calls.call_ebnf``, sent as
``structured_outputs={"grammar": ...}``; vLLM's default backend is xgrammar, the same
library). ``generate`` is then called with ``structured_outputs`` (one per row);
:func:`vllm_generate` makes one engine call per distinct tool set of the turn, since
TRL's ``VLLMGeneration.generate`` applies one set of sampling parameters to a whole
call (its ``generation_kwargs``, which it merges into ``SamplingParams`` in colocate
mode and into the request body in server mode). In server mode with several training
processes each engine call is a collective (TRL gathers the prompts to the main
process), so ranks must make the same number of calls; untested there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from toolmaze_gym.agents.strict_calls import FREE_TEXT_CHARS, call_ebnf
from toolmaze_gym.reward import DEFAULT, PARTIAL, PartialCredit, RewardConfig
from toolmaze_gym.tasks.model import Task

Generate = Callable[..., tuple[list[list[int]], list[list[float]]]]


def structured_outputs(tools: list[dict[str, Any]],
                       free_text_chars: int = FREE_TEXT_CHARS) -> dict[str, str]:
    """vLLM's ``structured_outputs`` for one turn held to one call of ``tools`` (in a
    request body, or ``StructuredOutputsParams(**...)`` for the offline engine)."""
    return {"grammar": call_ebnf(tools, free_text_chars)}


def vllm_generate(trainer: Any, prompts: list[list[int]],
                  structured_outputs: list[dict[str, Any]] | None = None
                  ) -> tuple[list[list[int]], list[list[float]]]:
    """One turn for each prompt with the trainer's vLLM engine (sampled-token logprobs);
    with ``structured_outputs`` (one vLLM ``structured_outputs`` object per prompt) the
    prompts are generated in groups of equal constraints, each group's constraint set
    on the engine's ``generation_kwargs`` for its call and restored after."""
    engine = trainer.vllm_generation
    if structured_outputs is None:
        _, completions, logprobs, _ = engine.generate(prompts=prompts, images=None,
                                                      num_generations=1)
        return completions, [[lp[0] for lp in seq] for seq in logprobs]
    if len(structured_outputs) != len(prompts):
        raise ValueError(f"{len(structured_outputs)} structured outputs for "
                         f"{len(prompts)} prompts")
    if getattr(engine, "structured_outputs_regex", None) is not None:
        raise ValueError("strict calls: GRPOConfig.vllm_structured_outputs_regex is set and "
                         "would take precedence over each row's call grammar; drop it")
    groups: dict[str, list[int]] = {}
    for k, so in enumerate(structured_outputs):
        groups.setdefault(json.dumps(so, sort_keys=True), []).append(k)
    out_ids: list[list[int]] = [[] for _ in prompts]
    out_lps: list[list[float]] = [[] for _ in prompts]
    saved = getattr(engine, "generation_kwargs", None)
    try:
        for members in groups.values():
            engine.generation_kwargs = {**(saved or {}),
                                        "structured_outputs": structured_outputs[members[0]]}
            _, completions, logprobs, _ = engine.generate(
                prompts=[prompts[k] for k in members], images=None, num_generations=1)
            for k, ids, lps in zip(members, completions, logprobs, strict=True):
                out_ids[k], out_lps[k] = list(ids), [lp[0] for lp in lps]
    finally:
        engine.generation_kwargs = saved
    return out_ids, out_lps


def episode_of(prompt: list[dict[str, Any]]) -> dict[str, Any]:
    """The episode a ``grpo_dataset`` prompt stands for (task, mode, prompt variant)."""
    for message in reversed(prompt):
        if message.get("role") == "user" and message.get("episode"):
            spec = json.loads(message["episode"])
            return {"task": Task.from_json(spec["task"]), "mode": spec["mode"],
                    "prompt_variant": spec["prompt_variant"]}
    raise ValueError("prompt carries no episode: build the rows with grpo_dataset()")


class _Rollout:
    """One episode's token bookkeeping."""

    def __init__(self, prompt_ids: list[int]) -> None:
        self.prompt_ids = prompt_ids
        self.completion: list[int] = []
        self.logprobs: list[float] = []
        self.mask: list[int] = []

    def add(self, ids: list[int], logprobs: list[float] | None, generated: bool) -> None:
        self.completion += ids
        self.logprobs += logprobs if logprobs is not None else [0.0] * len(ids)
        self.mask += [int(generated)] * len(ids)

    @property
    def ids(self) -> list[int]:
        return self.prompt_ids + self.completion


def make_rollout_func(max_steps: int = 25, max_completion_tokens: int = 4096,
                      reward: RewardConfig = DEFAULT, generate: Generate = vllm_generate,
                      partial_credit: PartialCredit | None = PARTIAL,
                      strict_calls: bool = False, free_text_chars: int = FREE_TEXT_CHARS
                      ) -> Callable[[list[Any], Any], dict[str, Any]]:
    """A ``rollout_func`` for ``GRPOTrainer``; see the module docstring.

    ``max_completion_tokens`` caps a rollout's completion (generated and tool
    tokens); an episode that reaches it is cut and graded like a truncation.
    ``strict_calls``: every turn held to one call of the episode's tools (the
    module docstring); ``free_text_chars`` caps strings the schemas leave unbounded.
    """
    if not isinstance(strict_calls, bool):
        raise ValueError(f"strict_calls must be true or false, got {strict_calls!r}")
    grammars: dict[str, dict[str, str]] = {}  # one EBNF per tool set, built once

    def constraint(tools: list[dict[str, Any]]) -> dict[str, str]:
        key = json.dumps(tools, sort_keys=True)
        if key not in grammars:
            grammars[key] = structured_outputs(tools, free_text_chars)
        return grammars[key]

    def rollout_func(prompts: list[Any], trainer: Any) -> dict[str, Any]:
        from toolmaze_gym.envs.pool import ToolMazePool
        from toolmaze_gym.training.environment import episode_reward

        tokenizer = trainer.processing_class
        template = getattr(trainer, "chat_template", None)
        episodes = [episode_of(p) for p in prompts]
        pools: dict[str, tuple[Any, list[int]]] = {}
        for k, ep in enumerate(episodes):  # one pool per prompt variant
            pools.setdefault(ep["prompt_variant"], (None, []))[1].append(k)
        rollouts: list[_Rollout | None] = [None] * len(prompts)
        slots: dict[int, tuple[Any, int]] = {}
        for variant, (_, members) in list(pools.items()):
            pool = ToolMazePool(len(members), level=None, mode=None, split="train",
                                prompt=variant, max_steps=max_steps, reward=reward)
            pools[variant] = (pool, members)
            for i, k in enumerate(members):
                pool.reset(options={"indices": [i], "task": episodes[k]["task"],
                                    "mode": episodes[k]["mode"]})
                slots[k] = (pool, i)
                ids = tokenizer.apply_chat_template(
                    pool.template_messages(i), tools=pool.tools(i), add_generation_prompt=True,
                    tokenize=True, return_dict=False, chat_template=template)
                rollouts[k] = _Rollout(list(ids))
        live = [k for k in range(len(prompts))]
        while live:
            prompts_now = [rollouts[k].ids for k in live]
            if strict_calls:
                completions, logprobs = generate(trainer, prompts_now, [
                    constraint(slots[k][0].tools(slots[k][1])) for k in live])
            else:
                completions, logprobs = generate(trainer, prompts_now)
            still = []
            for k, ids, lps in zip(live, completions, logprobs, strict=True):
                pool, i = slots[k]
                ro = rollouts[k]
                ro.add(list(ids), list(lps), generated=True)
                text = tokenizer.decode(ids, skip_special_tokens=True)
                before = len(pool.messages(i))
                pool.step({i: text})
                if i not in pool.live:
                    continue
                tool_messages = [m for m in pool.messages(i)[before:] if m["role"] == "tool"]
                suffix = trainer._get_tool_suffix_ids(tool_messages) if tool_messages else []
                if len(ro.completion) + len(suffix) >= max_completion_tokens:
                    pool.cut(i, "context")
                    continue
                ro.add(suffix, None, generated=False)
                still.append(k)
            live = still
        rewards = []
        for k in range(len(prompts)):
            pool, i = slots[k]
            rewards.append(episode_reward(pool.base(i), partial_credit, reward))
        return {"prompt_ids": [r.prompt_ids for r in rollouts],
                "completion_ids": [r.completion for r in rollouts],
                "logprobs": [r.logprobs for r in rollouts],
                "env_mask": [r.mask for r in rollouts],
                "toolmaze_reward": rewards}

    return rollout_func


def rollout_reward(toolmaze_reward: list[float] | None = None, **_: Any) -> list[float]:
    """The reward function to pair with the rollout function: the graded episodes'
    rewards it returned as the ``toolmaze_reward`` column."""
    if toolmaze_reward is None:
        raise ValueError("rollout_reward needs the toolmaze_reward column of "
                         "make_rollout_func(); pass that as rollout_func")
    return [float(r) for r in toolmaze_reward]
