"""Env throughput against a stdlib-JSON floor measured in the same run.

Workload: the oracle's recorded actions on reference-suite tasks under every mode.

* floor: per step, what any JSON tool env must do at least: ``json.loads`` the action,
  look the reply up in a dict, ``json.dumps`` the same observation messages the env
  returns. Target (issue 32): env steps/s >= 0.20x the floor, on the way to 0.45x.
* graded episodes/s: reset + the oracle's steps + the grade (in the final step).
  Target (issue 32): >= 3,000/s.
* core: the same episodes through ``Episode`` + ``grade`` alone (no env, no messages),
  to split the env's own cost from the core's.
* pool: ``ToolMazePool`` stepping many envs per call vs one env, per env-step.
  Target: <= +10 %.

Times are CPU seconds of this (single-threaded) process, best of n (``--wall`` for
wall-clock seconds): on a machine other jobs load, wall time counts their turns on
the cores too and swings by 2x between two runs of the same code; on an idle machine
the two agree. The garbage collector runs, as in a trainer's process (``_timing``).
* profile: where the time goes, by owner (``--profile``).

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/bench_env.py [--profile] [--wall]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _timing
from toolmaze_gym.envs import ToolMazeEnv, ToolMazePool

import toolmaze_gym
from toolmaze_gym.agents import make_scripted
from toolmaze_gym.episode import Episode
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.grading import grade
from toolmaze_gym.tasks.suite import load_suite

STEP_TARGET, STEP_GOAL, EPISODE_TARGET, POOL_TARGET = 0.20, 0.45, 3_000, 0.10
clock = time.process_time  # see the module docstring; --wall sets time.perf_counter


def best_of(fn, repeat: int) -> float:
    """``_timing.best_of`` on this benchmark's clock (CPU, or wall with ``--wall``)."""
    return _timing.best_of(fn, repeat, clock)


