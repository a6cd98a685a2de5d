"""Seconds per SFT step and per trained token: today's full fine-tune against the cheaper
set-ups, measured in one run on the same batch, interleaved.

Every variant gets the same collated batch: one careful-expert episode as
``training_scripts/sft_recovery.py`` builds it (TRL's tokenization, compact tool
docs, assistant-only labels), and its model, LoRA adapter (peft, as ``--lora-r``
/ ``--lora-layers`` configure it) and AdamW. A step is forward, backward and the
optimizer update. The variants take turns, one step each per round, for
``--rounds`` rounds after one untimed warm-up step each, so a change in the load of
a shared machine hits all of them alike; the figure is each variant's median. A
trained token is one whose label is not masked (the assistant turns). The baseline
is the ``make train-demo`` SFT set-up (full fine-tune, fp32, one episode per step);
"cheaper" is its seconds per trained token over the variant's. bf16 (autocast) is
the ``--bf16`` variant; on a CPU without avx512_bf16 it is slow enough to leave out
with ``--only``. A ``--brief-tools`` variant steps on the same episode with the
brief tool docs (the same trained tokens, a shorter prompt), so its "per trained
token" figure is the one to compare. The same rows also give the first-turn prompt
length with the template's JSON tool schemas against the compact and brief docs.

Run (about 10 minutes on 2 idle cores)::

    nice -n 10 .venv/bin/python benchmarks/bench_sft_step.py --rounds 3
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
    "lora16-top8-fp32": ["--lora-r", "16", "--lora-layers", "8"],
    "lora16-bf16": ["--lora-r", "16", "--bf16"],
    "lora16-top8-brief-fp32": ["--lora-r", "16", "--lora-layers", "8", "--brief-tools"],
}


def load_sft_script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "sft_recovery", ROOT / "training_scripts" / "sft_recovery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def one_batch(sft: Any, dataset: Any, common: list[str], index: int) -> dict[str, Any]:
    """Episode ``index`` collated as the SFT trainer collates it (labels masked)."""
    from trl import SFTTrainer

    args = sft.parse_args(common)
    model, tokenizer, _ = sft.load_model(args.model)
    trainer = SFTTrainer(model=model, args=sft.sft_config(args), train_dataset=dataset,
                         processing_class=tokenizer)
    rows = trainer.train_dataset
    return trainer.data_collator([rows[index]])


def _inputs(batch: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in batch.items() if k in ("input_ids", "attention_mask", "labels")}


class Variant:
    """A model (with its adapter) and optimizer that step on the shared batch."""

    def __init__(self, sft: Any, flags: list[str], common: list[str]) -> None:
        import torch

        args = sft.parse_args([*common, *flags])
        model, _, _ = sft.load_model(args.model)
        peft_config = sft.lora_config(args, model)
        if peft_config is not None:
            from peft import get_peft_model

            model = get_peft_model(model, peft_config)
        self.model, self.bf16 = model.train(), args.bf16
        params = [p for p in model.parameters() if p.requires_grad]
        self.trainable = sum(p.numel() for p in params)
        self.optimizer = torch.optim.AdamW(params, lr=args.lr)
        self.times: list[float] = []

    def step(self, batch: dict[str, Any]) -> float:
        import torch

        t0 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            loss = self.model(**batch).loss
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return time.perf_counter() - t0


def prompt_lengths(dataset: Any, compact_rows: Any, brief_rows: Any, tokenizer: Any,
                   template: str) -> tuple[float, float, float]:
    """Mean first-turn tokens with JSON tool schemas, compact docs and brief docs."""
    def length(messages: list[dict[str, Any]], **kw: Any) -> int:
        text = tokenizer.apply_chat_template(messages[:2], chat_template=template,
                                             tokenize=False, add_generation_prompt=True, **kw)
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    full = [length(r["messages"], tools=r["tools"]) for r in dataset]
    small = [length(r["messages"]) for r in compact_rows]
    brief = [length(r["messages"]) for r in brief_rows]
    return statistics.mean(full), statistics.mean(small), statistics.mean(brief)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=1, help="C1-C2 train tasks for the episodes")
    ap.add_argument("--episode", type=int, default=0, help="which episode is the batch")
    ap.add_argument("--rounds", type=int, default=3, help="timed steps per variant")
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
    compact, brief = sft.compact(rows), sft.compact(rows, brief=True)
    _, tokenizer, _ = sft.load_model(None)
    full_len, compact_len, brief_len = prompt_lengths(rows, compact, brief, tokenizer,
                                                      tool_chat_template())
    common = ["--out", str(ROOT / "runs" / "bench-sft"), "--grad-accum", "1",
              "--compact-tools", "--max-length", str(ns.max_length), "--lr", "1e-4"]
    batches = {docs: _inputs(one_batch(sft, data, common, ns.episode))
               for docs, data in (("compact", compact), ("brief", brief))}
    trained = int((batches["compact"]["labels"][..., 1:] != -100).sum())
    tokens = {docs: int(b["input_ids"].numel()) for docs, b in batches.items()}
    print(f"{len(rows)} expert episodes ({ns.tasks} C1-C2 train task(s), P0-P2); first-turn "
          f"prompt: {full_len:.0f} tokens with JSON schemas, {compact_len:.0f} compact "
          f"({full_len / compact_len:.2f}x fewer), {brief_len:.0f} brief; the batch: "
          f"{tokens['compact']} tokens compact, {tokens['brief']} brief, {trained} trained; "
          f"threads {threads}", file=sys.stderr)
    wanted = ns.only.split(",") if ns.only else list(VARIANTS)
    variants = {name: Variant(sft, VARIANTS[name], common) for name in wanted}
    docs = {name: "brief" if "--brief-tools" in VARIANTS[name] else "compact"
            for name in variants}
    for name, v in variants.items():
        v.step(batches[docs[name]])  # warm-up: lazy initialisation, optimizer state
    for _ in range(ns.rounds):
        for name, v in variants.items():
            v.times.append(v.step(batches[docs[name]]))
    base = variants.get("full-fp32 (baseline)")
    base_s = statistics.median(base.times) if base else float("nan")
    print("\n| variant | trainable params | s/step (median) | s per 1k trained tokens | "
          "s per 1k tokens | cheaper per trained token |\n|---|---|---|---|---|---|")
    for name, v in variants.items():
        med = statistics.median(v.times)
        print(f"| {name} | {v.trainable / 1e6:.2f} M | {med:.2f} | "
              f"{1000 * med / trained:.1f} | {1000 * med / tokens[docs[name]]:.2f} | "
              f"{base_s / med:.2f}x |")
    print("\nsteps (s): " + "; ".join(f"{n}: {', '.join(f'{t:.1f}' for t in v.times)}"
                                  for n, v in variants.items()))


if __name__ == "__main__":
    main()
