"""GRPO with the ToolMaze environment's reward (TRL ``GRPOTrainer``).

Reward (``--reward``): ``partial`` (default) is the terminal reward of the graded
episode (success, recovery, recovery cost) plus partial credit
(``toolmaze_gym.reward.partial``): 0.1 x the share of actions that were calls naming
a shown tool (any arguments) + 0.2 x the share that were valid calls to a shown tool
(finish/abort excluded) + 0.3 x the share of the task's fewest-steps cost the calls
removed (progress along a valid path); at most 0.6 in all, below a success; a call
repeated after a clean answer is not a valid call and costs 0.1
(``toolmaze_gym.reward.repeats``), so looping never pays. ``terminal`` is the
terminal reward alone, which is 0 for every rollout of a model that cannot finish
tasks yet, so GRPO's groups have no variance and no advantage. The potential-based
shaping term is no alternative: it sums to 0 over every episode by design. The logs'
``reward_std`` shows whether groups varied.

``--strict-calls`` holds every generated turn to one call of the episode's own tools
(or finish/abort), as ``toolmaze eval --strict-calls`` does: in TRL's tool loop a
logits processor on transformers' ``generate``
(``toolmaze_gym.training.strict_rollouts``), with ``--use-vllm`` the ``rollout_func``
path's vLLM structured outputs (``toolmaze_gym.training.vllm_rollout``); TRL's tool
loop on vLLM cannot hold each row to its own tools and is refused.

``--compact-tools`` shows the tools exactly as ``toolmaze eval --compact-tools``
does: compact docs in the system prompt, the env's order (task tools alphabetical,
then finish, abort), and no JSON ``<tools>`` block; ``--brief-tools`` likewise shows
the brief docs.

Rollout paths (``--reward`` applies to all three, through one function,
``toolmaze_gym.training.environment.episode_reward``):

* default (CPU or GPU): ``environment_factory`` — TRL's own multi-turn tool loop
  over ``toolmaze_gym.training.environment`` (one generated environment class per
  tool set, chosen per row; the tools are the task's tools plus finish/abort);
* ``--openenv-url URL[,URL...]``: the same tool loop, with every episode played on a
  ToolMaze OpenEnv server (``toolmaze serve --protocol openenv``; TRL's
  ``environment_factory`` for OpenEnv, ``toolmaze_gym.training.openenv_environment``):
  same prompts, tools and reward; several URLs spread the rollouts over the servers;
* ``--use-vllm``: a ``rollout_func`` over ``ToolMazePool``
  (``toolmaze_gym.training.vllm_rollout``): every live episode's turn in one vLLM
  call, in ``colocate`` mode (vLLM inside the training processes) or ``server``
  mode (``trl vllm-serve`` on separate GPUs); ``--rollout env`` keeps TRL's tool
  loop on vLLM instead.

CPU defaults: fp32, no gradient checkpointing, ``beta=0`` (no reference model),
one rollout per forward/backward pass and four passes per step (sized for 24 GB:
four rollouts per pass ran out of memory), threads from ``configure_cpu_threads``
(called before torch loads); ``--help`` lists every default::

    python training_scripts/grpo_recovery.py --model runs/sft --max-steps 2 --out runs/grpo

Multi-GPU / multi-node: ``accelerate launch --config_file
training_scripts/configs/<config>.yaml training_scripts/grpo_recovery.py --use-vllm
--bf16 ...`` (see training_scripts/configs/README.md).
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
from toolmaze_gym.optional import TRAINING, exit_on_missing, require_all, require_installed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The flags; ``--help`` shows each default. The defaults fit 2 CPU cores and 24 GB
    (the ``make train-demo`` GRPO stage): one rollout per forward/backward pass, four
    passes per step (one group of G=4); four rollouts per pass ran out of memory. One
    step at these defaults (full tool schemas) peaked at 15.1 GB RSS (2026-12-02)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)
    ap.add_argument("--model", help="local HF checkpoint, e.g. an SFT output "
                    "(default: embedded SmolLM2-135M)")
    ap.add_argument("--out", required=True, help="where the trained model is saved")
    ap.add_argument("--split", default="train", choices=["train", "dev"],
                    help="procedural split the tasks come from")
    ap.add_argument("--tasks", type=int, default=8, help="procedural tasks to train on")
    ap.add_argument("--levels", default="C1", help="levels of the tasks (comma-separated)")
    ap.add_argument("--modes", default="P0,P1,P2,P3,P4", help="modes (comma-separated)")
    ap.add_argument("--prompts", default="standard,failure_aware",
                    help="system prompt variants (comma-separated)")
    ap.add_argument("--seed", type=int, default=0, help="task stream and training seed")
    ap.add_argument("--max-steps", type=int, default=2, help="optimizer steps")
    ap.add_argument("--num-generations", type=int, default=4, help="rollouts per prompt (G)")
    ap.add_argument("--batch-size", type=int, default=1,
                    help="rollouts per device per forward/backward pass (memory grows with "
                    "it); batch-size x grad-accum rollouts are generated per step (a "
                    "multiple of G)")
    ap.add_argument("--grad-accum", type=int, default=4,
                    help="passes per optimizer step")
    ap.add_argument("--lr", type=float, default=1e-6, help="learning rate")
    ap.add_argument("--beta", type=float, default=0.0, help="KL weight (>0 loads a "
                    "reference model)")
    ap.add_argument("--temperature", type=float, default=1.0,
                    help="sampling temperature (1.0: rollouts of one prompt differ)")
    ap.add_argument("--reward", choices=["partial", "terminal"], default="partial",
                    help="partial: terminal reward + named-tool and valid-call shares + progress "
                    "(see the module docstring); terminal: success/recovery/cost only")
    ap.add_argument("--compact-tools", action="store_true",
                    help="tool docs as compact text in the system prompt, as `toolmaze "
                    "eval --compact-tools` shows them")
    ap.add_argument("--brief-tools", action="store_true",
                    help="the shorter compact docs, as `toolmaze eval --brief-tools` shows "
                    "them")
    ap.add_argument("--max-completion-length", type=int, default=512,
                    help="tokens per rollout after the prompt (calls and tool results; "
                    "memory grows with it)")
    ap.add_argument("--max-episode-steps", type=int, default=12,
                    help="agent actions per episode (tool-calling iterations; the tokens "
                    "are capped by --max-completion-length)")
    ap.add_argument("--openenv-url", metavar="URL[,URL...]", help="play the episodes on "
                    "this ToolMaze OpenEnv server (toolmaze serve --protocol openenv) instead "
                    "of in process; several URLs, comma-separated, spread the rollouts over "
                    "them (replicas, or the ports of toolmaze serve --workers N) (default: "
                    "in process)")
    ap.add_argument("--strict-calls", action="store_true",
                    help="hold every generated turn to one call of the episode's own tools "
                    "with arguments valid for their schemas (or finish/abort), as `toolmaze "
                    "eval --strict-calls` does: a logits processor in TRL's tool loop "
                    "(transformers generation), vLLM structured outputs with --rollout pool")
    ap.add_argument("--bf16", action="store_true", help="bf16 mixed precision (GPUs)")
    ap.add_argument("--gradient-checkpointing", action="store_true",
                    help="recompute activations in the backward pass (less memory, slower)")
    ap.add_argument("--use-vllm", action="store_true", help="generate with vLLM (GPUs)")
    ap.add_argument("--vllm-mode", default="colocate", choices=["colocate", "server"],
                    help="colocate: vLLM inside the training processes; server: `trl "
                    "vllm-serve` on other GPUs")
    ap.add_argument("--vllm-server-host", default="127.0.0.1", help="server mode: its host")
    ap.add_argument("--vllm-server-port", type=int, default=8000, help="server mode: its port")
    ap.add_argument("--vllm-gpu-memory-utilization", type=float, default=0.3,
                    help="colocate mode: share of GPU memory vLLM may take")
    ap.add_argument("--rollout", choices=["env", "pool"],
                    help="env: TRL's tool loop (environment_factory); pool: rollout_func over "
                         "ToolMazePool (needs --use-vllm). Default: pool with vLLM, else env")
    ap.add_argument("--threads", type=int, help="CPU threads (default: TOOLMAZE_THREADS, "
                    "OMP_NUM_THREADS or the usable cores)")
    return ap.parse_args(argv)


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def dataset_and_factories(args: argparse.Namespace) -> tuple[Any, dict[str, type]]:
    from toolmaze_gym.faults.store import profiles_buildable
    from toolmaze_gym.tasks.suites import generate_split
    from toolmaze_gym.training.environment import configured, grpo_dataset

    levels = [lv.upper() for lv in _split(args.levels)]
    tasks = list(generate_split(args.split, args.tasks, seed=args.seed, levels=levels,
                                check=profiles_buildable))
    dataset, factories = grpo_dataset(tasks, _split(args.modes), _split(args.prompts),
                                      compact_tools=args.compact_tools,
                                      brief_tools=args.brief_tools)
    if args.reward == "terminal":
        factories = configured(factories, partial_credit=None)
    if args.openenv_url:
        from toolmaze_gym.training.openenv_environment import over_openenv

        factories = over_openenv(factories, args.openenv_url)
    return dataset, factories


def grpo_config(args: argparse.Namespace) -> Any:
    import torch
    from trl import GRPOConfig

    vllm = {}
    if args.use_vllm:
        vllm = {"use_vllm": True, "vllm_mode": args.vllm_mode,
                "vllm_gpu_memory_utilization": args.vllm_gpu_memory_utilization}
        if args.vllm_mode == "server":
            vllm |= {"vllm_server_host": args.vllm_server_host,
                     "vllm_server_port": args.vllm_server_port}
    return GRPOConfig(
        output_dir=args.out, max_steps=args.max_steps, learning_rate=args.lr,
        per_device_train_batch_size=args.batch_size, gradient_accumulation_steps=args.grad_accum,
        num_generations=args.num_generations, beta=args.beta, temperature=args.temperature,
        max_completion_length=args.max_completion_length,
        max_tool_calling_iterations=args.max_episode_steps, bf16=args.bf16,
        activation_checkpointing=args.gradient_checkpointing,
        use_cpu=not torch.cuda.is_available(), logging_steps=1, save_strategy="no",
        report_to="none", seed=args.seed, shuffle_dataset=True, **vllm)


def build_trainer(args: argparse.Namespace, trainer_cls: Any = None) -> Any:
    """The configured ``GRPOTrainer`` (``trainer_cls``: a subclass, e.g. in tests)."""
    from toolmaze_gym.reward import DEFAULT, PARTIAL
    from trl import GRPOTrainer

    from toolmaze_gym.training.environment import close_episodes, hide_template_tools
    from toolmaze_gym.training.vllm_rollout import make_rollout_func, rollout_reward

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from sft_recovery import load_model

    rollout = args.rollout or ("pool" if args.use_vllm else "env")
    if rollout == "pool" and not args.use_vllm:
        sys.exit("grpo_recovery: --rollout pool generates with vLLM; add --use-vllm")
    if rollout == "pool" and args.openenv_url:
        sys.exit("grpo_recovery: --openenv-url plays TRL's tool loop; drop --rollout pool")
    if args.strict_calls and rollout == "env" and args.use_vllm:
        sys.exit("grpo_recovery: --strict-calls with vLLM needs --rollout pool (TRL's tool "
                 "loop gives vLLM one regex for the whole batch, not each episode's tools)")
    dataset, factories = dataset_and_factories(args)
    model, tokenizer, _ = load_model(args.model)
    tokenizer.padding_side = "left"
    trainer_cls = trainer_cls or GRPOTrainer
    common = {"model": model, "args": grpo_config(args), "train_dataset": dataset,
              "processing_class": tokenizer}
    if rollout == "pool":
        credit = None if args.reward == "terminal" else PARTIAL
        return trainer_cls(reward_funcs=[rollout_reward], rollout_func=make_rollout_func(
            args.max_episode_steps, args.max_completion_length, DEFAULT,
            partial_credit=credit, strict_calls=args.strict_calls), **common)
    if args.strict_calls:
        from toolmaze_gym.training.strict_rollouts import strict_trainer

        trainer_cls = strict_trainer(trainer_cls)
    trainer = trainer_cls(reward_funcs=[close_episodes], environment_factory=factories,
                          **common)
    if args.compact_tools or args.brief_tools:
        hide_template_tools(trainer)
    return trainer


def main(argv: list[str] | None = None, trainer_cls: Any = None) -> dict[str, Any]:
    args = parse_args(argv)
    configure_cpu_threads(args.threads)  # before torch loads (passive OpenMP wait)
    require_all(TRAINING, "training")  # before any work: one line with the pip command
    if args.use_vllm:
        require_installed(["vllm"], "--use-vllm")
    if args.strict_calls:
        require_installed(["xgrammar"], "--strict-calls")
    if args.openenv_url:
        require_all(["openenv"], "--openenv-url")
        from toolmaze_gym.training.openenv_environment import server_urls

        try:
            server_urls(args.openenv_url)
        except ValueError as exc:  # before a model is loaded
            sys.exit(f"grpo_recovery: --openenv-url: {exc}")
    if not args.model:
        from toolmaze_gym.agents.models import check_default_model

        check_default_model()
    if (args.batch_size * args.grad_accum) % args.num_generations:
        # TRL generates batch-size x grad-accum rollouts per step (per device).
        sys.exit("grpo_recovery: --batch-size x --grad-accum must be a multiple of "
                 "--num-generations")
    trainer = build_trainer(args, trainer_cls)
    started = time.monotonic()
    trainer.train()
    seconds = time.monotonic() - started
    out = Path(args.out)
    trainer.save_model(str(out))
    trainer.processing_class.save_pretrained(str(out))
    history = trainer.state.log_history
    (out / "train_log.json").write_text(json.dumps(history, indent=1) + "\n")
    (out / "README.md").write_text(model_card(args, history, seconds))
    print(f"saved {out} after {args.max_steps} GRPO steps in {seconds:.0f} s", file=sys.stderr)
    return {"out": out, "history": history, "seconds": seconds, "trainer": trainer}


def model_card(args: argparse.Namespace, history: list[dict[str, Any]], seconds: float) -> str:
    rewards = [h["reward"] for h in history if "reward" in h]
    stds = [h["reward_std"] for h in history if "reward_std" in h]
    hyper = {k: getattr(args, k) for k in ("max_steps", "num_generations", "batch_size",
                                           "grad_accum", "lr", "beta", "temperature",
                                           "max_completion_length", "max_episode_steps",
                                           "reward", "compact_tools", "brief_tools", "use_vllm",
                                           "strict_calls", "seed")}
    reward = ("terminal reward + partial credit (0.1 x named-tool share + 0.2 x valid-call "
              "share + 0.3 x progress along a valid path - 0.1 x repeated calls)"
              if args.reward == "partial"
              else "terminal reward")
    return "\n".join([
        f"# {Path(args.out).name}", "",
        f"GRPO of `{args.model or 'SmolLM2-135M-Instruct (embedded)'}` with the ToolMaze "
        f"environment reward: {reward} of the graded episode (terminal: success, "
        "recovery, recovery cost).", "",
        f"* tasks: {args.tasks} procedural {args.split} tasks, levels {args.levels}, modes "
        f"{args.modes}, prompts {args.prompts}",
        f"* steps: {args.max_steps}; wall time {seconds:.0f} s",
        f"* hyper-parameters: {json.dumps(hyper)}",
        f"* mean reward per step: {[round(r, 4) for r in rewards]}",
        f"* reward std within groups per step: {[round(r, 4) for r in stds]}", ""])


if __name__ == "__main__":
    exit_on_missing("grpo_recovery", main)
