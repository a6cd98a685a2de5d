"""Supervised fine-tuning on expert recovery trajectories (TRL ``SFTTrainer``).

The data is ``toolmaze sft-data`` output (``--data DIR``), or built on the fly from
``--tasks N`` procedural train tasks. The loss covers the assistant turns only
(``assistant_only_loss``: TRL swaps in its ``{% generation %}``-marked copy of the
ChatML template), so the model learns the calls, retries, reroutes and honest
stops, not to predict tool responses. The model is the embedded SmolLM2-135M-
Instruct (converted once from its GGUF and cached) or any local HF checkpoint
with a tool-capable chat template; it is saved with a model card (data, steps,
hyper-parameters, losses).

CPU (defaults: fp32, no gradient checkpointing, threads from
``configure_cpu_threads``)::

    python training_scripts/sft_recovery.py --tasks 60 --max-steps 200 --out runs/sft

GPUs: ``accelerate launch --config_file training_scripts/configs/multi_gpu.yaml
training_scripts/sft_recovery.py --data DIR --bf16 ...`` (see configs/README.md).

``--compact-tools`` puts the tool documentation in the system prompt as compact
text (as ``toolmaze eval --compact-tools`` shows it) instead of the template's
JSON ``<tools>`` block: 3-4x fewer prompt tokens, the format to pick when the
model will be evaluated that way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from toolmaze_gym.agents.threads import configure_cpu_threads
from toolmaze_gym.cli import HelpFormatter
from toolmaze_gym.optional import TRAINING, exit_on_missing, require_all


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The flags; ``--help`` shows each default (sized for 2 CPU cores and 24 GB: the
    ``make train-demo`` SFT stage, 6,144 tokens at batch 1, peaked at ~14 GB)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--data", help="dataset directory written by `toolmaze sft-data` "
                     "(default: build the data from --tasks)")
    src.add_argument("--tasks", type=int, default=40,
                     help="build the data from this many procedural train tasks")
    ap.add_argument("--levels", default="C1,C2,C3,C4",
                    help="levels of the built tasks (comma-separated)")
    ap.add_argument("--seed", type=int, default=0, help="task stream and training seed")
    ap.add_argument("--model", help="local HF checkpoint (default: embedded SmolLM2-135M)")
    ap.add_argument("--out", required=True, help="where the trained model is saved")
    ap.add_argument("--max-steps", type=int, default=100, help="optimizer steps")
    ap.add_argument("--epochs", type=float,
                    help="passes over the curriculum mix instead of --max-steps (the "
                         "steps are then the mix's rows, or packs, / (batch x grad-accum); "
                         "default: --max-steps decides)")
    ap.add_argument("--batch-size", type=int, default=1,
                    help="episodes per device per forward/backward pass (memory grows "
                         "with it)")
    ap.add_argument("--grad-accum", type=int, default=4,
                    help="passes per optimizer step (the effective batch without the memory)")
    ap.add_argument("--lr", type=float, default=5e-5, help="peak learning rate (cosine decay)")
    ap.add_argument("--warmup-ratio", type=float, default=0.05,
                    help="share of the steps spent warming the learning rate up")
    ap.add_argument("--max-length", type=int, default=6144,
                    help="tokens per example: longer ones lose their last turns, and one "
                         "whose prompt alone is longer is dropped (full-schema C4 "
                         "episodes reach 8-9k tokens; memory grows with it: 6,144 peaked "
                         "at ~14 GB on CPU)")
    ap.add_argument("--compact-tools", action="store_true",
                    help="tool docs as compact text in the system prompt")
    ap.add_argument("--brief-tools", action="store_true",
                    help="the shorter compact docs (`toolmaze eval --brief-tools`: response "
                         "fields by name, no glosses)")
    ap.add_argument("--checkpoint-every", type=int, default=0,
                    help="every N optimizer steps, save the model so far (LoRA merged) to "
                         "OUT/checkpoints/step-N, for learning curves by checkpoint (the last "
                         "step is OUT itself); 0: only the final model")
    ap.add_argument("--bf16", action="store_true",
                    help="bf16 mixed precision (GPUs; on a CPU without avx512_bf16 it was "
                         "slower than fp32: benchmarks/bench_sft_step.py)")
    ap.add_argument("--lora-r", type=int, default=0,
                    help="LoRA rank on every linear layer (peft); 0: full fine-tune. The "
                         "saved model has the adapter merged in")
    ap.add_argument("--lora-layers", type=int,
                    help="LoRA on the top N decoder layers only: the backward pass then "
                         "stops below them (default: every layer)")
    ap.add_argument("--lora-alpha", type=int,
                    help="LoRA scaling numerator (default: 2 x --lora-r)")
    ap.add_argument("--packing", action="store_true",
                    help="pack episodes into --max-length blocks (best-fit decreasing; "
                         "each episode attends only to itself, through position ids)")
    ap.add_argument("--focus-repeat", type=int, default=1,
                    help="curriculum: episodes of C1-C2 under P0-P2 appear this many times, "
                         "every other episode once (toolmaze_gym.training.curriculum)")
    ap.add_argument("--gradient-checkpointing", action="store_true",
                    help="recompute activations in the backward pass (less memory, slower)")
    ap.add_argument("--threads", type=int, help="CPU threads (default: TOOLMAZE_THREADS, "
                    "OMP_NUM_THREADS or the usable cores)")
    ap.add_argument("--logging-steps", type=int, default=1, help="log every N steps")
    return ap.parse_args(argv)


def load_data(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The training rows and a description of where they came from."""
    from toolmaze_gym.training import sft_data

    if args.data:
        ds = sft_data.load(Path(args.data))
        meta_file = Path(args.data) / "build.json"
        meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
        return ds, {"source": str(args.data), **meta}
    stats = sft_data.BuildStats()
    levels = [lv.strip().upper() for lv in args.levels.split(",") if lv.strip()]
    ds = sft_data.build_dataset("train", args.tasks, args.seed, levels, stats=stats)
    return ds, {"source": f"built: {args.tasks} train tasks ({','.join(levels)}), "
                          f"seed {args.seed}",
                **stats.to_dict()}


