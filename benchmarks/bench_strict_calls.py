"""Strict tool calls: time per generated token, free against constrained, in one run.

The embedded SmolLM2-135M (the ``hf`` agent's default model) decodes the first turn
of real episodes (compact tool docs, the tools each task shows plus finish/abort)
greedily, once free and once under each grammar library's constraint to one call of
a shown tool: xgrammar (what ``--strict-calls`` ships), llguidance and outlines
(outlines-core), each when installed. Prefill is done once per prompt and not timed:
the figure is the decode loop alone (model step + mask), per generated token, so
replies of different lengths compare. Variants run interleaved per prompt, best of
``--repeats``, so a busy shared machine skews them alike. Compile time per new tool
set is reported beside it (a grammar is compiled once per tool set and cached).

Target: constrained ≤ 1.3x free per generated token.

Run: OMP_NUM_THREADS=2 .venv/bin/python benchmarks/bench_strict_calls.py
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable
from typing import Any

from toolmaze_gym.agents.hf import HFPolicy
from toolmaze_gym.agents.strict_calls import CALL_CLOSE, CALL_OPEN, SEPARATORS, call_schema
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.prompts import opening_messages
from toolmaze_gym.tasks.suite import load_suite
from toolmaze_gym.transcript import episode_tools

TARGET = 1.3


def _episodes(policy: HFPolicy, n: int) -> list[tuple[list[dict[str, Any]], list[int]]]:
    """(tools, first-turn prompt ids) of ``n`` tasks spread over the levels."""
    from datetime import UTC, datetime

    sim = Simulator()
    tasks = load_suite()
    step = max(1, len(tasks) // n)
    out = []
    for k, task in enumerate(tasks[::step][:n]):
        tools = episode_tools(task, sim)
        key = f"bench/{k}"
        policy.start(key, task, tools, "P0")
        msgs = opening_messages(task, "standard", datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
        out.append((tools, policy.prompt_ids(key, msgs)))
        policy.finish(key)
    return out


class _Xgrammar:
    name = "xgrammar"

    def __init__(self, policy: HFPolicy) -> None:
        from toolmaze_gym.agents.strict_calls import StrictCalls

        self.strict = StrictCalls(policy.tokenizer, policy.strict_width, policy.stop_ids)

    def compile(self, tools: list[dict[str, Any]]) -> None:
        self.strict.compiled(tools)

    def processor(self, tools: list[dict[str, Any]]) -> Callable[[Any, Any], Any]:
        return self.strict.processor(tools)


class _Llguidance:
    name = "llguidance"

    def __init__(self, policy: HFPolicy) -> None:
        import llguidance
        import llguidance.hf
        import llguidance.torch

        self.llg, self.torch_ops = llguidance, llguidance.torch
        self.width = policy.strict_width
        self.info = llguidance.hf.from_tokenizer(policy.tokenizer, n_vocab=self.width,
                                                 eos_token=policy.stop_ids[0])
        self.grammars: dict[str, str] = {}

    def _grammar(self, tools: list[dict[str, Any]]) -> str:
        key = json.dumps(tools, sort_keys=True)
        if key not in self.grammars:
            schema = call_schema(tools)
            schema["x-guidance"] = {"whitespace_flexible": False,
                                    "item_separator": SEPARATORS[0],
                                    "key_separator": SEPARATORS[1]}
            lark = (f"start: {json.dumps(CALL_OPEN)} call {json.dumps(CALL_CLOSE)}\n"
                    f"call: %json {json.dumps(schema)}")
            self.grammars[key] = self.llg.LLMatcher.grammar_from_lark(lark)
        return self.grammars[key]

    def compile(self, tools: list[dict[str, Any]]) -> None:
        """A matcher and its first mask: llguidance builds its lexer lazily."""
        m = self.llg.LLMatcher(self.info, self._grammar(tools))
        mask = self.torch_ops.allocate_token_bitmask(1, self.width)
        self.torch_ops.fill_next_token_bitmask(m, mask, 0)

    def processor(self, tools: list[dict[str, Any]]) -> Callable[[Any, Any], Any]:
        matcher = self.llg.LLMatcher(self.info, self._grammar(tools))
        mask = self.torch_ops.allocate_token_bitmask(1, self.width)
        ops, state = self.torch_ops, {"first": True}

        def step(input_ids: Any, scores: Any) -> Any:
            if not state["first"]:
                matcher.consume_token(int(input_ids[0, -1]))
            state["first"] = False
            ops.fill_next_token_bitmask(matcher, mask, 0)
            ops.apply_token_bitmask_inplace(scores, mask)
            return scores
        return step


class _Outlines:
    name = "outlines"

    def __init__(self, policy: HFPolicy) -> None:
        import outlines
        from outlines.backends.outlines_core import OutlinesCoreBackend
        from outlines_core.json_schema import build_regex_from_schema

        self.backend = OutlinesCoreBackend(outlines.from_transformers(policy.model,
                                                                      policy.tokenizer))
        self.build = build_regex_from_schema
        self.regexes: dict[str, str] = {}

    def _regex(self, tools: list[dict[str, Any]]) -> str:
        key = json.dumps(tools, sort_keys=True)
        if key not in self.regexes:
            body = self.build(json.dumps(call_schema(tools)), r"[ ]?")
            self.regexes[key] = re.escape(CALL_OPEN) + body + re.escape(CALL_CLOSE)
        return self.regexes[key]

    def compile(self, tools: list[dict[str, Any]]) -> None:
        self.backend.get_regex_logits_processor(self._regex(tools))

    def processor(self, tools: list[dict[str, Any]]) -> Callable[[Any, Any], Any]:
        proc = self.backend.get_regex_logits_processor(self._regex(tools))
        proc.reset()
        return proc


def _decode(policy: HFPolicy, ids: list[int], n: int,
            constrain: Callable[[Any, Any], Any] | None) -> tuple[float, int, str, float]:
    """Greedy decode of up to ``n`` tokens after an untimed prefill: (seconds of the
    decode loop, tokens generated, text, seconds of it spent in the constraint)."""
    torch = policy.torch
    with torch.inference_mode():
        seq = torch.tensor([ids])
        out = policy.model(input_ids=seq, use_cache=True)
        past, logits = out.past_key_values, out.logits[:, -1, :]
        new: list[int] = []
        masking = 0.0
        t0 = time.perf_counter()
        for _ in range(n):
            scores = logits.float().clone()
            if constrain is not None:
                tm = time.perf_counter()
                scores = constrain(seq, scores)
                masking += time.perf_counter() - tm
            tok = int(scores.argmax(-1))
            new.append(tok)
            if tok in policy.stop_ids:
                break
            seq = torch.cat([seq, torch.tensor([[tok]])], dim=1)
            out = policy.model(input_ids=seq[:, -1:], past_key_values=past, use_cache=True)
            past, logits = out.past_key_values, out.logits[:, -1, :]
        dt = time.perf_counter() - t0
    return dt, len(new), policy.tokenizer.decode(new, skip_special_tokens=True), masking


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=4, help="prompts (tasks) decoded")
    ap.add_argument("--tokens", type=int, default=96, help="new tokens per reply at most")
    ap.add_argument("--repeats", type=int, default=2, help="best of N per variant")
    ap.add_argument("--libraries", default="xgrammar,llguidance,outlines")
    args = ap.parse_args()

    policy = HFPolicy(compact_tools=True)
    policy.strict_width = policy.model.get_output_embeddings().out_features
    episodes = _episodes(policy, args.episodes)
    kinds = {"xgrammar": _Xgrammar, "llguidance": _Llguidance, "outlines": _Outlines}
    libs: list[Any] = []
    for name in args.libraries.split(","):
        try:
            libs.append(kinds[name](policy))
        except ImportError as exc:
            print(f"{name}: not measured ({exc})")
    compile_s: dict[str, float] = {}
    for lib in libs:
        t0 = time.perf_counter()
        for tools, _ in episodes:
            lib.compile(tools)
        compile_s[lib.name] = (time.perf_counter() - t0) / len(episodes)

    totals: dict[str, list[float]] = {"free": [0.0, 0]}
    totals.update({lib.name: [0.0, 0] for lib in libs})
    masks: dict[str, list[float]] = {lib.name: [0.0, 0] for lib in libs}
    for k, (tools, ids) in enumerate(episodes):
        best: dict[str, tuple[float, int]] = {}
        for _ in range(args.repeats):
            for name, make in [("free", None), *[(lib.name, lib.processor) for lib in libs]]:
                dt, n, text, masking = _decode(policy, ids, args.tokens,
                                               None if make is None else make(tools))
                if name in masks:
                    masks[name][0] += masking
                    masks[name][1] += n
                if name not in best or dt / n < best[name][0] / best[name][1]:
                    best[name] = (dt, n)
                if _ == 0:
                    print(f"prompt {k} ({len(ids)} tokens) {name:>10}: {n:3d} tokens "
                          f"{1e3 * dt / n:6.1f} ms/token  {text[:90]!r}", flush=True)
        for name, (dt, n) in best.items():
            totals[name][0] += dt
            totals[name][1] += n
    free = totals["free"][0] / totals["free"][1]
    print(f"\nfree decoding: {1e3 * free:.1f} ms per generated token "
          f"({totals['free'][1]} tokens over {len(episodes)} prompts)")
    for lib in libs:
        dt, n = totals[lib.name]
        ratio = dt / n / free
        print(f"{lib.name:>10}: {1e3 * dt / n:.1f} ms per generated token ({n} tokens), "
              f"{ratio:.2f}x free   target <= {TARGET}x: {'met' if ratio <= TARGET else 'MISSED'}"
              f"; compile {1e3 * compile_s[lib.name]:.0f} ms per new tool set")
        mt, mn = masks[lib.name]
        print(f"{'':>10}  of which the constraint itself: {1e3 * mt / mn:.2f} ms per token, "
              f"{(free + mt / mn) / free:.3f}x free decoding's step (load-independent view)")


if __name__ == "__main__":
    main()
