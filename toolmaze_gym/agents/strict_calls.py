"""Strict tool calls: decoding constrained to one call of a shown tool.

A small model that knows *which* tool to call still loses the episode on the format
(unknown argument names, missing arguments, invented tools, JSON cut by the token
cap). Serving stacks fix that with grammar-constrained decoding (vLLM and SGLang
through xgrammar or llguidance, OpenAI's ``strict`` function calling); this module
gives the ``hf`` agent the same, with xgrammar.

What the grammar admits is exactly one reply the env's parser reads as a call of a
shown tool with arguments valid for that tool's JSON schema, in the chat template's
own tool-call markup::

    <tool_call>
    {"name": "<a shown tool>", "arguments": {...}}
    </tool_call><stop token>

``finish`` and ``abort`` are shown tools like any other (their schemas come with the
episode's tools), so ending the episode is a call too. The arguments follow the
tool's schema: property names (no unknown ones: ``additionalProperties`` is false in
every ToolMaze schema, and the grammar is built in strict mode), types, enums,
required fields, numeric bounds and string patterns. Deliberate gaps, all
xgrammar's: a string with a ``pattern`` is held to the pattern alone (xgrammar
cannot combine a pattern with ``minLength``/``maxLength``), with each unbounded
repetition in it (``+``, ``*``, ``{n,}``) held to ``PATTERN_RUN`` characters (see
:func:`bounded_pattern`), and a string the schema leaves
unbounded (``finish``'s answer, ``abort``'s reason) is capped at ``free_text_chars``
so that a call always closes within the turn's token cap instead of being cut. A
third gap follows from the second: xgrammar admits no JSON escape (``\\n``, ``\\"``,
``\\uXXXX``) inside a length-bounded string, so such strings (every corpus string
without a pattern, and the capped free text) hold unescaped characters only
(non-ASCII written as itself is fine); a model loses a newline or a double quote in
its answer, never a call. And a bounded number is admitted with at most six decimals
and no exponent (``0.0078125`` and ``1e-05`` are refused; ``0.007813`` is not).

Why xgrammar: measured here against llguidance and outlines on the embedded
SmolLM2-135M (``benchmarks/bench_strict_calls.py``): its mask costs 0.45 ms per
generated token (1.003x a free decoding step of ~166 ms on the loaded 2-core VM)
against llguidance's 58 ms, it compiles a new tool set in ~50 ms,
and outlines built its regex index for minutes per tool set. It is also what vLLM and
SGLang default to, so the same schemas constrain training rollouts there.

Closing within the token cap. A degenerate model can fill a long string until the
turn's token cap cuts the call (measured: ``"body": "POWER_POWER_..."`` to the cap in
10 of 50 actions). So the processor knows the turn's budget, and over its last
``CLOSING_RESERVE`` tokens it favours, among the tokens the grammar allows, those
that close: inside a string a token opening with ``"``, outside one a token opening
with ``}`` or ``]``; the grammar still decides what is allowed, so the call stays
valid, and a call that needs no closing help is untouched.

Compiling is done once per tool set (:class:`StrictCalls` caches the compiled
grammar by a digest of the schemas, least recently used first out); each turn gets a
fresh matcher, which is cheap.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.optional import require

CALL_OPEN = "<tool_call>\n"
CALL_CLOSE = "\n</tool_call>"
# The separators the chat template's ``tojson`` renders calls with, so a constrained
# reply looks like the calls the model is shown in its own history.
SEPARATORS = (", ", ": ")
FREE_TEXT_CHARS = 300  # cap for a string the schema leaves unbounded (see the docstring)
CACHED_TOOL_SETS = 64
CLOSING_RESERVE = 40  # last tokens of a turn in which closing tokens are favoured (24 cut a
# toolmaze-v10 C2 call at a 64-token cap: a required key still to write takes more)
_FAVOUR = 1e4  # added to the logit of a favoured token (any allowed one then wins)

_LENGTHS = ("minLength", "maxLength")
PATTERN_RUN = 32  # an unbounded repetition in a pattern (+, *, {n,}) is held to this


class StrictCallsError(ValueError):
    """Tools that cannot be turned into a call grammar (not OpenAI function schemas,
    a duplicated name, a schema the grammar library refuses)."""


def tool_name(tool: dict[str, Any]) -> str:
    """The name of an OpenAI tool schema (``{"type": "function", "function": {...}}``
    or the bare function object)."""
    fn = tool.get("function", tool) if isinstance(tool, dict) else None
    name = fn.get("name") if isinstance(fn, dict) else None
    if not isinstance(name, str) or not name:
        raise StrictCallsError(f"strict calls: not an OpenAI tool schema (no function name): "
                               f"{str(tool)[:120]}")
    return name


def _parameters(tool: dict[str, Any]) -> dict[str, Any]:
    fn = tool.get("function", tool)
    params = fn.get("parameters") or {"type": "object", "properties": {}}
    if not isinstance(params, dict) or params.get("type", "object") != "object":
        raise StrictCallsError(f"strict calls: tool {tool_name(tool)!r} has parameters that "
                               "are not a JSON object schema")
    return params


def _bounded(schema: Any, free_text_chars: int) -> Any:
    """``schema`` as the grammar gets it: a pattern's string loses its length bounds
    (xgrammar ignores them beside a pattern, with a warning per string), and a string
    with neither pattern, enum nor ``maxLength`` gets ``maxLength = free_text_chars``."""
    if isinstance(schema, list):
        return [_bounded(s, free_text_chars) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _bounded(v, free_text_chars) if k in ("properties", "items", "anyOf", "oneOf",
                                                     "allOf", "prefixItems")
           else v for k, v in schema.items()}
    if "properties" in schema and isinstance(schema["properties"], dict):
        out["properties"] = {k: _bounded(v, free_text_chars)
                             for k, v in schema["properties"].items()}
    if out.get("type") == "string":
        if "pattern" in out:
            for key in _LENGTHS:
                out.pop(key, None)
            out["pattern"] = bounded_pattern(str(out["pattern"]))
        elif "enum" not in out and "const" not in out:
            out["maxLength"] = min(int(out.get("maxLength", free_text_chars)), free_text_chars)
    return out


def bounded_pattern(pattern: str, run: int = PATTERN_RUN) -> str:
    """``pattern`` with every unbounded repetition bounded: ``+`` → ``{1,run}``, ``*`` →
    ``{0,run}``, ``{n,}`` → ``{n,n+run}`` (outside character classes and escapes).
    Why: a pattern string has no length bound in the grammar (see the docstring), and
    a degenerate model filled an e-mail's local part with digits until the token cap
    (20 of 160 actions); no closing help can end a string the pattern keeps open."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c in "+*":
            out.append(f"{{{1 if c == '+' else 0},{run}}}")
            i += 1
            continue
        elif c == "{":
            end = pattern.find("}", i)
            body = pattern[i + 1:end] if end > 0 else ""
            low, comma, high = body.partition(",")
            if end > 0 and comma and not high and low.isdigit():
                out.append(f"{{{low},{int(low) + run}}}")
                i = end + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def call_schema(tools: Sequence[dict[str, Any]],
                free_text_chars: int = FREE_TEXT_CHARS) -> dict[str, Any]:
    """The JSON schema of one call of one of ``tools``: ``{"name": <that tool>,
    "arguments": <its parameters>}``, ``name`` first as the template renders it."""
    if not tools:
        raise StrictCallsError("strict calls: no tools to call (an episode always shows "
                               "finish and abort)")
    names = [tool_name(t) for t in tools]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise StrictCallsError(f"strict calls: tool names shown twice: {', '.join(dup)}")
    return {"anyOf": [
        {"type": "object",
         "properties": {"name": {"const": name},
                        "arguments": _bounded(copy.deepcopy(_parameters(t)), free_text_chars)},
         "required": ["name", "arguments"], "additionalProperties": False}
        for name, t in zip(names, tools, strict=True)]}


