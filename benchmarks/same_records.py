"""Nothing graded differently: every scripted agent over the whole suite, through the env.

A speed change must not change what an agent sees or how it is graded. This plays
the scripted baselines (oracle, naive, retry, validator, and random seeded per episode
as ``toolmaze baselines`` seeds it) on every task of the suite under every mode
(toolmaze-v4: 400 tasks x 5 modes x 5 agents = 10,000 episodes) through
``ToolMazeEnv``, and writes one JSON line per episode: each step's observation,
reward, terminated/truncated flags and info (the grade in the last one), then the
episode's record (``env.record``: steps, grade, versions).

Run it on two checkouts and compare the files byte for byte::

    PYTHONPATH=/path/to/main   python benchmarks/same_records.py --out main.jsonl
    PYTHONPATH=/path/to/branch python benchmarks/same_records.py --out branch.jsonl
    cmp main.jsonl branch.jsonl && echo identical

It uses only the env's public API and the agents, so the same file runs against an
older checkout. A slow check (minutes), not a test; ``--tasks`` plays a prefix.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from toolmaze_gym.envs import ToolMazeEnv

from toolmaze_gym.agents import BASELINES, RandomAgent, make_scripted
from toolmaze_gym.agents.policy import episode_seed
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite


def _agent(name: str, sim, key: str):
    """The agent ``toolmaze baselines`` plays episode ``key`` with."""
    if name == "random":
        return RandomAgent(sim, seed=episode_seed(0, key))
    return make_scripted(name, sim)


def play(env: ToolMazeEnv, agent, task_id: str, mode: str) -> dict:
    """One episode through the env: what the agent saw at each step, and the record."""
    obs, info = env.reset(options={"task_id": task_id, "mode": mode})
    agent.reset(env.episode.task, info["tools"], mode)
    # the tool schemas are the same objects every episode of a task: a digest keeps the
    # file small and still tells any change
    tools = hashlib.sha256(json.dumps(info["tools"], sort_keys=True).encode()).hexdigest()
    seen = [[obs, {**info, "tools": tools}]]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent.act(env.messages))
        seen.append([obs, reward, terminated, truncated, info])
        done = terminated or truncated
    return {"agent": agent.name, "task_id": task_id, "mode": mode, "steps": seen,
            "record": env.record(agent=agent.name)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path, help="JSONL file to write")
    ap.add_argument("--suite", default=SUITE_NAME, help=f"shipped suite (default {SUITE_NAME})")
    ap.add_argument("--agents", default=",".join(BASELINES),
                    help=f"comma-separated, from {', '.join(BASELINES)} (default: all)")
    ap.add_argument("--tasks", type=int, default=None, help="play only the first n tasks")
    args = ap.parse_args()
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = sorted(set(agents) - set(BASELINES))
    if unknown or not agents:
        ap.error(f"unknown agent {unknown[0]!r}" if unknown else "no agent given")
    tasks = load_suite(args.suite)[:args.tasks]
    env = ToolMazeEnv(None, None, suite=args.suite)
    t0 = time.perf_counter()
    n = 0
    digest = hashlib.sha256()
    with args.out.open("w", encoding="utf-8") as fh:
        for name in agents:
            for task in tasks:
                for mode in MODE_NAMES:
                    agent = _agent(name, env.sim, f"{task.id}/{mode}/standard/0")
                    line = json.dumps(play(env, agent, task.id, mode), ensure_ascii=False,
                                      sort_keys=True) + "\n"
                    digest.update(line.encode("utf-8"))
                    fh.write(line)
                    n += 1
    print(f"{n} episodes ({', '.join(agents)} x {len(tasks)} tasks x {len(MODE_NAMES)} modes) "
          f"in {time.perf_counter() - t0:.1f} s; sha256 {digest.hexdigest()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
