"""How many GRPO groups would carry an advantage: the share of groups whose rewards differ.

A GRPO group is the G rollouts of one prompt; when all G get the same reward the
group's advantages are 0 and it teaches nothing. This reads an eval run made with
``--repeats G`` of a sampling agent (each repeat is one member of the group of its
(task, mode, prompt)) and scores every trajectory four ways: the terminal reward,
the partial credit as it was before repeats were priced (valid share counting
repeated calls, no penalty), then with repeats priced (they earn no call credit and
cost ``PARTIAL.repeat`` each), and today's partial credit, which adds the named-tool
rung (a call naming a shown tool with wrong arguments). It prints the share of groups
with non-zero reward variance under each, and how the repeat rule moved looping
rollouts.

Run (seconds with a scripted agent; a model's run takes what its eval takes, e.g.
``--agent hf --model runs/lift/sft --temperature 1.0 --brief-tools``)::

    toolmaze generate --split train --n 12 --level C1 --level C2 --out T.jsonl
    toolmaze eval --agent random --tasks T.jsonl --mode P0,P1,P2 --repeats 4 \\
        --out runs/gv-random --no-report --quiet
    python benchmarks/grpo_group_variance.py runs/gv-random --tasks T.jsonl
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from toolmaze_gym.reward import PARTIAL, partial_reward, path_progress, repeat_indices
from toolmaze_gym.reward import terminal_reward as terminal

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Step
from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.training.environment import named_share, valid_share

RULES = ("terminal", "partial (repeats paid)", "partial (repeats priced)",
         "partial + named rung (today)")


def rewards(record: dict[str, Any], task: Any, sim: Simulator) -> dict[str, float]:
    """The record's reward under the terminal rule and each partial credit so far."""
    steps = [Step.from_dict(s) for s in record["steps"]]
    profile = profile_for(task, record["mode"], sim)
    progress = path_progress(sim.corpus, task, profile, steps)
    grade = record["grade"]
    repeats = repeat_indices(steps)
    valid = valid_share(record, repeats)
    unnamed = PARTIAL.__class__(named=0.0)
    return {"terminal": terminal(grade),
            "partial (repeats paid)": partial_reward(grade, valid_share(record), progress,
                                                     PARTIAL.__class__(named=0.0, repeat=0.0)),
            "partial (repeats priced)": partial_reward(grade, valid, progress, unnamed,
                                                       repeats=len(repeats)),
            "partial + named rung (today)": partial_reward(
                grade, valid, progress, PARTIAL, repeats=len(repeats),
                named=named_share(record, repeats)),
            "repeats": float(len(repeats))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="run directory of `toolmaze eval --repeats G`")
    ap.add_argument("--tasks", required=True, help="the JSONL task file the run played")
    ns = ap.parse_args()
    from toolmaze_gym.cli.common import load_tasks
    from toolmaze_gym.report.records import read_source

    tasks = {t.id: t for t in load_tasks(ns.tasks)}
    sim = Simulator()
    groups: dict[tuple[str, str, str], list[dict[str, float]]] = defaultdict(list)
    for _, rec in read_source(Path(ns.run)):
        key = (rec["task_id"], rec["mode"], rec.get("prompt", "standard"))
        groups[key].append(rewards(rec, tasks[rec["task_id"]], sim))
    sizes = {len(g) for g in groups.values()}
    print(f"{len(groups)} groups of {sorted(sizes)} rollouts from {ns.run}")
    for rule in RULES:
        varied = sum(statistics.pstdev(r[rule] for r in g) > 1e-9 for g in groups.values())
        print(f"  {rule:30s}: {varied}/{len(groups)} groups with non-zero variance "
              f"({varied / len(groups):.0%})")
    looped = [r for g in groups.values() for r in g if r["repeats"]]
    if looped:
        drop = statistics.mean(r["partial (repeats paid)"] - r["partial (repeats priced)"]
                               for r in looped)
        print(f"  rollouts with repeated calls: {len(looped)}; the repeat rule lowered their "
              f"reward by {drop:.3f} on average")


if __name__ == "__main__":
    main()