def call_grammar(tools: Sequence[dict[str, Any]],
                 free_text_chars: int = FREE_TEXT_CHARS) -> Any:
    """The xgrammar grammar of one whole reply: ``CALL_OPEN`` + a call admitted by
    :func:`call_schema` (the template's separators, no free whitespace) + ``CALL_CLOSE``."""
    xgr = require("xgrammar", "strict tool calls (--strict-calls)")
    schema = call_schema(tools, free_text_chars)
    try:
        body = xgr.Grammar.from_json_schema(json.dumps(schema), any_whitespace=False,
                                            separators=SEPARATORS, strict_mode=True)
    except (RuntimeError, ValueError) as exc:
        raise StrictCallsError(f"strict calls: xgrammar refused the tool schemas: "
                               f"{exc}") from None
    return xgr.Grammar.concat(_literal(xgr, CALL_OPEN), body, _literal(xgr, CALL_CLOSE))


def call_ebnf(tools: Sequence[dict[str, Any]], free_text_chars: int = FREE_TEXT_CHARS) -> str:
    """:func:`call_grammar` as EBNF text, the form a server takes a grammar in (vLLM's
    ``structured_outputs={"grammar": ...}`` with its default xgrammar backend). Why not
    vLLM's ``{"json": call_schema(tools)}``: that admits bare JSON only, without the
    template's ``<tool_call>`` markup, so a model trained on such rollouts would learn
    a call format that evaluation (and its own chat template) never shows; the EBNF
    is the very grammar the ``hf`` agent decodes with, markup, bounds and all."""
    return str(call_grammar(tools, free_text_chars))


