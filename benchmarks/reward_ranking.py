"""Which policy does the reward prefer? Mean reward per scripted policy over a whole suite.

A reward is a ranking of behaviours before it is a number: a policy trained on it
learns whatever it ranks first. This plays every honest scripted baseline
(``oracle``, ``validator``, ``retry``, ``naive``, ``random``) and every reward hack
(``toolmaze_gym.agents.hacks``: finish or abort at once, call every tool, retry
forever, replay the plan blind) on every instance of a suite (task × mode, P0–P4)
and prints, per policy, TSR, the share of episodes that met a fault, and the mean
reward under four rules: the default terminal reward before issue 31 (an exposed
failure cost 0.5) and now (every failure 0), and the partial credit GRPO trains on
(terminal + named/valid/progress bonus − repeats) over each.

Run (the whole default suite, 2,000 instances per policy, 20,000 episodes: about 50 s
of CPU, 2 min 11 s wall on the shared 2-core VM)::

    python benchmarks/reward_ranking.py
    python benchmarks/reward_ranking.py --per-level 10 --policies naive,finish_at_once

``--per-level N`` plays N tasks of each level (evenly spaced through the suite),
``--json FILE`` writes the figures, ``--records DIR`` every trajectory record.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from toolmaze_gym.reward import (
    BEFORE_ISSUE_31,
    DEFAULT,
    PARTIAL,
    partial_reward,
    path_progress,
    repeat_indices,
    terminal_reward,
)

from toolmaze_gym.agents.hacks import HACKS, make_hack
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Step
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite
from toolmaze_gym.training.environment import named_share, valid_share

HONEST = ("oracle", "validator", "retry", "naive", "random")
POLICIES = (*HONEST, *HACKS)
RULES = {"terminal before": ("terminal", BEFORE_ISSUE_31),
         "terminal now": ("terminal", DEFAULT),
         "partial before": ("partial", BEFORE_ISSUE_31),
         "partial now": ("partial", DEFAULT)}


def agent_for(policy: str, sim: Simulator, key: str) -> Any:
    """The policy's agent for episode ``key``; ``random`` seeded as ``toolmaze
    baselines`` and ``toolmaze eval`` seed it, so its episodes are theirs."""
    if policy in HACKS:
        return make_hack(policy, sim)
    from toolmaze_gym.cli.baselines import episode_agent

    return episode_agent(policy, sim, key)


def record_rewards(record: dict[str, Any], task: Any, sim: Simulator) -> dict[str, float]:
    """The record's reward under every rule of ``RULES``; the partial credit's inputs
    are computed as the TRL environment computes them (``reward_inputs``)."""
    steps = [Step.from_dict(s) for s in record["steps"]]
    repeats = repeat_indices(steps)
    progress = path_progress(sim.corpus, task, profile_for(task, record["mode"], sim), steps)
    valid, named = valid_share(record, repeats), named_share(record, repeats)
    out = {}
    for rule, (kind, cfg) in RULES.items():
        if kind == "terminal":
            out[rule] = terminal_reward(record["grade"], cfg)
        else:
            out[rule] = partial_reward(record["grade"], valid, progress, PARTIAL, cfg,
                                       repeats=len(repeats), named=named)
    return out


def spaced(tasks: list[Any], n: int | None) -> list[Any]:
    """``n`` tasks of each level, evenly spaced (all of them when ``n`` is None)."""
    if n is None:
        return tasks
    out = []
    for level in LEVELS:
        of_level = [t for t in tasks if t.level == level]
        step = max(1, len(of_level) // n)
        out += of_level[::step][:n]
    return out


def measure(policies: list[str], tasks: list[Any], sim: Simulator,
            records_dir: Path | None = None, quiet: bool = False) -> dict[str, dict[str, Any]]:
    """Per policy: episodes, TSR, exposed share and the mean reward under each rule."""
    from tqdm import tqdm

    table: dict[str, dict[str, Any]] = {}
    for policy in policies:
        t0 = time.perf_counter()
        rows, fh = [], None
        if records_dir is not None:
            records_dir.mkdir(parents=True, exist_ok=True)
            fh = (records_dir / f"{policy}.jsonl").open("w", encoding="utf-8")
        for task in tqdm(tasks, desc=policy, disable=quiet):
            for mode in MODE_NAMES:
                key = f"{task.id}/{mode}/standard/0"
                rec = rollout(task, mode, agent_for(policy, sim, key), sim)
                rows.append((rec["grade"], record_rewards(rec, task, sim)))
                if fh is not None:
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        if fh is not None:
            fh.close()
        table[policy] = {
            "episodes": len(rows),
            "TSR": statistics.fmean(bool(g["success"]) for g, _ in rows),
            "exposed": statistics.fmean(bool(g["exposed"]) for g, _ in rows),
            **{rule: statistics.fmean(r[rule] for _, r in rows) for rule in RULES},
            "seconds": round(time.perf_counter() - t0, 1)}
    return table


def markdown(table: dict[str, dict[str, Any]]) -> str:
    head = ("| policy | episodes | TSR % | exposed % | " + " | ".join(RULES) + " |\n"
            + "|---" * (4 + len(RULES)) + "|")
    lines = [head]
    for policy, row in table.items():
        cells = [policy, str(row["episodes"]), f"{100 * row['TSR']:.1f}",
                 f"{100 * row['exposed']:.1f}", *(f"{row[r]:+.3f}" for r in RULES)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default=SUITE_NAME, help="shipped suite name")
    ap.add_argument("--policies", default=",".join(POLICIES),
                    help=f"comma-separated, from: {', '.join(POLICIES)}")
    ap.add_argument("--per-level", type=int, help="tasks per level (default: all)")
    ap.add_argument("--json", type=Path, help="write the table as JSON here")
    ap.add_argument("--records", type=Path, help="write each policy's records here")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    ns = ap.parse_args(argv)
    policies = [p.strip() for p in ns.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        ap.error(f"{'unknown policy ' + repr(unknown[0]) if unknown else 'no policy given'}; "
                 f"choose from {', '.join(POLICIES)}")
    if ns.per_level is not None and ns.per_level < 1:
        ap.error("--per-level must be at least 1")
    tasks = spaced(load_suite(ns.suite), ns.per_level)
    table = measure(policies, tasks, Simulator(), ns.records, ns.quiet)
    print(markdown(table))
    if ns.json is not None:
        ns.json.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
