"""Teacher-forced learning curve: models (base, checkpoints, final) on held-out expert
episodes, tokenized exactly as SFT tokenizes them (``toolmaze_gym.training.heldout``).

The data is ``toolmaze sft-data --split dev`` output (disjoint from the train split);
``--brief-tools`` / ``--compact-tools`` must match how the models were trained::

    toolmaze sft-data --split dev --n 10 --levels C1,C2 --out runs/lift/dev-expert
    python training_scripts/heldout.py --data runs/lift/dev-expert --brief-tools \\
        base runs/lift/sft/checkpoints/step-60 runs/lift/sft

``base`` stands for the embedded SmolLM2-135M-Instruct. Prints one Markdown row per
model: loss per assistant token, token accuracy, turns exact, episodes exact.
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
    ns = ap.parse_args(argv)
    configure_cpu_threads(ns.threads)
    require_all(TRAINING, "heldout")
    if not Path(ns.data).is_dir():
        sys.exit(f"heldout: {ns.data} is not a dataset directory (toolmaze sft-data --out)")
    sft = _sft_script()
    flags = ["--brief-tools"] if ns.brief_tools else ["--compact-tools"] if ns.compact_tools \
        else []
    from toolmaze_gym.training.heldout import HEAD, evaluate

    first = None if ns.models[0] == "base" else ns.models[0]  # its tokenizer tokenizes
    rows = batches(sft, ns.data, flags, ns.max_length, first)
    print(f"{len(rows)} held-out episodes from {ns.data}", file=sys.stderr)
    print("| " + " | ".join(HEAD) + " |\n|" + "---|" * len(HEAD))
    results = []
    for name in ns.models:
        model, _, _ = sft.load_model(None if name == "base" else name)
        result = evaluate(model, rows)
        results.append(result)
        print("| " + " | ".join(result.row(name)) + " |", flush=True)
    return results


if __name__ == "__main__":
    exit_on_missing("heldout", main)
