"""The held-out before/after of training runs: one table, and the paired TSR lift.

Every run must be a ``toolmaze eval`` run of the same tasks, modes and prompts (the
record keys pair them); the first is the baseline (the base model). Grades are
derived again from the steps (as ``toolmaze report`` does, never the stored cache).
Each run gets a row: episodes, valid-call rate, TSR and PRR with 95 % bootstrap
intervals, RC, loops cut, actions per episode, the mean progress along a valid path
(``toolmaze_gym.lift.run_figures``, ``episode_progress``), and every run after the
first its paired TSR lift over the first (``toolmaze_gym.lift.paired_lift``); below
the table, each run's paired TSR and progress lifts, and with ``--cells`` the runs
split by level and mode (``toolmaze_gym.lift.cell_table``)::

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
          progress: list[dict[str, float]] | None = None) -> str:
    """The Markdown table of ``runs`` (regraded records), the first as the baseline;
    with ``progress`` (per run, each episode's path progress by record key) its mean
    too."""
    from toolmaze_gym.lift import FIGURE_HEAD, paired_lift, run_figures

    head = ["run", *FIGURE_HEAD, "TSR lift vs first, points [95 % CI]"]
    rows = []
    for k, (name, recs) in enumerate(zip(names, runs, strict=True)):
        lift = "" if k == 0 else _lift_cell(paired_lift(runs[0], recs, seed=seed))
        values = ([progress[k][str(r["key"])] for r in recs] if progress is not None
                  else None)
        rows.append([name, *run_figures(recs, seed=seed, progress=values).cells(), lift])
    return "\n".join(["| " + " | ".join(r) + " |"
                      for r in [head, ["---"] * len(head), *rows]])


def _progress_by_key(records: list[dict], tasks: dict, sim) -> dict[str, float]:
    from toolmaze_gym.lift import episode_progress

    return {str(r["key"]): episode_progress(r, tasks[r["task_id"]], sim) for r in records}


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
    ap.add_argument("--cells", action="store_true",
                    help="also print each run's successes and valid calls per level and mode")
    ns = ap.parse_args(argv)
    if len(ns.runs) < 2:
        sys.exit("lift: give at least two runs (the base model's first)")
    from toolmaze_gym.cli.common import UsageError, load_tasks
    from toolmaze_gym.corpus import Simulator
    from toolmaze_gym.lift import cell_table, paired_difference, paired_lift
    from toolmaze_gym.report.records import read_source
    from toolmaze_gym.report.regrade import regrade
    from toolmaze_gym.runner import RunError

    try:
        tasks = {t.id: t for t in load_tasks(ns.tasks)}
        runs = [regrade(read_source(Path(d)), lambda r: (tasks[r["task_id"]], None)).records
                for d in ns.runs]
        names = [Path(d).name for d in ns.runs]
        sim = Simulator()
        progress = [_progress_by_key(recs, tasks, sim) for recs in runs]
        print(table(names, runs, ns.seed, progress))
        for k in range(1, len(runs)):
            print(f"\n{names[k]}: " + paired_lift(runs[0], runs[k], seed=ns.seed).line())
            print(f"{names[k]}: " + paired_difference(progress[0], progress[k], seed=ns.seed)
                  .line("progress"))
        if ns.cells:
            print("\n" + cell_table(names, runs))
    except (UsageError, RunError, ValueError, KeyError, OSError) as exc:
        sys.exit(f"lift: {exc}")
    return 0


if __name__ == "__main__":
    main()
