"""``hf``: a local transformers causal LM as a ToolMaze policy.

The prompt is the episode's conversation rendered by a tool-capable chat
template (the model's own when it renders ``tool_calls``, else TRL's ChatML
``qwen2_5.jinja`` for ChatML models such as SmolLM2), with the tool schemas as
the template's JSON ``<tools>`` block or, with ``compact_tools``, as compact
text in the system prompt (same facts, far fewer tokens). The reply is returned
as raw text; the env parses it.

Speed. On CPU, prefill of the long prompt dominates and batching long prompts
is slower than one at a time, so episodes run one by one and each keeps its KV
cache between turns: the conversation only grows, so only the tokens added
since the last turn are encoded. The cached token ids are compared with the new
prompt's and the cache is cropped to the longest common prefix (the template
may render the model's own reply differently from how it was generated), so
reuse never changes what the model sees. On CUDA, turns are batched in one
left-padded ``generate`` (``batch_size``), without cache reuse.

Strict calls (``strict_calls``): each reply is constrained to one call of a tool
the episode shows, with arguments valid for its schema, in the template's
``<tool_call>`` markup (``toolmaze_gym.agents.strict_calls``); the grammar is
compiled once per tool set. Reports name such runs ``<label> (strict)``.

Greedy decoding by default (reproducible); ``temperature > 0`` samples, seeded
per episode key and turn. A prompt that would not fit the model's window with
``max_new_tokens`` to spare raises :class:`ContextOverflow` (see
``toolmaze_gym.agents.policy``).
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.agents.conversation import with_tool_docs
from toolmaze_gym.agents.models import default_model_dir, tool_chat_template
from toolmaze_gym.agents.policy import ContextOverflow, EpisodeBook, Turn, new_usage
from toolmaze_gym.agents.strict_calls import FREE_TEXT_CHARS, StrictCalls
from toolmaze_gym.agents.threads import configure_cpu_threads
from toolmaze_gym.optional import HF_STACK, require_all
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.transcript import template_messages
from toolmaze_gym.values.numbers import is_number


def _usage() -> dict[str, Any]:
    """The usage ``finish`` returns: the common keys, plus the first turn's prompt
    length, the tokens actually encoded (prompt tokens not served from the KV cache)
    and the longest prompt (how close the episode came to the window)."""
    return {**new_usage(), "first_prompt_tokens": 0, "encoded_tokens": 0,
            "max_prompt_tokens": 0}


@dataclass
class _Episode:
    tools: list[dict[str, Any]]
    usage: dict[str, Any] = field(default_factory=_usage)
    cache: Any = None  # a transformers Cache holding ``cached_ids``
    cached_ids: list[int] = field(default_factory=list)


class HFPolicy:
    """See the module docstring. ``model``: a local checkpoint directory, or None for
    the embedded SmolLM2-135M-Instruct (converted and cached on first use)."""

    name = "hf"
    OPTIONS = ("model", "compact_tools", "brief_tools", "max_new_tokens", "temperature",
               "top_p", "seed", "device", "batch_size", "kv_reuse", "cached_episodes",
               "strict_calls", "free_text_chars")

    def __init__(self, model: str | Path | None = None, compact_tools: bool = False,
                 max_new_tokens: int = 256, temperature: float = 0.0, seed: int = 0,
                 device: str | None = None, batch_size: int | None = None,
                 kv_reuse: bool = True, cached_episodes: int = 8,
                 top_p: float | None = None, brief_tools: bool = False,
                 strict_calls: bool = False, free_text_chars: int = FREE_TEXT_CHARS) -> None:
        _check(max_new_tokens, temperature, seed, batch_size, top_p)
        if not isinstance(strict_calls, bool):
            raise ValueError(f"policy 'hf': strict_calls must be true or false, "
                             f"got {strict_calls!r}")
        if not isinstance(cached_episodes, int) or cached_episodes < 1:
            raise ValueError(f"policy 'hf': cached_episodes must be a positive integer, "
                             f"got {cached_episodes!r}")
        if "torch" not in sys.modules:
            configure_cpu_threads()
        require_all(HF_STACK, "policy 'hf'")  # one line naming the pip command, not a trace
        import torch

        self.torch = torch
        self.path = _model_path(model)
        self.model_id = self.path.name
        self.device = _device(torch, device)
        self.compact_tools, self.kv_reuse = bool(compact_tools), bool(kv_reuse)
        self.brief_tools = bool(brief_tools)
        self.max_new_tokens, self.temperature, self.seed = max_new_tokens, temperature, seed
        self.top_p = top_p
        self.batch_size = batch_size or (16 if self.device.type == "cuda" else 1)
        self.tokenizer, self.model = _load(self.path, self.device)
        self.template = _tool_template(self.tokenizer, self.path)
        self.limit = int(getattr(self.model.config, "max_position_embeddings", 0) or 1 << 30)
        self.stop_ids = _stop_ids(self.tokenizer, self.model)
        self.cache_kw = _cache_keyword()
        self.episodes = EpisodeBook(f"policy 'hf' ({self.model_id})")
        self.cached_episodes = cached_episodes
        self._cached: OrderedDict[str, None] = OrderedDict()  # keys holding a cache, LRU
        self.strict_calls = strict_calls
        self.strict = StrictCalls(self.tokenizer, _logits_width(self.model), self.stop_ids,
                                  free_text_chars) if strict_calls else None

    # -- Policy ----------------------------------------------------------------------

    def start(self, key: str, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        self.episodes.open(key, _Episode(list(tools)))

    def act_many(self, turns: list[Turn]) -> list[str]:
        prompts = [(key, self.prompt_ids(key, messages)) for key, messages in turns]
        over = {key: len(ids) for key, ids in prompts
                if len(ids) + self.max_new_tokens > self.limit}
        if over:
            raise ContextOverflow(list(over), over, self.limit)
        if self.batch_size > 1 and len(prompts) > 1:
            return [text for k in range(0, len(prompts), self.batch_size)
                    for text in self._batched(prompts[k:k + self.batch_size])]
        return [self._single(key, ids) for key, ids in prompts]

    def finish(self, key: str) -> dict[str, Any]:
        self._cached.pop(key, None)
        return self.episodes.close(key).usage

    # -- prompts -----------------------------------------------------------------------

    def prompt_text(self, key: str, messages: list[dict[str, Any]]) -> str:
        """The exact text the model is given for this turn."""
        msgs, tools = with_tool_docs(messages, self.episodes.get(key).tools,
                                     self.compact_tools, self.brief_tools)
        return self.tokenizer.apply_chat_template(template_messages(msgs), tools=tools,
                                                  tokenize=False,
                                                  add_generation_prompt=True,
                                                  chat_template=self.template)

    def prompt_ids(self, key: str, messages: list[dict[str, Any]]) -> list[int]:
        text = self.prompt_text(key, messages)
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    # -- generation --------------------------------------------------------------------

    def _single(self, key: str, ids: list[int]) -> str:
        """One episode's turn, reusing its KV cache for the common token prefix."""
        torch = self.torch
        ep: _Episode = self.episodes.get(key)
        reused = _common_prefix(ep.cached_ids, ids) if ep.cache is not None else 0
        reused = min(reused, len(ids) - 1)  # the model must see at least one new token
        if reused > 0:
            ep.cache.crop(reused - ep.cache.get_seq_length())
            cache = ep.cache
        else:
            cache = None
        ep.cache, ep.cached_ids = None, []  # dropped on failure, never reused stale
        input_ids = torch.tensor([ids], device=self.device)
        self._seed(key, ep.usage["turns"])
        with torch.inference_mode():
            out = self.model.generate(input_ids, attention_mask=torch.ones_like(input_ids),
                                      **{self.cache_kw: cache}, **self._generation([key]))
        seq = out.sequences[0].tolist()
        if self.kv_reuse:
            ep.cache = getattr(out, self.cache_kw)
            ep.cached_ids = seq[:ep.cache.get_seq_length()]
            self._keep(key)
        return self._record(ep, ids, seq[len(ids):], len(ids) - reused)

    def _keep(self, key: str) -> None:
        """Mark ``key``'s cache most recently used; drop the least recently used ones
        beyond ``cached_episodes`` (SmolLM2 holds ~46 kB per token: 140 MB at 3k)."""
        self._cached[key] = None
        self._cached.move_to_end(key)
        while len(self._cached) > self.cached_episodes:
            old, _ = self._cached.popitem(last=False)
            ep = self.episodes.get(old)
            ep.cache, ep.cached_ids = None, []

    def _batched(self, prompts: list[tuple[str, list[int]]]) -> list[str]:
        """Several episodes' turns in one left-padded ``generate`` (pays on GPUs)."""
        torch = self.torch
        batch = self.tokenizer.pad({"input_ids": [ids for _, ids in prompts]},
                                   padding_side="left", return_tensors="pt").to(self.device)
        self._seed(prompts[0][0], self.episodes.get(prompts[0][0]).usage["turns"])
        with torch.inference_mode():
            out = self.model.generate(**batch, **self._generation([k for k, _ in prompts]))
        width = batch["input_ids"].shape[1]
        texts = []
        for row, (key, ids) in enumerate(prompts):
            ep: _Episode = self.episodes.get(key)
            ep.cache, ep.cached_ids = None, []
            self._cached.pop(key, None)
            texts.append(self._record(ep, ids, out.sequences[row, width:].tolist(), len(ids)))
        return texts

    def _generation(self, keys: list[str]) -> dict[str, Any]:
        """``generate``'s settings for a turn of the episodes ``keys`` (one batch)."""
        kwargs: dict[str, Any] = {
            "max_new_tokens": self.max_new_tokens, "do_sample": self.temperature > 0,
            "eos_token_id": self.stop_ids, "pad_token_id": self.tokenizer.pad_token_id,
            "return_dict_in_generate": True}
        if self.temperature > 0:  # plain temperature sampling, as chat APIs do
            kwargs.update(temperature=self.temperature, top_k=0,
                          top_p=1.0 if self.top_p is None else self.top_p)
        if self.strict is not None:
            kwargs["logits_processor"] = self._constraint(keys)
        return kwargs

    def _constraint(self, keys: list[str]) -> Any:
        """The strict-calls processor of one batch: each row held to its episode's tools."""
        from transformers import LogitsProcessorList

        assert self.strict is not None
        return LogitsProcessorList([self.strict.batch_processor(
            [self.episodes.get(k).tools for k in keys], budget=self.max_new_tokens)])

    @property
    def sampling(self) -> dict[str, Any]:
        """The sampling settings every turn uses, as run.json and records show them
        (``top_p`` None: not restricted; ``seed`` only matters when sampling)."""
        return {"temperature": self.temperature, "top_p": self.top_p, "seed": self.seed,
                "max_tokens": self.max_new_tokens}

    def _seed(self, key: str, turn: int) -> None:
        if self.temperature > 0:
            self.torch.manual_seed(hashing.digest("hf-policy", self.seed, key, turn) % (1 << 63))

    def _record(self, ep: _Episode, ids: list[int], new: list[int], encoded: int) -> str:
        """Account the turn in the episode's usage and return the reply text."""
        while new and new[-1] in [*self.stop_ids, self.tokenizer.pad_token_id]:
            new.pop()
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        u = ep.usage
        if u["turns"] == 0:
            u["first_prompt_tokens"] = len(ids)
        u["turns"] += 1
        u["prompt_tokens"] += len(ids)
        u["completion_tokens"] += len(new)
        u["encoded_tokens"] += encoded
        u["max_prompt_tokens"] = max(u["max_prompt_tokens"], len(ids))
        u["raw"].append(text)
        return text


