"""``openai``: any OpenAI-compatible chat-completions endpoint as a ToolMaze policy.

vLLM, SGLang, llama.cpp's server and hosted APIs all speak this protocol. The
episode's messages go out as every model policy shows them
(:mod:`toolmaze_gym.agents.conversation`: the same conversation ``hf`` renders), with
the task's tool schemas as native ``tools`` or, with ``compact_tools``, as compact
text in the system prompt; a reply with ``tool_calls`` comes back to the env as the
OpenAI ``tool_calls`` JSON it parses (the env plays one call per step, the first),
and plain content is the final answer.

Options mean what they say: ``temperature`` and a token budget are always sent,
``top_p`` and ``seed`` whenever given (zero included); :attr:`OpenAIPolicy.sampling`
is what the runner records. The budget goes as ``max_tokens``, except to reasoning
models (OpenAI's o-series and GPT-5, :func:`wants_completion_tokens`), which refuse it
and take ``max_completion_tokens``, and whenever ``max_completion_tokens`` is given;
the record says which field was sent (the other is null). ``extra_body`` (a JSON
object: reasoning effort, vLLM's sampling parameters, a provider's routing) is merged
into every request as it is; it may not set what ToolMaze sends itself. With
``seed``, each episode sends its own seed (the policy's seed and the episode key,
which names the repeat), so ``--repeats`` samples differently per repeat and
reproducibly where the endpoint honours seeds.
A server may ignore both: at a temperature above 0, replies to one prompt from
several episodes (the five modes of a task open alike) that all come back
identical are reported by :meth:`OpenAIPolicy.warnings`.

``base_url`` may name several endpoints serving the same model (one vLLM per
machine): each task's episodes go to one of them, the tasks taken in turn as they
start (deterministic for a given order, and every mode and repeat of a task meets
the same server's prefix cache); ``concurrency`` is per endpoint.

Failures of the *endpoint* and ToolMaze's injected faults never mix: faults arrive
inside ``tool`` messages of the conversation and go to the model like any tool
result, while endpoint trouble is never played as a model's action. The endpoint's
HTTP 408/409/429/5xx answers and lost connections are retried with exponential
backoff (honouring ``Retry-After``) by the ``openai`` client, up to ``max_retries``
times, and a malformed reply (not JSON, no ``choices``) is requested again as often;
a prompt longer than the model's context raises
:class:`~toolmaze_gym.agents.policy.ContextOverflow` for those episodes (a property
of the model, cut per episode). Anything else raises
:class:`~toolmaze_gym.agents.errors.EndpointError`, which stops the run: what
survives the retries (a dead endpoint, a rejected key, an unknown model, a server
that keeps failing, a reply that stays malformed), and a server that silently drops
the tools, seen in its own count of the prompt (``usage.prompt_tokens`` too small to
hold the tool schemas sent: llama.cpp with a chat template that renders no tools).
"""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from toolmaze_gym.agents.conversation import model_messages, with_tool_docs
from toolmaze_gym.agents.errors import EndpointError
from toolmaze_gym.agents.policy import (
    ContextOverflow,
    EpisodeBook,
    Turn,
    episode_seed,
    new_usage,
)
from toolmaze_gym.agents.sampling_check import SamplingCheck
from toolmaze_gym.redact import REDACTED, looks_secret
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.values.numbers import is_number

__all__ = ["EndpointError", "OpenAIPolicy", "model_messages", "reply_text", "wire_messages"]

OPENAI_URL = "https://api.openai.com/v1"
# A tool schema is JSON text: no tokenizer packs more than this many characters of it
# into one token (SmolLM2's packs 3.2-3.4 on the suite's schemas; 8 leaves a wide margin),
# so a prompt counted at fewer tokens than the schemas' characters / this cannot hold them.
# On the suite, that floor is 4.4-11x a first prompt without the tools and 2.7x below one
# with them: a dropped tool list is caught on the first turn, an honest one never is.
MAX_CHARS_PER_TOKEN = 8
_SERVER_ERROR_HINT = ("; a server that fails on one conversation only may be failing to parse "
                      "the model's tool call: --compact-tools lets ToolMaze parse calls instead")
# Reasoning models refuse ``max_tokens`` (HTTP 400) and want ``max_completion_tokens``:
# OpenAI's o-series (o1, o3, o4-mini, ...) and GPT-5, also behind a router's prefix.
_REASONING_MODEL = re.compile(r"(?:.*/)?(?:o\d+|gpt-5)(?:[-.:_].*)?", re.IGNORECASE)
# What ToolMaze sends itself, so ``extra_body`` may not set it (flag to use instead).
_OWN_FIELDS = {"model": "--model", "messages": None, "tools": "--compact-tools",
               "temperature": "--temperature", "top_p": "--top-p", "seed": "--seed",
               "max_tokens": "--max-tokens", "max_completion_tokens": "--max-completion-tokens",
               "n": None, "stream": None}
