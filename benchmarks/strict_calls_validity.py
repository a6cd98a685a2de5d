"""How many of a run's actions are valid calls: a call of a tool the episode showed,
with arguments valid for its JSON schema, or finish/abort (issue 31's measure of
``--strict-calls``).

Run an eval, then read its records::

    toolmaze eval --agent hf --strict-calls --compact-tools --max-tokens 128 \\
        --max-steps 2 --limit 5 --prompt standard --out runs/strict100
    .venv/bin/python benchmarks/strict_calls_validity.py runs/strict100
    .venv/bin/python benchmarks/strict_calls_validity.py runs/lift/eval/sft-strict \
        --tasks runs/lift/dev.jsonl        # a run of generated (dev) tasks

Prints episodes, actions, the share of valid actions (with every invalid one
named), completion tokens and wall seconds per completion token (prefill included:
the run's own cost per generated token, not the decode loop alone, which
``bench_strict_calls.py`` measures).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import fastjsonschema

from toolmaze_gym.cli.common import load_tasks
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.runner import read_records
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.transcript import episode_tools


def verdict(tools: list[dict[str, Any]], action: dict[str, Any]) -> str:
    """"" for a valid action, else why it is not one."""
    if action.get("kind") in ("finish", "abort"):
        return ""
    if action.get("kind") != "call":
        return f"not a call ({action.get('kind')}: {str(action.get('text'))[:80]})"
    shown = {t["function"]["name"]: t["function"] for t in tools}
    if action["name"] not in shown:
        return f"tool not shown: {action['name']}"
    try:
        fastjsonschema.validate(shown[action["name"]]["parameters"], action["arguments"])
    except fastjsonschema.JsonSchemaException as exc:
        return f"arguments of {action['name']}: {exc.message}"
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="run directory of a toolmaze eval")
    ap.add_argument("--tasks", help="the JSONL task file the run played (default: the "
                    "shipped suites)")
    args = ap.parse_args()
    sim = Simulator()
    records = read_records(Path(args.run))
    given = {t.id: t for t in load_tasks(args.tasks)} if args.tasks else {}
    actions, bad, tokens, wall = 0, Counter(), 0, 0.0
    for rec in records:
        task = given.get(rec["task_id"]) or get_task(rec["task_id"])
        tools = episode_tools(task, sim)
        for step in rec["steps"]:
            actions += 1
            why = verdict(tools, step["action"])
            if why:
                bad[why] += 1
        tokens += rec.get("usage", {}).get("completion_tokens", 0)
        wall += float(rec.get("wall_s") or 0)
    valid = actions - sum(bad.values())
    print(f"{len(records)} episodes, {actions} actions: {valid} valid "
          f"({100 * valid / max(actions, 1):.1f} %)")
    for why, n in bad.most_common():
        print(f"  {n:4d} x {why}")
    if tokens:
        print(f"{tokens} completion tokens, {wall:.0f} s of episode wall time: "
              f"{1e3 * wall / tokens:.0f} ms per completion token (prefill included)")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
