"""``openai``: any OpenAI-compatible chat-completions endpoint as a ToolMaze policy.

vLLM, SGLang, llama.cpp's server and hosted APIs all speak this protocol. The
episode's messages go out as they are (OpenAI wire format) with the task's tool
schemas as native ``tools``; a reply with ``tool_calls`` comes back to the env as
the OpenAI ``tool_calls`` JSON it parses (the env plays one call per step, the
first), and plain content is the final answer. With ``seed``, each episode sends
its own seed (the policy's seed and the episode key, which names the repeat), so
``--repeats`` samples differently per repeat and reproducibly where the endpoint
honours seeds; without it the endpoint's own randomness applies.

Failures of the *endpoint* and ToolMaze's injected faults never mix: faults
arrive inside ``tool`` messages of the conversation and go to the model like any
tool result, while the endpoint's own HTTP 408/409/429/5xx answers and lost
connections are retried with exponential backoff (honouring ``Retry-After``)
by the ``openai`` client, up to ``max_retries`` times.

What ``act_many`` does when the endpoint misbehaves:

* a malformed reply (not JSON, no ``choices``, no message) is requested again,
  with the same backoff, up to ``max_retries`` times; if it stays malformed the
  turn returns :data:`MALFORMED_REPLY`-prefixed text, a broken call attempt that
  the env answers with a 400 observation, so the run goes on and the episode
  shows what happened (``usage["endpoint_errors"]`` counts these);
* a reply saying the prompt is longer than the model's context raises
  :class:`~toolmaze_gym.agents.policy.ContextOverflow` for those episodes;
* anything else that survives the retries (authentication, unknown model, an
  endpoint that stays down) raises :class:`EndpointError`: retrying a run whose
  endpoint is unusable would only fill it with failed episodes.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym.agents.policy import (
    ContextOverflow,
    EpisodeBook,
    Turn,
    episode_seed,
    new_usage,
)
from toolmaze_gym.tasks.model import Task

OPENAI_URL = "https://api.openai.com/v1"
MALFORMED_REPLY = "<tool_call>malformed endpoint reply"
_CONTEXT_HINTS = ("context length", "context_length", "maximum context", "context window",
                  "too many tokens", "prompt is too long")


class EndpointError(RuntimeError):
    """The endpoint failed in a way retrying does not fix; ``keys`` are the turns
    that got no reply."""

    def __init__(self, message: str, keys: list[str]) -> None:
        super().__init__(message)
        self.keys = keys


class _Malformed(Exception):
    """A 2xx reply that is not a usable chat completion."""


class _TooLong(Exception):
    """The endpoint says the prompt exceeds the model's context."""


@dataclass
class _Episode:
    tools: list[dict[str, Any]]
    usage: dict[str, Any] = field(default_factory=lambda: {**new_usage(),
                                                           "endpoint_errors": 0})
    # A reply already received (and counted) in a call that then raised for other
    # episodes: (message count, text), handed out when the runner asks again.
    pending: tuple[int, str] | None = None
    seed: int | None = None  # sent with every request of the episode


