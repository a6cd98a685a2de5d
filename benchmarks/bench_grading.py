"""Grading 2,000 trajectories against a json.loads baseline, measured in the same run.

The trajectories are the whole reference suite (400 tasks × P0–P4) played by the
scripted baselines in turn (oracle, naive, retry, validator: task k gets agent
k mod 4), so clean runs, recoveries, loops, give-ups and over-trust all appear.
Grading re-reads each record's steps and grades them against the task and its
fault profile, exactly as ``toolmaze grade`` does. The baseline is json.loads of
the same records (what merely reading a run file costs). "cold" clears the
per-task indices first (a fresh process); "warm" reuses them.
Target: grading 2,000 trajectories ≤ 0.5 s.

Also reported: rollout throughput of the oracle (episodes/s, grading included), and
the previous grader (grading version 3, read from git at ``V3_COMMIT``) on the same
records in the same run, so the cost of grading against the episode's own data
(version 4) is a ratio on one machine at one time.

With ``--against REV`` (a git revision, e.g. ``main``) it measures instead the grader
of this checkout against the grader of REV in one run: each grades the same 2,000
trajectories cold in a process of its own (REV's tree exported with ``git archive``),
alternately, ``--rounds`` times; the best of each and their ratio are printed.

Times are CPU seconds of this process (``_timing.best_of``).

Run: .venv/bin/python benchmarks/bench_grading.py [--against REV [--rounds N]]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_of

from toolmaze_gym import grading
from toolmaze_gym.agents import make_scripted
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.faults.store import suite_with_profiles
from toolmaze_gym.grading import index as grading_index
from toolmaze_gym.rollout import rollout

AGENTS = ("oracle", "naive", "retry", "validator")
TARGET_S = 0.5
V3_COMMIT = "99c5f2d"  # the last commit with grading version 3 (one grading.py)


def _pairs(task):
    """``task`` with each free text's mentions as (type, value) pairs (grading v3's form)."""
    slots = [dataclasses.replace(s, inputs=tuple(
        dataclasses.replace(i, mentions=tuple((m[0], m[1]) for m in i.mentions))
        for i in s.inputs)) for s in task.slots]
    return dataclasses.replace(task, slots=slots)


def previous_grader() -> ModuleType | None:
    """Grading version 3 as it was, loaded from git (None outside a git checkout)."""
    root = Path(__file__).resolve().parent.parent
    try:
        src = subprocess.run(["git", "show", f"{V3_COMMIT}:toolmaze_gym/grading.py"],
                             cwd=root, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    spec = importlib.util.spec_from_loader("_grading_v3", loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules["_grading_v3"] = module
    exec(compile(src, f"{V3_COMMIT}:toolmaze_gym/grading.py", "exec"), module.__dict__)
    return module


def grading_only() -> None:
    """Print {"cold": s, "warm": s}: this process's grader on the 2,000 trajectories."""
    sim = Simulator()
    suite = suite_with_profiles()
    instances = [(task, mode, ps[mode]) for task, ps in suite for mode in MODE_NAMES]
    records = [rollout(t, m, make_scripted(AGENTS[k // len(MODE_NAMES) % len(AGENTS)], sim),
                       sim, p) for k, (t, m, p) in enumerate(instances)]
    tasks = {t.id: t for t, _ in suite}
    profiles = {(t.id, m): p for t, m, p in instances}

    def grade_cold() -> list:
        grading_index._INDEX.clear()
        return [grading.grade_record(r, tasks[r["task_id"]], profiles[(r["task_id"], r["mode"])],
                                     sim.corpus) for r in records]

    grade_cold()
    print(json.dumps({"cold": best_of(grade_cold), "version": grading.GRADING_VERSION}))


def against(rev: str, rounds: int) -> None:
    """This checkout's grader against ``rev``'s, alternately, in processes of their own."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "archive", rev, "toolmaze_gym"], cwd=root,
                             capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as other:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(other, filter="data")
        best: dict[str, float] = {}
        versions: dict[str, str] = {}
        start = time.perf_counter()
        for _ in range(rounds):
            for name, tree in (("this", str(root)), (rev, other)):
                env = {**os.environ, "PYTHONPATH": tree}
                out = subprocess.run([sys.executable, __file__, "--grading-only"], env=env,
                                     capture_output=True, text=True, check=True).stdout
                got = json.loads(out.strip().splitlines()[-1])
                best[name] = min(best.get(name, float("inf")), got["cold"])
                versions[name] = got["version"]
    print(f"grading 2,000 trajectories cold, best of {rounds} alternating runs "
          f"({time.perf_counter() - start:.0f} s in all):")
    print(f"  this checkout (grading version {versions['this']}): {best['this']:6.3f} s")
    print(f"  {rev} (grading version {versions[rev]}): {best[rev]:6.3f} s")
    print(f"  ratio this / {rev} = {best['this'] / best[rev]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="REV", help="compare with the grader of git REV")
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs (--against)")
    ap.add_argument("--grading-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.grading_only:
        return grading_only()
    if args.against:
        return against(args.against, args.rounds)
    return full()


def full() -> None:
    sim = Simulator()
    suite = suite_with_profiles()
    instances = [(task, mode, ps[mode]) for task, ps in suite for mode in MODE_NAMES]

    def oracle_rollouts() -> list[dict]:
        return [rollout(t, m, make_scripted("oracle", sim), sim, p) for t, m, p in instances]

    oracle_rollouts()  # warm caches (simulator memo, schemas, plans)
    t_roll = best_of(oracle_rollouts, repeat=2)

    records = [rollout(t, m, make_scripted(AGENTS[k // len(MODE_NAMES) % len(AGENTS)], sim),
                       sim, p) for k, (t, m, p) in enumerate(instances)]
    lines = [json.dumps(r) for r in records]
    tasks = {t.id: t for t, _ in suite}
    profiles = {(t.id, m): p for t, m, p in instances}
    corpus = sim.corpus
    steps = sum(len(r["steps"]) for r in records)

    def baseline() -> None:
        for line in lines:
            json.loads(line)

    def grade_all() -> list:
        return [grading.grade_record(r, tasks[r["task_id"]], profiles[(r["task_id"], r["mode"])],
                                     corpus) for r in records]

    def grade_cold() -> list:
        grading_index._INDEX.clear()
        return grade_all()

    fresh = grade_cold()
    assert [g.to_dict() for g in fresh] == [r["grade"] for r in records], "grades differ"
    t_base = best_of(baseline)
    t_cold = best_of(grade_cold)
    t_warm = best_of(grade_all)
    n = len(records)
    print(f"trajectories: {n} ({steps} steps; agents {', '.join(AGENTS)} in turn over "
          f"400 tasks x P0-P4)")
    print(f"baseline json.loads of the records:   {t_base:6.3f} s")
    print(f"grading, cold (per-task indices built): {t_cold:6.3f} s   "
          f"({n / t_cold:,.0f} trajectories/s)   target <= {TARGET_S} s: "
          f"{'met' if t_cold <= TARGET_S else 'MISSED'}")
    print(f"grading, warm:                         {t_warm:6.3f} s   "
          f"({n / t_warm:,.0f} trajectories/s)")
    print(f"ratio grading / json.loads: cold {t_cold / t_base:.2f}x, warm {t_warm / t_base:.2f}x")
    print(f"oracle rollout (step, simulate, fault, grade, record): {t_roll:6.3f} s for {n} "
          f"episodes = {n / t_roll:,.0f} episodes/s")
    old = previous_grader()
    if old is None:
        print("grading v3: not measured (needs the git history)")
        return

    # Grading v3 reads mentions as (type, value) pairs: give it the tasks in that form.
    old_tasks = {k: _pairs(t) for k, t in tasks.items()}

    def grade_v3() -> list:
        old._INDEX.clear()
        return [old.grade_record(r, old_tasks[r["task_id"]],
                                 profiles[(r["task_id"], r["mode"])], corpus) for r in records]

    t_old = best_of(grade_v3)
    print(f"grading v3 (the previous grader), cold: {t_old:6.3f} s; "
          f"v4 / v3 = {t_cold / t_old:.2f}x (cold)")


if __name__ == "__main__":
    main()
