"""Teacher-forced learning curve: models (base, checkpoints, final) on held-out expert
episodes, tokenized exactly as SFT tokenizes them (``toolmaze_gym.training.heldout``).

The data is ``toolmaze sft-data --split dev`` output (disjoint from the train split);
``--brief-tools`` / ``--compact-tools`` must match how the models were trained::

    toolmaze sft-data --split dev --n 10 --levels C1,C2 --out runs/lift/dev-expert
    python training_scripts/heldout.py --data runs/lift/dev-expert --brief-tools \\
        base runs/lift/sft/checkpoints/step-60 runs/lift/sft

``base`` stands for the embedded SmolLM2-135M-Instruct. Prints one Markdown row per
model: loss per assistant token, token accuracy, turns exact, episodes exact. With
``--train-data`` (the models' SFT data) a second table splits turns exact by the tool a
turn calls: one the training episodes called, one they never called, or finish/abort.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from toolmaze_gym.agents.threads import configure_cpu_threads
from toolmaze_gym.cli import HelpFormatter
from toolmaze_gym.optional import TRAINING, exit_on_missing, require_all

ROOT = Path(__file__).resolve().parents[1]


def _sft_script() -> Any:
    spec = importlib.util.spec_from_file_location("sft_recovery",
                                                  ROOT / "training_scripts" / "sft_recovery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def batches(sft: Any, data: str, docs: list[str], max_length: int,
            model: str | None = None) -> list[dict[str, Any]]:
    """Every held-out episode collated as the SFT trainer collates it (labels masked)."""
    from trl import SFTTrainer

    from toolmaze_gym.training import sft_data

    args = sft.parse_args(["--out", str(ROOT / "runs" / "heldout-tmp"), "--grad-accum", "1",
                           "--max-length", str(max_length), *docs,
                           *(["--model", model] if model else [])])
    dataset = sft_data.load(Path(data))
    if args.compact_tools or args.brief_tools:
        dataset = sft.compact(dataset, args.brief_tools)
    base, tokenizer, _ = sft.load_model(args.model)
    trainer = SFTTrainer(model=base, args=sft.sft_config(args), train_dataset=dataset,
                         processing_class=tokenizer)
    keep = ("input_ids", "attention_mask", "labels")
    return [{k: v for k, v in trainer.data_collator([row]).items() if k in keep}
            for row in trainer.train_dataset]


SEEN, NEW, END = "tool called in training", "tool new to training", "finish / abort"
SPLIT_HEAD = ["model", f"turns: {SEEN}", "exact %", f"turns: {NEW}", "exact %",
              f"turns: {END}", "exact %"]


def turn_groups(data: str, train_data: str) -> list[list[str]]:
    """Each held-out turn's group: does it call a tool the training episodes called?"""
    from toolmaze_gym.training import sft_data
    from toolmaze_gym.training.heldout import assistant_tools

    seen = {name for messages in sft_data.load(Path(train_data))["messages"]
            for name in assistant_tools(messages)}
    return [[END if name in ("finish", "abort", "") else SEEN if name in seen else NEW
             for name in assistant_tools(messages)]
            for messages in sft_data.load(Path(data))["messages"]]


def split_row(name: str, split: dict[str, tuple[int, float]]) -> list[str]:
    cells = [name]
    for group in (SEEN, NEW, END):
        n, share = split.get(group, (0, 0.0))
        cells += [str(n), f"{100 * share:.1f}" if n else "n/a"]
    return cells


def table(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
                      *("| " + " | ".join(r) + " |" for r in rows)])


def main(argv: list[str] | None = None) -> list[Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)
    ap.add_argument("models", nargs="+", help="checkpoint directories; `base` for the "
                    "embedded SmolLM2-135M-Instruct")
    ap.add_argument("--data", required=True, help="`toolmaze sft-data --split dev` output")
    docs = ap.add_mutually_exclusive_group()
    docs.add_argument("--compact-tools", action="store_true", help="compact tool docs")
    docs.add_argument("--brief-tools", action="store_true", help="brief tool docs")
    ap.add_argument("--max-length", type=int, default=6144, help="tokens per episode")
    ap.add_argument("--threads", type=int, help="CPU threads")
    ap.add_argument("--train-data", help="the models' SFT data: also split turns exact by "
                    "whether the turn's tool was called in training")
    ns = ap.parse_args(argv)
    configure_cpu_threads(ns.threads)
    require_all(TRAINING, "heldout")
    for d in (ns.data, ns.train_data):
        if d is not None and not Path(d).is_dir():
            sys.exit(f"heldout: {d} is not a dataset directory (toolmaze sft-data --out)")
    sft = _sft_script()
    flags = ["--brief-tools"] if ns.brief_tools else ["--compact-tools"] if ns.compact_tools \
        else []
    from toolmaze_gym.training.heldout import HEAD, exact_by_group, score, summarize

    first = None if ns.models[0] == "base" else ns.models[0]  # its tokenizer tokenizes
    rows = batches(sft, ns.data, flags, ns.max_length, first)
    groups = turn_groups(ns.data, ns.train_data) if ns.train_data else None
    print(f"{len(rows)} held-out episodes from {ns.data}", file=sys.stderr)
    print("| " + " | ".join(HEAD) + " |\n|" + "---|" * len(HEAD))
    results, splits = [], []
    for name in ns.models:
        model, _, _ = sft.load_model(None if name == "base" else name)
        scores = score(model, rows)
        results.append(summarize(scores))
        print("| " + " | ".join(results[-1].row(name)) + " |", flush=True)
        if groups is not None:
            splits.append(split_row(name, exact_by_group(scores, groups)))
    if splits:
        print("\n" + table(SPLIT_HEAD, splits))
    return results


if __name__ == "__main__":
    exit_on_missing("heldout", main)
