"""Generating the reference suite toolmaze-v1 (400 tasks), against replaying it.

The baseline, measured in the same run, is the least work any generator must do:
execute every solution path of the finished suite once in the simulator. Target:
the whole suite in ≤ 10 s on the project's 2-core machine.

Run: .venv/bin/python benchmarks/bench_generation.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.tasks.execution import execute
from toolmaze_gym.tasks.suite import build_suite, load_suite, manifest


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    tasks = load_suite()
    sim = Simulator()
    replay = _timed(lambda: [execute(sim, t.slots, p.choice) for t in tasks for p in t.solutions])
    with tempfile.TemporaryDirectory() as tmp:
        serial = _timed(lambda: build_suite(Path(tmp) / "s1"))
        parallel = _timed(lambda: build_suite(Path(tmp) / "s2", jobs=2))
        same = (Path(tmp) / "s1" / "C4.jsonl").read_bytes() == (Path(tmp) / "s2" / "C4.jsonl") \
            .read_bytes()
        built = build_suite(Path(tmp) / "s3", jobs=2)
    identical = all(built["files"][f] == manifest()["files"][f] for f in built["files"])
    n = len(tasks)
    paths = sum(len(t.solutions) for t in tasks)
    print(f"replay baseline: {paths} solution paths of {n} tasks in {replay:.2f} s")
    print(f"generate suite, 1 process:  {serial:6.2f} s  {n / serial:6.1f} tasks/s  "
          f"({serial / replay:.1f}x the replay baseline)")
    print(f"generate suite, 2 processes: {parallel:6.2f} s  {n / parallel:6.1f} tasks/s  "
          f"({parallel / replay:.1f}x the replay baseline)   target <= 10 s")
    print(f"bit-identical to the shipped suite: {identical}; serial == parallel: {same}")
    if not identical:
        sys.exit(1)


if __name__ == "__main__":
    main()