def _check(max_new_tokens: int, temperature: float, seed: int, batch_size: int | None,
           top_p: float | None) -> None:
    if top_p is not None and (not is_number(top_p) or not 0 < top_p <= 1):
        raise ValueError(f"policy 'hf': top_p must be a number in (0, 1], got {top_p!r}")
    if not isinstance(max_new_tokens, int) or max_new_tokens < 1:
        raise ValueError(f"policy 'hf': max_new_tokens must be a positive integer, "
                         f"got {max_new_tokens!r}")
    if not isinstance(temperature, int | float) or not 0 <= temperature <= 5:
        raise ValueError(f"policy 'hf': temperature must be a number in [0, 5] "
                         f"(0 = greedy), got {temperature!r}")
    if not isinstance(seed, int):
        raise ValueError(f"policy 'hf': seed must be an integer, got {seed!r}")
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise ValueError(f"policy 'hf': batch_size must be a positive integer, "
                         f"got {batch_size!r}")


def _device(torch: Any, device: str | None) -> Any:
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError):
        raise ValueError(f"policy 'hf': device {device!r} is not a torch device "
                         "(e.g. 'cpu', 'cuda', 'cuda:1')") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"policy 'hf': device {device!r} asked for, but torch sees no GPU")
    return dev


def _model_path(model: str | Path | None) -> Path:
    if model is None:
        return default_model_dir()
    path = Path(model).expanduser()
    if not (path / "config.json").is_file():
        raise ValueError(f"policy 'hf': model {str(model)!r} is not a local transformers "
                         "checkpoint directory (no config.json); models are never "
                         "downloaded, give a directory or omit it for the embedded SmolLM2")
    return path