def record_workload(stride: int) -> list[tuple[str, str, list[str], list[list[dict]]]]:
    """(task id, mode, oracle actions, new messages per step) for a sample of the suite."""
    env = ToolMazeEnv("C1", "P0")
    out = []
    for task in load_suite()[::stride]:
        for mode in MODE_NAMES:
            _, info = env.reset(options={"task_id": task.id, "mode": mode})
            agent = make_scripted("oracle", env.sim)
            agent.reset(task, info["tools"], mode)
            actions, new = [], []
            done = False
            while not done:
                a = agent.act(env.messages)
                obs, _, te, tr, _ = env.step(a)
                actions.append(a)
                new.append(json.loads(obs))
                done = te or tr
            out.append((task.id, mode, actions, new))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=2, help="every n-th suite task (default 2)")
    ap.add_argument("--repeat", type=int, default=5, help="best of n runs (default 5)")
    ap.add_argument("--pool", type=int, default=16, help="pool size (default 16)")
    ap.add_argument("--profile", action="store_true", help="print a profile by owner")
    ap.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    args = ap.parse_args()
    global clock
    if args.wall:
        clock = time.perf_counter

    work = record_workload(args.stride)
    n_eps = len(work)
    n_steps = sum(len(a) for _, _, a, _ in work)

    # -- floor: loads + dict lookup + dumps of the same observations ------------------------
    table = {}
    steps_flat = []
    for tid, mode, actions, new in work:
        for k, (a, msgs) in enumerate(zip(actions, new, strict=True)):
            key = (tid, mode, k)
            table[key] = msgs
            steps_flat.append((a, key))

    def floor() -> None:
        for a, key in steps_flat:
            json.loads(a)
            json.dumps(table[key], ensure_ascii=False)

    # -- env: steps only, and whole graded episodes ---------------------------------------
    base = ToolMazeEnv("C1", "P0")
    # the registered factory: base env + PerturbationWrapper, one per mode
    made = {m: toolmaze_gym.envs.make_env("C1", m) for m in MODE_NAMES}

    def episodes(env) -> None:
        for tid, mode, actions, _ in work:
            env.reset(options={"task_id": tid, "mode": mode})
            for a in actions:
                env.step(a)

    def steps_only(env) -> float:
        spent = 0.0
        for tid, mode, actions, _ in work:
            env.reset(options={"task_id": tid, "mode": mode})
            t0 = clock()
            for a in actions:
                env.step(a)
            spent += clock() - t0
        return spent

    def episodes_made() -> None:
        for tid, mode, actions, _ in work:
            env = made[mode]
            env.reset(options={"task_id": tid})
            for a in actions:
                env.step(a)

    def resets(env) -> None:
        for tid, mode, _, _ in work:
            env.reset(options={"task_id": tid, "mode": mode})

    def core() -> None:
        for tid, mode, actions, _ in work:
            ep = Episode(_tasks[tid], mode, base.sim)
            for a in actions:
                ep.step(a)
            grade(ep.task, ep.profile, ep.steps, ep.truncated, base.sim)

    _tasks = {t.id: t for t in load_suite()}
    episodes(base)  # warm every cache once
    spent: list[float] = []
    t_floor = best_of(floor, args.repeat)
    best_of(lambda: spent.append(steps_only(base)), args.repeat)
    t_steps = min(spent)
    t_eps = best_of(lambda: episodes(base), args.repeat)
    t_eps_made = best_of(episodes_made, args.repeat)
    t_reset = best_of(lambda: resets(base), args.repeat)
    t_core = best_of(core, args.repeat)

    # -- pool vs single env, per env-step --------------------------------------------------
    # one pool per cell, as gym.make_vec(id, n) gives; all its envs reset together
    n = args.pool
    pools = {m: ToolMazePool(n, "C1", m) for m in MODE_NAMES}
    by_mode = {m: [w for w in work if w[1] == m] for m in MODE_NAMES}
    chunks = [(m, eps[i:i + n]) for m, eps in by_mode.items() for i in range(0, len(eps), n)]
    plans = [(m, [c[0] for c in chunk],
              [{i: c[2][k] for i, c in enumerate(chunk) if k < len(c[2])}
               for k in range(max(len(c[2]) for c in chunk))]) for m, chunk in chunks]

    def pooled() -> None:
        for mode, task_ids, rounds in plans:
            pool = pools[mode]
            pool.reset(options={"indices": range(len(task_ids)), "task_ids": task_ids})
            for acts in rounds:
                pool.step(acts)

    t_pool = best_of(pooled, args.repeat)
    t_single = t_eps_made  # the same episodes on one env per mode (same wrapper stack)

    us = 1e6
    floor_rate, step_rate = n_steps / t_floor, n_steps / t_steps
    print(f"workload: {n_eps} oracle episodes (every {args.stride}nd suite task x 5 modes), "
          f"{n_steps} steps, {n_steps / n_eps:.1f} steps/episode")
    print(f"floor (json.loads + dict lookup + json.dumps): {t_floor / n_steps * us:7.2f} µs/step"
          f"  {floor_rate:10,.0f} steps/s")
    print(f"env.step (ToolMazeEnv, final grade included):  {t_steps / n_steps * us:7.2f} µs/step"
          f"  {step_rate:10,.0f} steps/s")
    ratio = step_rate / floor_rate
    print(f"  ratio env/floor: {ratio:.3f}x   target >= {STEP_TARGET}x "
          f"({_met(ratio >= STEP_TARGET)}; then {STEP_GOAL}x)")
    print(f"graded episodes (reset + steps + grade):       {t_eps / n_eps * us:7.1f} µs/episode"
          f" {n_eps / t_eps:8,.0f} episodes/s   target >= {EPISODE_TARGET:,}/s "
          f"({_met(n_eps / t_eps >= EPISODE_TARGET)})")
    print(f"  through the registered factory (wrapper):    {t_eps_made / n_eps * us:7.1f} "
          f"µs/episode {n_eps / t_eps_made:8,.0f} episodes/s")
    print(f"  of which reset:                              {t_reset / n_eps * us:7.1f} µs/episode")
    print(f"core alone (Episode.step + grade, no env):     {t_core / n_eps * us:7.1f} µs/episode"
          f" {n_eps / t_core:8,.0f} episodes/s")
    print(f"  env's own share: {(t_eps - t_core) / n_eps * us:.1f} µs/episode "
          f"({(t_eps - t_core) / t_eps:.0%}), {(t_eps - t_core - t_reset) / n_steps * us:.1f} "
          "µs/step beyond reset")
    print(f"pool of {n} (one per mode, all envs reset together) vs one env: "
          f"{t_pool / n_steps * us:.2f} vs {t_single / n_steps * us:.2f} µs/env-step, "
          f"overhead {(t_pool - t_single) / n_steps * us:+.2f} µs/env-step "
          f"({(t_pool - t_single) / t_single:+.1%}; target <= +{POOL_TARGET:.0%}: "
          f"{_met(t_pool - t_single <= POOL_TARGET * t_single)})")
    print(f"timer: {'wall clock' if args.wall else 'CPU time of this process'}")
    if args.profile:
        profile(lambda: episodes(base), n_eps)


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


