"""Seconds per SFT step and per trained token: today's full fine-tune against the cheaper
set-ups, measured in one run on the same expert episodes.

Each variant trains the real SmolLM2-135M for ``--steps`` optimizer steps (after one
untimed warm-up step) with ``training_scripts/sft_recovery.py``'s own data path and
config: compact tool docs, assistant-only loss, batch 1, no accumulation. A trained
token is one whose label is not masked (assistant turns); "tokens" counts every token
the model read. The baseline is the ``make train-demo`` SFT set-up (full fine-tune,
fp32, one episode per step); the ratio is baseline seconds per trained token over the
variant's, so 3.0 means three times cheaper. The same rows also give the prompt length
with the template's JSON tool schemas against the compact docs.

Run (about 10 minutes on 2 shared cores)::

    nice -n 10 .venv/bin/python benchmarks/bench_sft_step.py --tasks 6 --steps 4
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# name -> sft_recovery flags on top of the common ones
VARIANTS: dict[str, list[str]] = {
    "full-fp32 (baseline)": [],
    "lora16-fp32": ["--lora-r", "16"],
    "lora16-bf16": ["--lora-r", "16", "--bf16"],
    "lora16-fp32-packed": ["--lora-r", "16", "--packing"],
    "lora16-top8-fp32": ["--lora-r", "16", "--lora-layers", "8"],
}


def load_sft_script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "sft_recovery", ROOT / "training_scripts" / "sft_recovery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed_trainer_class(base: type) -> type:
    """An ``SFTTrainer`` that records each optimizer step's wall time (forward, backward
    and optimizer update, from the step-begin to the step-end callback) and the tokens
    of its batch (grad-accum 1: one batch per step)."""
    from transformers import TrainerCallback

    class Clock(TrainerCallback):
        def __init__(self, steps: list[dict[str, float]]) -> None:
            self.steps, self.t0 = steps, 0.0

        def on_step_begin(self, args, state, control, **kwargs):
            self.t0 = time.perf_counter()

        def on_step_end(self, args, state, control, **kwargs):
            self.steps[-1]["s"] = time.perf_counter() - self.t0

    class Timed(base):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self.steps: list[dict[str, float]] = []
            self.add_callback(Clock(self.steps))

        def training_step(self, model, inputs, num_items_in_batch=None):
            self.steps.append({"trained": int((inputs["labels"][..., 1:] != -100).sum()),
                               "tokens": int(inputs["input_ids"].numel())})
            return super().training_step(model, inputs, num_items_in_batch)

    return Timed


def run_variant(sft: Any, dataset: Any, flags: list[str], common: list[str],
                steps: int) -> dict[str, float]:
    from trl import SFTTrainer

    args = sft.parse_args([*common, *flags, "--max-steps", str(steps + 1)])
    model, tokenizer, _ = sft.load_model(args.model)
    trainer = timed_trainer_class(SFTTrainer)(
        model=model, args=sft.sft_config(args), train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=sft.lora_config(args, model.config.num_hidden_layers))
    trainer.train()
    timed = trainer.steps[1:]  # the first step pays for lazy initialisation
    per_step = statistics.median(s["s"] for s in timed)
    seconds = sum(s["s"] for s in timed)
    return {"s_step": per_step, "trained_step": sum(s["trained"] for s in timed) / len(timed),
            "tokens_step": sum(s["tokens"] for s in timed) / len(timed),
            "s_per_1k_trained": 1000 * seconds / max(1, sum(s["trained"] for s in timed)),
            "s_per_1k_tokens": 1000 * seconds / max(1, sum(s["tokens"] for s in timed))}


def prompt_lengths(dataset: Any, compact_rows: Any, tokenizer: Any, template: str
                   ) -> tuple[float, float]:
    """Mean first-turn tokens with JSON tool schemas and with compact docs."""
    def length(messages: list[dict[str, Any]], **kw: Any) -> int:
        text = tokenizer.apply_chat_template(messages[:2], chat_template=template,
                                             tokenize=False, add_generation_prompt=True, **kw)
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    full = [length(r["messages"], tools=r["tools"]) for r in dataset]
    small = [length(r["messages"]) for r in compact_rows]
    return statistics.mean(full), statistics.mean(small)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=6, help="C1-C2 train tasks for the episodes")
    ap.add_argument("--steps", type=int, default=4, help="timed steps per variant")
    ap.add_argument("--max-length", type=int, default=6144)
    ap.add_argument("--only", help="comma-separated variant names to run (default: all)")
    ns = ap.parse_args()
    sft = load_sft_script()
    from toolmaze_gym.agents.models import tool_chat_template
    from toolmaze_gym.agents.threads import configure_cpu_threads

    threads = configure_cpu_threads(None)
    from toolmaze_gym.training import sft_data

    rows = sft_data.build_dataset("train", ns.tasks, 0, ["C1", "C2"],
                                  modes=["P0", "P1", "P2"])
    compact = sft.compact(rows)
    _, tokenizer, _ = sft.load_model(None)
    full_len, compact_len = prompt_lengths(rows, compact, tokenizer, tool_chat_template())
    print(f"{len(rows)} expert episodes ({ns.tasks} C1-C2 train tasks, P0-P2); first-turn "
          f"prompt: {full_len:.0f} tokens with JSON schemas, {compact_len:.0f} compact "
          f"({full_len / compact_len:.1f}x fewer); threads {threads}", file=sys.stderr)
    common = ["--out", str(ROOT / "runs" / "bench-sft"), "--grad-accum", "1",
              "--compact-tools", "--max-length", str(ns.max_length), "--lr", "1e-4",
              "--logging-steps", "1000"]
    wanted = set(ns.only.split(",")) if ns.only else set(VARIANTS)
    results = {name: run_variant(sft, compact, flags, common, ns.steps)
               for name, flags in VARIANTS.items() if name in wanted}
    base = results.get("full-fp32 (baseline)")
    print("\n| variant | s/step | trained tok/step | tok/step | s per 1k trained | "
          "s per 1k tok | cheaper per trained token |\n|---|---|---|---|---|---|---|")
    for name, r in results.items():
        ratio = base["s_per_1k_trained"] / r["s_per_1k_trained"] if base else float("nan")
        print(f"| {name} | {r['s_step']:.2f} | {r['trained_step']:.0f} | "
              f"{r['tokens_step']:.0f} | {r['s_per_1k_trained']:.2f} | "
              f"{r['s_per_1k_tokens']:.2f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