class OpenAIPolicy:
    """See the module docstring. ``model`` may be omitted when the endpoint serves
    exactly one model (vLLM, SGLang, llama.cpp): it is read from ``/models``."""

    name = "openai"
    OPTIONS = ("model", "base_url", "api_key_env", "temperature", "max_tokens",
               "concurrency", "timeout", "max_retries", "seed")

    def __init__(self, model: str | None = None, base_url: str | None = None,
                 api_key_env: str = "OPENAI_API_KEY", temperature: float = 1.0,
                 max_tokens: int = 1024, concurrency: int = 8, timeout: float = 120.0,
                 max_retries: int = 6, seed: int | None = None) -> None:
        _check(temperature, max_tokens, concurrency, timeout, max_retries, seed)
        try:
            import openai
        except ImportError:
            raise ValueError("policy 'openai' needs the openai package: "
                             "pip install 'toolmaze-gym[llm]'") from None
        self.openai = openai
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL)
        key = os.environ.get(api_key_env, "")
        if not key and self.base_url.rstrip("/") == OPENAI_URL:
            raise ValueError(f"policy 'openai': set ${api_key_env} to call {OPENAI_URL} "
                             "(local servers need no key)")
        # Local servers ignore the key, but the client insists on one.
        self.client = openai.OpenAI(base_url=self.base_url, api_key=key or "none",
                                    timeout=timeout, max_retries=max_retries)
        self.temperature, self.max_tokens, self.seed = temperature, max_tokens, seed
        self.concurrency, self.max_retries = concurrency, max_retries
        self.model = model or self._only_model()
        self.model_id = self.model
        self.episodes = EpisodeBook(f"policy 'openai' ({self.model})")

    def _only_model(self) -> str:
        try:
            ids = [m.id for m in self.client.models.list()]
        except self.openai.OpenAIError as exc:
            raise ValueError(f"policy 'openai': no model given and {self.base_url}/models "
                             f"could not be read ({exc}); pass model=...") from None
        if len(ids) != 1:
            raise ValueError(f"policy 'openai': no model given and {self.base_url} serves "
                             f"{len(ids)} models ({', '.join(ids[:10])}); pass model=...")
        return ids[0]

    # -- Policy ----------------------------------------------------------------------

    def start(self, key: str, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        seed = None if self.seed is None else episode_seed(self.seed, key)
        self.episodes.open(key, _Episode(list(tools), seed=seed))

    def act_many(self, turns: list[Turn]) -> list[str]:
        episodes = [self.episodes.get(key) for key, _ in turns]
        workers = max(1, min(self.concurrency, len(turns)))
        with ThreadPoolExecutor(workers) as pool:
            futures = [pool.submit(self._turn, ep, messages)
                       for ep, (_, messages) in zip(episodes, turns, strict=True)]
            results = [f.exception() or f.result() for f in futures]
        for ep, (_, messages), r in zip(episodes, turns, results, strict=True):
            ep.pending = None if isinstance(r, BaseException) else (len(messages), r)
        overflow = [key for (key, _), r in zip(turns, results, strict=True)
                    if isinstance(r, _TooLong)]
        if overflow:
            raise ContextOverflow(overflow, {}, 0)
        failed = [(key, r) for (key, _), r in zip(turns, results, strict=True)
                  if isinstance(r, BaseException)]
        if failed:
            key, exc = failed[0]
            raise EndpointError(f"policy 'openai': {self.base_url} failed for "
                                f"{len(failed)} turn(s), e.g. {key!r}: {exc}",
                                [k for k, _ in failed]) from exc
        for ep in episodes:
            ep.pending = None
        return [str(r) for r in results]

    def finish(self, key: str) -> dict[str, Any]:
        return self.episodes.close(key).usage

    # -- one turn ----------------------------------------------------------------------

    def _turn(self, ep: _Episode, messages: list[dict[str, Any]]) -> str:
        if ep.pending is not None and ep.pending[0] == len(messages):
            return ep.pending[1]
        request = self._request(ep, messages)
        for attempt in range(self.max_retries + 1):
            try:
                text = self._complete(ep, request)
                break
            except _Malformed as exc:
                ep.usage["endpoint_errors"] += 1
                if attempt == self.max_retries:
                    text = f"{MALFORMED_REPLY}: {exc}</tool_call>"
                else:
                    time.sleep(min(0.5 * 2 ** attempt, 8.0))
        ep.usage["turns"] += 1
        ep.usage["raw"].append(text)
        return text

    def _request(self, ep: _Episode, messages: list[dict[str, Any]]) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.model, "messages": wire_messages(messages),
                                   "temperature": self.temperature,
                                   "max_tokens": self.max_tokens}
        if ep.tools:
            request["tools"] = ep.tools
        if ep.seed is not None:  # per episode: repeats sample differently, reruns alike
            request["seed"] = ep.seed
        return request

    def _complete(self, ep: _Episode, request: dict[str, Any]) -> str:
        openai = self.openai
        try:
            reply = self.client.chat.completions.create(**request)
        except openai.BadRequestError as exc:
            if any(h in str(exc).lower() for h in _CONTEXT_HINTS):
                raise _TooLong(str(exc)) from exc
            raise
        except (openai.APIResponseValidationError, json.JSONDecodeError, ValueError) as exc:
            raise _Malformed(f"unreadable response ({type(exc).__name__})") from exc
        choices = getattr(reply, "choices", None)
        if not isinstance(choices, list) or not choices or choices[0].message is None:
            raise _Malformed("no choices in the response")
        usage = getattr(reply, "usage", None)
        if usage is not None:
            ep.usage["prompt_tokens"] += int(getattr(usage, "prompt_tokens", 0) or 0)
            ep.usage["completion_tokens"] += int(getattr(usage, "completion_tokens", 0) or 0)
        return reply_text(choices[0].message)


def reply_text(message: Any) -> str:
    """The raw action text for an assistant message: its ``tool_calls`` as the OpenAI
    JSON the env parses, else its content (the final answer), else a refusal."""
    calls = getattr(message, "tool_calls", None)
    if calls:
        return json.dumps({"tool_calls": [_call(c) for c in calls]}, ensure_ascii=False)
    content = getattr(message, "content", None)
    if content:
        return str(content)
    return str(getattr(message, "refusal", None) or "")


def _call(call: Any) -> dict[str, Any]:
    fn = getattr(call, "function", None)
    return {"id": getattr(call, "id", None), "type": "function",
            "function": {"name": getattr(fn, "name", None),
                         "arguments": getattr(fn, "arguments", None)}}


def wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` as strict endpoints accept them: a ``tool`` message that answers
    no preceding tool call (the env's reply to an unparseable action) becomes a user
    message, since OpenAI rejects a tool result without its call."""
    out, open_ids = [], set()
    for m in messages:
        if m.get("role") == "assistant":
            open_ids = {c.get("id") for c in m.get("tool_calls") or ()}
        if m.get("role") == "tool" and m.get("tool_call_id") not in open_ids:
            out.append({"role": "user",
                        "content": f"[{m.get('name') or 'tool'} response] {m.get('content')}"})
            continue
        out.append(m)
    return out


def _check(temperature: float, max_tokens: int, concurrency: int, timeout: float,
           max_retries: int, seed: int | None) -> None:
    def bad(what: str, value: Any) -> ValueError:
        return ValueError(f"policy 'openai': {what}, got {value!r}")

    if not isinstance(temperature, int | float) or not 0 <= temperature <= 2:
        raise bad("temperature must be a number in [0, 2]", temperature)
    for name, value in (("max_tokens", max_tokens), ("concurrency", concurrency)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise bad(f"{name} must be a positive integer", value)
    if not isinstance(timeout, int | float) or timeout <= 0:
        raise bad("timeout must be a positive number of seconds", timeout)
    if not isinstance(max_retries, int) or max_retries < 0:
        raise bad("max_retries must be a non-negative integer", max_retries)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise bad("seed must be an integer (or omitted)", seed)
