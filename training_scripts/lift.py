"""The held-out before/after of training runs: one table, and the paired TSR lift.

Every run must be a ``toolmaze eval`` run of the same tasks, modes and prompts (the
record keys pair them); the first is the baseline (the base model). Grades are
derived again from the steps (as ``toolmaze report`` does, never the stored cache).
Each run gets a row: episodes, valid-call rate, TSR and PRR with 95 % bootstrap
intervals, RC, loops cut, actions per episode, the mean progress along a valid path
(``toolmaze_gym.lift.run_figures``, ``episode_progress``), and every run after the
first its paired TSR lift over the first (``toolmaze_gym.lift.paired_lift``)::

    python training_scripts/lift.py runs/train-lift/eval/base runs/train-lift/eval/sft \\
        --tasks runs/train-lift/dev.jsonl

Checkpoints evaluated the same way give the learning curve in the same table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from toolmaze_gym.cli import HelpFormatter


def table(names: list[str], runs: list[list[dict]], seed: int = 0,
          tasks: dict | None = None) -> str:
    """The Markdown table of ``runs`` (regraded records), the first as the baseline;
    with ``tasks`` (by id) each run's mean path progress too."""
    from toolmaze_gym.lift import FIGURE_HEAD, episode_progress, paired_lift, run_figures

    sim = None
    if tasks is not None:
        from toolmaze_gym.corpus import Simulator

        sim = Simulator()
    head = ["run", *FIGURE_HEAD, "TSR lift vs first, points [95 % CI]"]
    rows = []
    for k, (name, recs) in enumerate(zip(names, runs, strict=True)):
        lift = "" if k == 0 else _lift_cell(paired_lift(runs[0], recs, seed=seed))
        progress = ([episode_progress(r, tasks[r["task_id"]], sim) for r in recs]
                    if sim is not None else None)
        rows.append([name, *run_figures(recs, seed=seed, progress=progress).cells(), lift])
    return "\n".join(["| " + " | ".join(r) + " |"
                      for r in [head, ["---"] * len(head), *rows]])


def _lift_cell(lift) -> str:
    lo, hi = lift.ci
    text = f"{100 * lift.lift:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    return text + (f" ({lift.unpaired} unpaired)" if lift.unpaired else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)
    ap.add_argument("runs", nargs="+", help="run directories, the base model's first")
    ap.add_argument("--tasks", required=True, help="the JSONL task file the runs played")
    ap.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    ns = ap.parse_args(argv)
    if len(ns.runs) < 2:
        sys.exit("lift: give at least two runs (the base model's first)")
    from toolmaze_gym.cli.common import UsageError, load_tasks
    from toolmaze_gym.lift import paired_lift
    from toolmaze_gym.report.records import read_source
    from toolmaze_gym.report.regrade import regrade
    from toolmaze_gym.runner import RunError

    try:
        tasks = {t.id: t for t in load_tasks(ns.tasks)}
        runs = [regrade(read_source(Path(d)), lambda r: (tasks[r["task_id"]], None)).records
                for d in ns.runs]
        print(table([Path(d).name for d in ns.runs], runs, ns.seed, tasks))
        for d, recs in zip(ns.runs[1:], runs[1:], strict=True):
            print(f"\n{Path(d).name}: " + paired_lift(runs[0], recs, seed=ns.seed).line())
    except (UsageError, RunError, ValueError, KeyError, OSError) as exc:
        sys.exit(f"lift: {exc}")
    return 0


if __name__ == "__main__":
    main()