def curriculum_mix(dataset: Any, args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The rows as the curriculum's mix (``--focus-repeat``) and what the mix holds."""
    from toolmaze_gym.training import curriculum

    if args.focus_repeat < 1:
        sys.exit(f"sft_recovery: --focus-repeat {args.focus_repeat}: must be at least 1")
    plan = curriculum.Curriculum(focus_repeat=args.focus_repeat)
    mixed = curriculum.apply(dataset, plan, args.seed)
    counts = curriculum.cell_counts(mixed["level"], mixed["mode"])
    return mixed, {"mix_rows": len(mixed), "mix_per_cell": dict(sorted(counts.items())),
                   "focus_share": round(curriculum.focus_share(counts, plan), 4)}


def lora_config(args: argparse.Namespace, model: Any = None) -> Any:
    """The peft adapter for ``--lora-r`` (None: full fine-tune) on every linear layer of
    ``model`` but the output head; ``--lora-layers`` keeps the top N decoder layers.
    Why the top layers: no weight below them trains, so autograd builds no graph there
    and the backward pass skips them."""
    if args.lora_r < 0:
        sys.exit(f"sft_recovery: --lora-r {args.lora_r}: must be 0 (off) or a positive rank")
    if not args.lora_r:
        return None
    require_all(("peft",), "--lora-r")
    from peft import LoraConfig

    layers: dict[str, Any] = {"target_modules": "all-linear"}
    if args.lora_layers is not None:
        total = getattr(getattr(model, "config", None), "num_hidden_layers", None)
        if not total or not 0 < args.lora_layers <= total:
            sys.exit(f"sft_recovery: --lora-layers {args.lora_layers}: the model has "
                     f"{total} layers")
        layers = {"target_modules": linear_names(model),
                  "layers_to_transform": list(range(total - args.lora_layers, total)),
                  "layers_pattern": "layers"}
    return LoraConfig(r=args.lora_r, lora_alpha=args.lora_alpha or 2 * args.lora_r,
                      lora_dropout=0.0, task_type="CAUSAL_LM", **layers)


def linear_names(model: Any) -> list[str]:
    """The names of the model's linear layers inside its decoder layers (what peft's
    "all-linear" picks; peft wants a list when it is told which layers to adapt)."""
    import torch

    return sorted({name.rsplit(".", 1)[-1] for name, mod in model.named_modules()
                   if isinstance(mod, torch.nn.Linear) and ".layers." in f".{name}"})


def save_model(trainer: Any, tokenizer: Any, out: Path) -> None:
    """The trained model as a plain checkpoint (a LoRA adapter merged into its base), so
    `toolmaze eval --model` and GRPO load it like any other."""
    model = trainer.model
    if hasattr(model, "merge_and_unload"):
        model.merge_and_unload().save_pretrained(str(out))
    else:
        trainer.save_model(str(out))
    tokenizer.save_pretrained(str(out))


def checkpoints(every: int, out: Path, tokenizer: Any) -> Any:
    """A callback saving the model every ``every`` steps as a plain checkpoint under
    ``out/checkpoints/step-N``: a LoRA adapter is merged into a copy, so training goes
    on with the adapter as it was. The last step is not saved again: the final model
    in ``out`` is that checkpoint."""
    import copy

    from transformers import TrainerCallback

    class MergedCheckpoints(TrainerCallback):
        def on_step_end(self, args: Any, state: Any, control: Any, model: Any = None,
                        **kw: Any) -> None:
            if model is None or state.global_step % every or \
                    state.global_step >= state.max_steps:
                return
            where = out / "checkpoints" / f"step-{state.global_step}"
            plain = copy.deepcopy(model)
            if hasattr(plain, "merge_and_unload"):
                plain = plain.merge_and_unload()
            plain.save_pretrained(str(where))
            tokenizer.save_pretrained(str(where))
            (where / "train_log.json").write_text(json.dumps(state.log_history) + "\n")
            del plain

    return MergedCheckpoints()


def compact(dataset: Any, brief: bool = False) -> Any:
    """Rows whose tool docs are compact (or ``brief``) text in the system prompt (no
    ``tools``)."""
    from toolmaze_gym.agents.compact_tools import system_with_tools

    def move(row: dict[str, Any]) -> dict[str, Any]:
        return {"messages": system_with_tools(row["messages"], row["tools"], brief)}

    return dataset.map(move, remove_columns=["tools"])


def load_model(path: str | None) -> tuple[Any, Any, Path]:
    """Model and tokenizer, with a chat template that renders tool calls."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from toolmaze_gym.agents.models import default_model_dir, tool_chat_template

    where = Path(path).expanduser() if path else default_model_dir()
    if not (where / "config.json").is_file():
        sys.exit(f"sft_recovery: {where} is not a local transformers checkpoint "
                 "(no config.json); models are never downloaded")
    tokenizer = AutoTokenizer.from_pretrained(where)
    own = tokenizer.chat_template
    if not (isinstance(own, str) and "tool_calls" in own):
        if "<|im_start|>" not in tokenizer.get_vocab():
            sys.exit(f"sft_recovery: the chat template of {where} does not render tool calls "
                     "and the model does not use ChatML tokens")
        tokenizer.chat_template = tool_chat_template()
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32)
    return model, tokenizer, where


def sft_config(args: argparse.Namespace, rows: int | None = None) -> Any:
    """TRL's config for these flags; ``rows`` (the mix's size) sizes the warm-up when
    ``--epochs`` sets the length."""
    import math

    import torch
    from trl import SFTConfig

    length = {"max_steps": args.max_steps}
    steps = args.max_steps
    if args.epochs:
        length = {"max_steps": -1, "num_train_epochs": args.epochs}
        steps = math.ceil(args.epochs * (rows or 1) / (args.batch_size * args.grad_accum))
    return SFTConfig(
        output_dir=args.out, **length,
        per_device_train_batch_size=args.batch_size,
        gradient_accumulation_steps=args.grad_accum, learning_rate=args.lr,
        warmup_steps=round(args.warmup_ratio * steps), lr_scheduler_type="cosine",
        assistant_only_loss=True, max_length=args.max_length, packing=args.packing,
        packing_strategy="bfd",
        bf16=args.bf16, activation_checkpointing=args.gradient_checkpointing,
        use_cpu=not torch.cuda.is_available(), logging_steps=args.logging_steps,
        save_strategy="no", report_to="none", seed=args.seed, dataloader_num_workers=0)


def model_card(args: argparse.Namespace, base: Path, data: dict[str, Any], rows: int,
               history: list[dict[str, Any]], seconds: float, steps: int) -> str:
    losses = [h["loss"] for h in history if "loss" in h]
    hyper = {k: getattr(args, k) for k in (
        "max_steps", "epochs", "batch_size", "grad_accum", "lr", "warmup_ratio", "max_length",
        "compact_tools", "brief_tools", "bf16", "lora_r", "lora_layers", "packing",
        "focus_repeat", "checkpoint_every", "seed")}
    counts = data.get("kept_per_cell", {})
    return "\n".join([
        f"# {Path(args.out).name}", "",
        f"SFT of `{base}` on ToolMaze expert recovery trajectories (the careful agent: "
        "retries transient errors, checks responses against the documented invariants, "
        "reroutes after permanent faults, aborts honestly when nothing is left).", "",
        f"* data: {data.get('source')}; {rows} episodes"
        + (f", per cell {json.dumps(counts)}" if counts else ""),
        f"* curriculum mix: {data.get('mix_rows')} rows, focus share (C1-C2 P0-P2) "
        f"{data.get('focus_share')}, per cell {json.dumps(data.get('mix_per_cell', {}))}",
        "* loss: assistant turns only (TRL SFTTrainer, assistant_only_loss)",
        f"* steps: {steps}; wall time {seconds:.0f} s",
        f"* hyper-parameters: {json.dumps(hyper)}",
        f"* loss: first {losses[0]:.4f}, last {losses[-1]:.4f}" if losses else "* loss: -",
        "", "Evaluate: `toolmaze eval --agent hf --model THIS_DIR ...`.", ""])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    configure_cpu_threads(args.threads)  # before torch loads (passive OpenMP wait)
    require_all(TRAINING, "training")  # before any work: one line with the pip command
    if not args.model:
        from toolmaze_gym.agents.models import check_default_model

        check_default_model()
    from trl import SFTTrainer

    dataset, data = load_data(args)
    rows = len(dataset)
    dataset, mix = curriculum_mix(dataset, args)
    data = {**data, **mix}
    if args.compact_tools or args.brief_tools:
        dataset = compact(dataset, args.brief_tools)
    model, tokenizer, base = load_model(args.model)
    peft_config = lora_config(args, model)
    if args.checkpoint_every < 0:
        sys.exit(f"sft_recovery: --checkpoint-every {args.checkpoint_every}: must be 0 (off) "
                 "or a number of steps")
    trainer = SFTTrainer(model=model, args=sft_config(args, len(dataset)),
                         train_dataset=dataset, processing_class=tokenizer,
                         peft_config=peft_config)
    if args.checkpoint_every:
        trainer.add_callback(checkpoints(args.checkpoint_every, Path(args.out), tokenizer))
    started = time.monotonic()
    trainer.train()
    seconds = time.monotonic() - started
    out = Path(args.out)
    save_model(trainer, tokenizer, out)
    history = trainer.state.log_history
    (out / "train_log.json").write_text(json.dumps(history, indent=1) + "\n")
    steps = trainer.state.global_step
    (out / "README.md").write_text(model_card(args, base, data, rows, history, seconds, steps))
    print(f"saved {out} after {steps} steps in {seconds:.0f} s", file=sys.stderr)
    return {"out": out, "history": history, "seconds": seconds}


if __name__ == "__main__":
    exit_on_missing("sft_recovery", main)