def tools_key(tools: Sequence[dict[str, Any]], free_text_chars: int = FREE_TEXT_CHARS) -> int:
    """The cache key of a tool set: a digest of the schemas as given (order included:
    the order is the prompt's, and two orders are two prompts)."""
    return hashing.digest("strict-calls", free_text_chars,
                          json.dumps(list(tools), sort_keys=True, ensure_ascii=False))


class StrictCalls:
    """Call grammars for one tokenizer: compiled once per tool set, matched per turn.

    ``vocab_size`` is the model's logits width (it may exceed the tokenizer's
    vocabulary); ``stop_ids`` the tokens that end a reply (the only tokens allowed
    after ``</tool_call>``).
    """

    def __init__(self, tokenizer: Any, vocab_size: int, stop_ids: Sequence[int],
                 free_text_chars: int = FREE_TEXT_CHARS,
                 cached_tool_sets: int = CACHED_TOOL_SETS) -> None:
        if not isinstance(free_text_chars, int) or isinstance(free_text_chars, bool) \
                or free_text_chars < 1:
            raise ValueError(f"strict calls: free_text_chars must be a positive integer, "
                             f"got {free_text_chars!r}")
        if not stop_ids:
            raise ValueError("strict calls: the model has no stop token to end a call with")
        xgr = require("xgrammar", "strict tool calls (--strict-calls)")
        self.xgr = xgr
        self.vocab_size = int(vocab_size)
        self.stop_ids = [int(i) for i in stop_ids]
        self.free_text_chars = free_text_chars
        self.info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=self.vocab_size,
                                                       stop_token_ids=self.stop_ids)
        self.compiler = xgr.GrammarCompiler(self.info, cache_enabled=False)
        self.tokenizer = tokenizer
        self._texts: dict[int, str] = {}
        self.quote_ids, self.close_ids = _closing_tokens(tokenizer, self.vocab_size)
        self.cached_tool_sets = cached_tool_sets
        self._compiled: OrderedDict[int, Any] = OrderedDict()
        self.compiles = 0  # grammars compiled so far (the cache's misses)
        self._end: Any = None

    def compiled(self, tools: Sequence[dict[str, Any]]) -> Any:
        """The compiled grammar of ``tools`` (from the cache when this tool set was seen)."""
        key = tools_key(tools, self.free_text_chars)
        hit = self._compiled.get(key)
        if hit is not None:
            self._compiled.move_to_end(key)
            return hit
        hit = self._compiled[key] = self.compiler.compile_grammar(
            call_grammar(tools, self.free_text_chars))
        self.compiles += 1
        while len(self._compiled) > self.cached_tool_sets:
            self._compiled.popitem(last=False)
        return hit

    def processor(self, tools: Sequence[dict[str, Any]], rows: int = 1,
                  budget: int | None = None) -> Any:
        """A transformers logits processor for one ``generate`` of ``rows`` sequences:
        every step masks the tokens that would leave the grammar, and within the last
        ``CLOSING_RESERVE`` of ``budget`` new tokens favours closing tokens."""
        return self.batch_processor([tools] * rows, budget)

    def batch_processor(self, tool_sets: Sequence[Sequence[dict[str, Any]] | None],
                        budget: int | Sequence[int] | None = None) -> Any:
        """:meth:`processor` for a batch whose rows show different tools (row ``i``
        constrained to ``tool_sets[i]``). A row whose tool set is ``None`` may only
        stop (its episode has ended: a training loop that asks again gets an empty
        reply, not a forced call). ``budget`` may be one per row (rows of a training
        rollout have used different shares of the completion budget)."""
        budgets = (list(budget) if isinstance(budget, Sequence)
                   else [budget] * len(tool_sets))
        if len(budgets) != len(tool_sets):
            raise ValueError(f"strict calls: {len(budgets)} budgets for {len(tool_sets)} rows")
        grammars = [self._ended() if t is None else self.compiled(t) for t in tool_sets]
        return _processor_class()(self, grammars, budgets)

    def _ended(self) -> Any:
        """The compiled grammar of an empty reply (only a stop token is allowed)."""
        if self._end is None:
            self._end = self.compiler.compile_grammar(_literal(self.xgr, ""))
        return self._end

    def decode(self, token_id: int) -> str:
        """One token's text (cached: the closing guard reads each new token)."""
        text = self._texts.get(token_id)
        if text is None:
            text = self._texts[token_id] = self.tokenizer.decode([token_id])
        return text

    def accepts(self, tools: Sequence[dict[str, Any]], token_ids: Sequence[int]) -> bool:
        """Whether the grammar admits ``token_ids`` as a whole reply (a stop token is
        appended when the ids do not end with one)."""
        matcher = self.xgr.GrammarMatcher(self.compiled(tools))
        ids = list(token_ids)
        if not ids or ids[-1] not in self.stop_ids:
            ids.append(self.stop_ids[0])
        return all(matcher.accept_token(int(t)) for t in ids) and matcher.is_terminated()