_CONTEXT_HINTS = ("context length", "context_length", "maximum context", "context window",
                  "too many tokens", "prompt is too long")


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
    endpoint: int = 0  # which of the policy's endpoints serves the episode


class OpenAIPolicy:
    """See the module docstring. ``model`` may be omitted when the endpoint serves
    exactly one model (vLLM, SGLang, llama.cpp): it is read from ``/models`` (of every
    endpoint, which must agree)."""

    name = "openai"
    OPTIONS = ("model", "base_url", "api_key_env", "temperature", "top_p", "max_tokens",
               "max_completion_tokens", "extra_body", "concurrency", "timeout",
               "max_retries", "seed", "compact_tools", "brief_tools")

    def __init__(self, model: str | None = None, base_url: str | list[str] | None = None,
                 api_key_env: str = "OPENAI_API_KEY", temperature: float = 1.0,
                 max_tokens: int | None = None, concurrency: int = 8, timeout: float = 120.0,
                 max_retries: int = 6, seed: int | None = None, top_p: float | None = None,
                 compact_tools: bool = False, brief_tools: bool = False,
                 max_completion_tokens: int | None = None,
                 extra_body: dict[str, Any] | None = None) -> None:
        budget = _budget(max_tokens, max_completion_tokens)
        _check(temperature, budget, concurrency, timeout, max_retries, seed, top_p)
        self.extra_body = _checked_extra_body(extra_body)
        try:
            import openai
        except ImportError:
            raise ValueError("policy 'openai' needs the openai package: "
                             "pip install 'toolmaze-gym[llm]'") from None
        self.openai = openai
        self.base_urls = _endpoints(base_url)
        self.base_url = self.base_urls[0]
        # for messages: no credentials in them
        self.shown_urls = [shown_url(u) for u in self.base_urls]
        self.shown_url = ", ".join(self.shown_urls)
        key = os.environ.get(api_key_env, "")
        if not key and any(u.rstrip("/") == OPENAI_URL for u in self.base_urls):
            raise ValueError(f"policy 'openai': set ${api_key_env} to call {OPENAI_URL} "
                             "(local servers need no key)")
        # Local servers ignore the key, but the client insists on one.
        self.clients = [openai.OpenAI(base_url=u, api_key=key or "none", timeout=timeout,
                                      max_retries=max_retries) for u in self.base_urls]
        self.client = self.clients[0]
        self.task_endpoints: dict[str, int] = {}  # task id -> the endpoint serving it
        self.temperature, self.max_tokens, self.seed = temperature, budget, seed
        self.top_p, self.compact_tools = top_p, bool(compact_tools or brief_tools)
        self.brief_tools = bool(brief_tools)
        self.check = SamplingCheck(temperature)
        self.concurrency, self.max_retries = concurrency, max_retries
        self.model = model or self._only_model()
        self.model_id = self.model
        self.token_field = "max_completion_tokens" if max_completion_tokens is not None \
            or wants_completion_tokens(self.model) else "max_tokens"
        self.episodes = EpisodeBook(f"policy 'openai' ({self.model})")

    def _only_model(self) -> str:
        found = {self._only_model_of(client, shown)
                 for client, shown in zip(self.clients, self.shown_urls, strict=True)}
        if len(found) > 1:
            raise ValueError(f"policy 'openai': no model given and the endpoints serve "
                             f"different models ({', '.join(sorted(found))}); one run "
                             "evaluates one model: pass model=... or other endpoints")
        return found.pop()

    def _only_model_of(self, client: Any, shown: str) -> str:
        try:
            ids = [m.id for m in client.models.list()]
        except self.openai.OpenAIError as exc:
            raise ValueError(f"policy 'openai': no model given and {shown}/models "
                             f"could not be read ({exc}); pass model=...") from None
        if len(ids) != 1:
            raise ValueError(f"policy 'openai': no model given and {shown} serves "
                             f"{len(ids)} models ({', '.join(ids[:10])}); pass model=...")
        return ids[0]

    # -- Policy ----------------------------------------------------------------------

    def start(self, key: str, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        seed = None if self.seed is None else episode_seed(self.seed, key)
        self.episodes.open(key, _Episode(list(tools), seed=seed,
                                         endpoint=self._endpoint_for(key, task)))

    def _endpoint_for(self, key: str, task: Task | None) -> int:
        """The endpoint serving an episode: its task's, the tasks taken in turn (an
        episode without a task, as a caller may start one, counts as its own task)."""
        if len(self.clients) == 1:
            return 0
        name = task.id if task is not None else key
        return self.task_endpoints.setdefault(name, len(self.task_endpoints) % len(self.clients))

    def act_many(self, turns: list[Turn]) -> list[str]:
        episodes = [self.episodes.get(key) for key, _ in turns]
        workers = max(1, min(self.concurrency * len(self.clients), len(turns)))
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
        failed = [(key, ep, r) for (key, _), ep, r in zip(turns, episodes, results,
                                                          strict=True)
                  if isinstance(r, BaseException)]
        if failed:
            key, ep, exc = failed[0]
            hint = _SERVER_ERROR_HINT if (getattr(exc, "status_code", None) or 0) >= 500 \
                and not self.compact_tools else ""
            raise EndpointError(f"policy 'openai': the endpoint {self.shown_urls[ep.endpoint]} "
                                f"failed for {len(failed)} turn(s), e.g. {key!r}: "
                                f"{_describe(exc)}{hint}", [k for k, _, _ in failed]) from exc
        for ep in episodes:
            ep.pending = None
        return [str(r) for r in results]

    def finish(self, key: str) -> dict[str, Any]:
        return self.episodes.close(key).usage

    @property
    def sampling(self) -> dict[str, Any]:
        """What every request sends, as run.json and records show it (None: not sent,
        the endpoint's default applies; ``seed`` is combined with each episode key;
        of ``max_tokens`` and ``max_completion_tokens`` only the field sent is set)."""
        tokens = {"max_tokens": None, "max_completion_tokens": None,
                  self.token_field: self.max_tokens}
        return {"temperature": self.temperature, "top_p": self.top_p, "seed": self.seed,
                **tokens, "extra_body": self.extra_body}

    def warnings(self) -> list[str]:
        """What the run learnt about the endpoint that its records alone do not show."""
        return self.check.warnings()

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
                    raise EndpointError(f"malformed reply ({exc}), {attempt + 1} time(s) "
                                        "in a row") from exc
                time.sleep(min(0.5 * 2 ** attempt, 8.0))
        self.check.add(request, text, str(ep.endpoint))
        ep.usage["turns"] += 1
        ep.usage["raw"].append(text)
        return text

    def _request(self, ep: _Episode, messages: list[dict[str, Any]]) -> dict[str, Any]:
        msgs, tools = with_tool_docs(messages, ep.tools, self.compact_tools, self.brief_tools)
        request: dict[str, Any] = {"model": self.model, "messages": msgs,
                                   "temperature": self.temperature,
                                   self.token_field: self.max_tokens}
        if tools:
            request["tools"] = tools
        if self.top_p is not None:
            request["top_p"] = self.top_p
        if ep.seed is not None:  # per episode: repeats sample differently, reruns alike
            request["seed"] = ep.seed
        if self.extra_body:
            request["extra_body"] = self.extra_body  # the client merges it into the body
        return request

    def _complete(self, ep: _Episode, request: dict[str, Any]) -> str:
        openai = self.openai
        try:
            reply = self.clients[ep.endpoint].chat.completions.create(**request)
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
            prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
            _check_tools_seen(request.get("tools"), prompt)
            ep.usage["prompt_tokens"] += prompt
            ep.usage["completion_tokens"] += int(getattr(usage, "completion_tokens", 0) or 0)
        return reply_text(choices[0].message)


def reply_text(message: Any) -> str:
    """The raw action text for an assistant message: its ``tool_calls`` as the OpenAI
    JSON the env parses, else its content (the final answer), else a refusal.

    Raises:
        _Malformed: a tool call without a function name (the endpoint's output, not
            the model's: no model text parses to a null name).
    """
    calls = getattr(message, "tool_calls", None)
    if calls:
        return json.dumps({"tool_calls": [_call(c) for c in calls]}, ensure_ascii=False)
    content = getattr(message, "content", None)
    if content:
        return str(content)
    return str(getattr(message, "refusal", None) or "")


def _call(call: Any) -> dict[str, Any]:
    """One tool call in wire form. A null (or non-text) name is malformed endpoint
    output, asked again like any malformed reply; arguments given as a JSON object
    instead of JSON text (some servers do) are taken as that object."""
    fn = getattr(call, "function", None)
    name, arguments = getattr(fn, "name", None), getattr(fn, "arguments", None)
    if not isinstance(name, str):
        raise _Malformed(f"a tool call whose function name is {type(name).__name__}, "
                         "not text")
    if isinstance(arguments, dict):
        try:
            arguments = json.dumps(arguments, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise _Malformed(f"tool call arguments that are no JSON ({type(exc).__name__})") \
                from None
    return {"id": getattr(call, "id", None), "type": "function",
            "function": {"name": name, "arguments": arguments}}


wire_messages = model_messages  # the name this module used to give it


def _check_tools_seen(tools: list[dict[str, Any]] | None, prompt_tokens: int) -> None:
    """Raise if the endpoint's own count of the prompt cannot hold the tools sent (it
    dropped them without a word); a reply without a count proves nothing."""
    if not tools or prompt_tokens <= 0:
        return
    chars = len(json.dumps(tools, ensure_ascii=False))
    floor = chars // MAX_CHARS_PER_TOKEN
    if prompt_tokens < floor:
        raise EndpointError(
            f"the endpoint dropped the tools: it counted the prompt at {prompt_tokens} "
            f"tokens, but the {len(tools)} tool schemas sent need at least {floor}; serve "
            "a chat template that renders tools (llama.cpp: --jinja with a tool-capable "
            "template, see docs/endpoints.md) or pass --compact-tools")


def _describe(exc: BaseException) -> str:
    """One line for an endpoint failure: the HTTP status and the server's message."""
    status = getattr(exc, "status_code", None)
    text = str(exc)
    said = _body_message(getattr(exc, "body", None))
    if said and said not in text:  # e.g. FastAPI's {"detail": ...}, which openai leaves out
        text += f" ({said})"
    text = " ".join(text.split())[:300]
    return f"HTTP {status}: {text}" if status else f"{type(exc).__name__}: {text}"


def shown_url(url: str) -> str:
    """``url`` as a message may show it: without user, password, query or fragment (a
    key is sometimes passed in one of them), and with path segments that look like
    keys redacted (some servers take the key in the path)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host  # an IPv6 address keeps its brackets
    netloc = f"{host}:{parts.port}" if parts.port else host
    path = "/".join(REDACTED if looks_secret(unquote(seg)) else seg
                    for seg in parts.path.split("/"))
    return urlunsplit((parts.scheme, netloc, path, "", "")) if parts.scheme else url


def _body_message(body: Any) -> str:
    """The server's own words in an error body: ``message``, ``error.message`` or
    FastAPI's ``detail``; the body as JSON when it has none of them."""
    if body is None:
        return ""
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        for field_name in ("message", "detail"):
            if isinstance(inner.get(field_name), str):
                return inner[field_name]
    return body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)


def _endpoints(base_url: str | list[str] | None) -> list[str]:
    """The endpoint URLs: the given one(s), else ``$OPENAI_BASE_URL``, else OpenAI's."""
    urls = list(base_url) if isinstance(base_url, list | tuple) else [base_url] \
        if base_url else []
    if not all(isinstance(u, str) and u for u in urls):
        raise ValueError("policy 'openai': base_url must be a URL or a list of URLs")
    for k, url in enumerate(urls):
        if url in urls[:k]:
            raise ValueError(f"policy 'openai': the endpoint {shown_url(url)} is given "
                             "twice (--base-url); name each endpoint once")
    return urls or [os.environ.get("OPENAI_BASE_URL") or OPENAI_URL]


def wants_completion_tokens(model: str) -> bool:
    """Whether ``model`` is a reasoning model that refuses ``max_tokens`` and takes
    ``max_completion_tokens`` (OpenAI's o-series and GPT-5, with or without a router's
    ``vendor/`` prefix); other servers (vLLM, SGLang, llama.cpp) accept ``max_tokens``."""
    return bool(_REASONING_MODEL.fullmatch(model))


def _budget(max_tokens: int | None, max_completion_tokens: int | None) -> int:
    """The token budget per turn: one of the two options (default 1024), never both."""
    if max_tokens is not None and max_completion_tokens is not None:
        raise ValueError("policy 'openai': give max_tokens or max_completion_tokens, not "
                         "both (one budget; the field sent follows the model, or "
                         "max_completion_tokens when that is the one given)")
    given = max_completion_tokens if max_completion_tokens is not None else max_tokens
    return 1024 if given is None else given


def _checked_extra_body(extra_body: Any) -> dict[str, Any] | None:
    """``extra_body`` as sent: a JSON object that sets nothing ToolMaze sends itself
    (a temperature in it would be sent while the record shows another)."""
    if extra_body is None:
        return None
    if not isinstance(extra_body, dict):
        raise ValueError(f"policy 'openai': extra_body (--extra-body) must be a JSON "
                         f"object, got {type(extra_body).__name__}")
    try:
        json.dumps(extra_body, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"policy 'openai': extra_body (--extra-body) is not JSON: "
                         f"{exc}") from None
    for key, flag in _OWN_FIELDS.items():
        if key in extra_body:
            how = f"use {flag}" if flag else "ToolMaze sends it itself"
            raise ValueError(f"policy 'openai': extra_body (--extra-body) may not set "
                             f"{key!r}: {how}")
    return extra_body


def _check(temperature: float, max_tokens: int, concurrency: int, timeout: float,
           max_retries: int, seed: int | None, top_p: float | None) -> None:
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
    if top_p is not None and (not is_number(top_p) or not 0 <= top_p <= 1):
        raise bad("top_p must be a number in [0, 1] (or omitted)", top_p)
