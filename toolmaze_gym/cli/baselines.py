"""``toolmaze baselines``: the scripted agents on a suite, as the README's Markdown table."""

from __future__ import annotations

import argparse
import json

from toolmaze_gym.cli.common import UsageError, load_tasks, output_file

TABLE_HEAD = ("| agent | TSR NP | TSR P1 | TSR P2 | TSR P3 | TSR P4 | PRR P1 | PRR P2 | PRR P3 "
              "| PRR P4 | RC P1 | RC P2 | RC P3 | RC P4 | Avg |\n" + "|---" * 15 + "|")


def table_row(agent: str, t: dict) -> str:
    """One agent's per-mode values in %; "–" where a value is undefined, "n/a" for an
    undefined composite."""
    pm = t["per_mode"]

    def pct(x):
        return "–" if x is None else f"{100 * x:.1f}"

    cells = [pct(pm.get(m, {}).get("TSR")) for m in ("P0", "P1", "P2", "P3", "P4")]
    cells += [pct(pm.get(m, {}).get("PRR")) for m in ("P1", "P2", "P3", "P4")]
    cells += [pct(pm.get(m, {}).get("RC")) for m in ("P1", "P2", "P3", "P4")]
    avg = "n/a" if t["composite"] is None else pct(t["composite"])
    return f"| {agent} | " + " | ".join(cells) + f" | {avg} |"


def episode_agent(name: str, sim, key: str):
    """The scripted agent for episode ``key`` (task/mode/prompt/repeat). ``random`` draws
    from the episode's key as ``toolmaze eval`` seeds it (``episode_seed(0, key)``), so
    its row here and in an eval report of the same suite are the same episodes."""
    from toolmaze_gym.agents import RandomAgent, make_scripted
    from toolmaze_gym.agents.policy import episode_seed

    if name == "random":
        return RandomAgent(sim, seed=episode_seed(0, key))
    return make_scripted(name, sim)


def cmd_baselines(ns: argparse.Namespace) -> int:
    """Scripted baselines on a suite: the per-mode table in Markdown."""
    from tqdm import tqdm

    from toolmaze_gym.agents import BASELINES
    from toolmaze_gym.corpus import Simulator
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.metrics import table
    from toolmaze_gym.rollout import rollout

    agents = [a.strip() for a in ns.agents.split(",") if a.strip()]
    unknown = [a for a in agents if a not in BASELINES]
    if unknown or not agents:
        what = f"unknown agent {unknown[0]!r}" if unknown else "no agent given"
        raise UsageError(f"{what}; choose from {', '.join(BASELINES)}")
    out_path = output_file(ns.out)
    tasks = load_tasks(ns.suite)
    sim = Simulator()
    out = [TABLE_HEAD]
    records = []
    for agent in agents:
        recs = [rollout(t, m, episode_agent(agent, sim, f"{t.id}/{m}/{ns.prompt}/0"), sim,
                        prompt=ns.prompt)
                for t in tqdm(tasks, desc=agent, disable=ns.quiet) for m in MODE_NAMES]
        records += recs
        out.append(table_row(agent, table(recs)))
    print("\n".join(out))
    if out_path is not None:
        with out_path.open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return 0


def add_commands(sub) -> None:
    from toolmaze_gym.agents import BASELINES
    from toolmaze_gym.tasks.suite import SUITE_NAME

    p = sub.add_parser("baselines", help="run the scripted baselines; print the per-mode table")
    p.add_argument("--agents", default="oracle,validator,retry,naive,random",
                   help=f"comma-separated agents, from: {', '.join(BASELINES)}")
    p.add_argument("--suite", default=SUITE_NAME,
                   help="suite name, suite directory (build-suite --out) or JSONL file of tasks")
    p.add_argument("--prompt", default="standard", choices=["standard", "failure_aware"],
                   help="the system prompt recorded with each trajectory")
    p.add_argument("--out", help="write the trajectory records (JSONL) to this file")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_baselines)