OWNERS = [("envs/", "envs (this layer)"), ("reward/", "reward"),
          ("toolmaze_gym/episode.py", "episode.py"), ("toolmaze_gym/grading/", "grading"),
          ("toolmaze_gym/mentions.py", "mentions.py"),
          ("toolmaze_gym/actions.py", "actions.py"), ("toolmaze_gym/rollout.py", "rollout.py"),
          ("toolmaze_gym/corpus/", "corpus (simulator)"), ("toolmaze_gym/faults/", "faults"),
          ("toolmaze_gym/tasks/", "tasks"), ("toolmaze_gym/values/", "values"),
          ("toolmaze_gym/world/", "world"), ("toolmaze_gym/prompts.py", "prompts.py"),
          ("gymnasium/", "gymnasium"), ("json/", "stdlib json"), ("copy.py", "stdlib copy"),
          ("dataclasses.py", "stdlib dataclasses")]


ENTRY_POINTS = [("envs/env.py", "step"), ("envs/env.py", "reset"),
                ("toolmaze_gym/episode.py", "step"), ("toolmaze_gym/actions.py", "parse_action"),
                ("toolmaze_gym/faults/engine.py", "call"),
                ("toolmaze_gym/corpus/simulator.py", "call"),
                ("toolmaze_gym/episode.py", "_jsonable"),
                ("toolmaze_gym/grading/grade.py", "grade"),
                ("toolmaze_gym/rollout.py", "append_step"), ("envs/env.py", "_dumps")]


def profile(fn, n_eps: int) -> None:
    """Own time (tottime) per owner, then the top functions, for one run of ``fn``."""
    pr = cProfile.Profile()
    pr.enable()
    fn()
    pr.disable()
    st = pstats.Stats(pr)
    by_owner: dict[str, float] = defaultdict(float)
    total = 0.0
    rows = []
    for (file, line, func), (_, ncalls, tt, ct, _) in st.stats.items():
        owner = next((name for key, name in OWNERS if key in file), "other (builtins, C)")
        by_owner[owner] += tt
        total += tt
        rows.append((tt, ct, ncalls, f"{Path(file).name}:{line}({func})"))
    print(f"\nprofile (cProfile, own time; profiler overhead inflates Python-heavy code), "
          f"{total / n_eps * 1e6:.0f} µs/episode:")
    for owner, tt in sorted(by_owner.items(), key=lambda x: -x[1]):
        print(f"  {owner:28s} {tt / n_eps * 1e6:7.1f} µs/episode  {tt / total:5.1%}")
    print("cumulative time of the main entry points (profiled):")
    for suffix, func in ENTRY_POINTS:
        ct = sum(v[3] for (f, _, fn), v in st.stats.items() if f.endswith(suffix) and fn == func)
        name = f"{suffix}:{func}"
        print(f"  {name:45s} {ct / n_eps * 1e6:7.1f} µs/episode  {ct / total:5.1%}")
    print("top functions by own time:")
    for tt, ct, ncalls, name in sorted(rows, reverse=True)[:15]:
        print(f"  {tt / n_eps * 1e6:7.1f} µs/ep own {ct / n_eps * 1e6:7.1f} cum "
              f"{ncalls:7d} calls  {name}")


if __name__ == "__main__":
    main()