def _load(path: Path, device: Any) -> tuple[Any, Any]:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device)
    model.eval()
    return tokenizer, model


def _tool_template(tokenizer: Any, path: Path) -> str:
    """The model's own template if it renders tool calls, else TRL's ChatML one for
    ChatML vocabularies; a model with neither cannot see its own tool calls."""
    own = tokenizer.chat_template
    if isinstance(own, str) and "tool_calls" in own:
        return own
    if "<|im_start|>" in tokenizer.get_vocab():
        return tool_chat_template()
    raise ValueError(f"policy 'hf': the chat template of {path} does not render tool calls "
                     "and the model does not use ChatML tokens; give a checkpoint whose "
                     "tokenizer_config.json has a tool-capable chat_template")


def _logits_width(model: Any) -> int:
    """The width of the model's logits (the vocabulary it scores, which may exceed the
    tokenizer's)."""
    head = model.get_output_embeddings()
    return int(getattr(head, "out_features", 0) or model.config.vocab_size)


def _stop_ids(tokenizer: Any, model: Any) -> list[int]:
    ids = model.generation_config.eos_token_id
    ids = [] if ids is None else [ids] if isinstance(ids, int) else list(ids)
    for token in (tokenizer.eos_token, "<|im_end|>"):
        tid = tokenizer.convert_tokens_to_ids(token) if token else None
        if isinstance(tid, int) and tid != tokenizer.unk_token_id and tid not in ids:
            ids.append(tid)
    return ids


def _cache_keyword() -> str:
    """``generate``'s name for a reusable cache: ``cache`` in recent transformers (the
    old ``past_key_values`` is deprecated there), ``past_key_values`` before."""
    import dataclasses

    from transformers.generation.utils import GenerateDecoderOnlyOutput

    names = {f.name for f in dataclasses.fields(GenerateDecoderOnlyOutput)}
    return "cache" if "cache" in names else "past_key_values"


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
