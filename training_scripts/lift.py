"""The held-out lift of a trained model over its base: paired TSR difference, 95 % CI.

Both runs must be ``toolmaze eval`` runs of the same tasks, modes and prompts (the
record keys pair them). Grades are derived again from the steps (as ``toolmaze
report`` does, never the stored cache), then ``toolmaze_gym.lift.paired_lift``
bootstraps the per-episode differences::

    python training_scripts/lift.py runs/train-lift/eval/base runs/train-lift/eval/sft \\
        --tasks runs/train-lift/dev.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from toolmaze_gym.cli import HelpFormatter


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)
    ap.add_argument("before", help="run directory of the base model")
    ap.add_argument("after", help="run directory of the trained model")
    ap.add_argument("--tasks", required=True, help="the JSONL task file both runs played")
    ap.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    ns = ap.parse_args(argv)
    from toolmaze_gym.cli.common import UsageError, load_tasks
    from toolmaze_gym.lift import paired_lift
    from toolmaze_gym.report.records import read_source
    from toolmaze_gym.report.regrade import regrade
    from toolmaze_gym.runner import RunError

    try:
        tasks = {t.id: t for t in load_tasks(ns.tasks)}
        runs = [regrade(read_source(Path(d)), lambda r: (tasks[r["task_id"]], None)).records
                for d in (ns.before, ns.after)]
        print(paired_lift(*runs, seed=ns.seed).line())
    except (UsageError, RunError, ValueError, KeyError, OSError) as exc:
        sys.exit(f"lift: {exc}")
    return 0


if __name__ == "__main__":
    main()
