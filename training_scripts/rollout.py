"""Baseline rollouts: the scripted agents on the reference suite and a local Hugging Face
model on a stratified sample, then the paper's tables, figures and a trajectory viewer.

The same evaluation as `make eval`, written out over the library:

    python training_scripts/rollout.py --out runs/rollout
    python training_scripts/rollout.py --model path/to/sft-checkpoint --limit 2
    python training_scripts/rollout.py --model path/to/sft-checkpoint --strict-calls
"""

from __future__ import annotations

import argparse
from pathlib import Path

from toolmaze_gym.agents.threads import configure_cpu_threads
from toolmaze_gym.cli import HelpFormatter
from toolmaze_gym.optional import HF_STACK, exit_on_missing, require_all

configure_cpu_threads()  # before torch is imported (passive OpenMP wait, thread count)

from toolmaze_gym.report import build_report  # noqa: E402
from toolmaze_gym.runner import RunConfig, Selection, run  # noqa: E402

BASELINES = ("oracle", "validator", "retry", "naive", "random")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The flags; ``--help`` shows each default."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)
    ap.add_argument("--out", default="runs/rollout", help="one run directory per agent here")
    ap.add_argument("--model", help="local HF checkpoint (default: embedded SmolLM2-135M)")
    ap.add_argument("--limit", type=int, default=1, help="model tasks per (C, P) cell")
    ap.add_argument("--max-new-tokens", type=int, default=48,
                    help="the model's token cap per turn")
    ap.add_argument("--baselines", default=",".join(BASELINES),
                    help="scripted agents run on the whole suite (comma-separated)")
    ap.add_argument("--strict-calls", action="store_true",
                    help="the model's replies held to one valid call of a shown tool (or "
                    "finish/abort), as `toolmaze eval --strict-calls`; its row is named "
                    "'<label> (strict)'")
    ap.add_argument("--no-model", action="store_true", help="scripted baselines only")
    return ap.parse_args(argv)


def check_model(args: argparse.Namespace) -> None:
    """Fail in the first second, not after the baselines' runs, when the model's
    packages are missing (one line naming the pip command)."""
    if args.no_model:
        return
    require_all(HF_STACK, "the model part (--no-model skips it)")
    if not args.model:
        from toolmaze_gym.agents.models import check_default_model

        check_default_model()


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    check_model(args)
    out = Path(args.out)
    runs = []

    for agent in filter(None, args.baselines.split(",")):  # the whole suite, every mode
        run(RunConfig(agent), out / agent, resume=True)
        runs.append(out / agent)

    if not args.no_model:  # every (C, P) cell, standard and failure-aware prompts
        options = {"compact_tools": True, "max_new_tokens": args.max_new_tokens}
        if args.model:
            options["model"] = args.model
        if args.strict_calls:
            options["strict_calls"] = True
        label = Path(args.model).name if args.model else "smollm2-135m"
        folder = out / (label + ("-strict" if args.strict_calls else ""))
        sample = Selection(limit=args.limit, prompts=["standard", "failure_aware"])
        summary = run(RunConfig("hf", options, label=label, selection=sample),
                      folder, resume=True)
        print(f"{label}: {summary.episodes} episodes in {summary.wall_s:.0f} s, "
              f"{100 * summary.outside_share:.1f}% of the time outside the model")
        runs.append(folder)

    # the model ran a sample, the baselines the whole suite: the report says they differ
    report = build_report(runs, out / "report", allow_mixed=True)
    print(f"report: {report.markdown}\nviewer: {report.viewer}")


if __name__ == "__main__":
    exit_on_missing("rollout", main)