def _closing_tokens(tokenizer: Any, width: int) -> tuple[list[int], list[int]]:
    """Token ids whose text opens with ``"`` (close a string), and with ``}`` or ``]``
    (close an object or array)."""
    quote, close = [], []
    n = min(width, len(tokenizer))
    for tid, text in enumerate(tokenizer.batch_decode([[i] for i in range(n)])):
        if text.startswith('"'):
            quote.append(tid)
        elif text.startswith(("}", "]")):
            close.append(tid)
    return quote, close


def _literal(xgr: Any, text: str) -> Any:
    return xgr.Grammar.from_ebnf(f"root ::= {json.dumps(text)}")


_PROCESSOR: type | None = None


def _processor_class() -> type:
    """The logits processor class, built on first use (transformers is imported late,
    like everything of the model stack)."""
    global _PROCESSOR
    if _PROCESSOR is None:
        from transformers import LogitsProcessor

        class ConstrainedCalls(LogitsProcessor):
            """Masks each row's logits to its grammar. The first call sees the prompt;
            each later call first feeds the token just chosen to the row's matcher. A
            row whose call is complete (or that is padding after its stop token) is
            left as it is: ``generate`` ends it on the stop token."""

            def __init__(self, owner: StrictCalls, grammars: list[Any],
                         budgets: list[int | None]) -> None:
                rows = len(grammars)
                xgr = owner.xgr
                self.budgets, self.steps = budgets, 0
                self.texts = [""] * rows  # each row's reply so far (for the closing guard)
                self.xgr, self.owner = xgr, owner
                self.matchers = [xgr.GrammarMatcher(g) for g in grammars]
                self.bitmask = xgr.allocate_token_bitmask(rows, owner.vocab_size)
                self.start: int | None = None

            def __call__(self, input_ids: Any, scores: Any) -> Any:
                if self.start is None:
                    self.start = input_ids.shape[1]
                else:
                    self.steps += 1
                    for row, m in enumerate(self.matchers):
                        if not m.is_terminated():
                            tok = int(input_ids[row, -1])
                            m.accept_token(tok)
                            self.texts[row] += self.owner.decode(tok)
                live = [row for row, m in enumerate(self.matchers) if not m.is_terminated()]
                for row in live:
                    self.matchers[row].fill_next_token_bitmask(self.bitmask, row)
                if live:
                    width = scores.shape[-1]
                    self.xgr.apply_token_bitmask_inplace(scores, self.bitmask,
                                                         vocab_size=width, indices=live)
                for row in live:
                    budget = self.budgets[row]
                    if budget is not None and budget - self.steps <= CLOSING_RESERVE:
                        inside = self.texts[row].count('"') % 2 == 1
                        ids = self.owner.quote_ids if inside else self.owner.close_ids
                        scores[row, ids] += _FAVOUR
                return scores

        _PROCESSOR = ConstrainedCalls
    return _PROCESSOR
