"""How the victim rule (``faults.skippable``, profile version 5) meets a shipped suite.

    PYTHONPATH=. python benchmarks/victims_survey.py [SUITE]   # default: the default suite

Per fault mode: the shipped profiles whose victim a careful agent may skip (the static
check, ``suite_misplaced``), the profiles that today's victim choice builds otherwise,
and the tasks the suite builder would now reject (no victim left, or none with an
alternative above C1), per level.
"""

from __future__ import annotations

import sys
from collections import Counter

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults.modes import FAULT_MODES
from toolmaze_gym.faults.profiles import ProfileError, build_profile
from toolmaze_gym.faults.skippable import misplaced_victims
from toolmaze_gym.faults.store import playable_profile, suite_with_profiles
from toolmaze_gym.tasks.suite import SUITE_NAME


def main(name: str = SUITE_NAME) -> None:
    sim = Simulator()
    misplaced, changed, tasks_hit, rejected = Counter(), Counter(), Counter(), Counter()
    n = 0
    for task, shipped in suite_with_profiles(name):
        n += 1
        lines = misplaced_victims(task, [shipped[m] for m in FAULT_MODES], sim)
        tasks_hit[task.level] += bool(lines)
        keeps = True
        for m in FAULT_MODES:
            misplaced[m] += any(f" {m}: " in ln for ln in lines)
            try:
                new = build_profile(task, m, sim)
            except ProfileError:
                new = None
            keeps = keeps and playable_profile(task, m, sim) is not None
            if new is None or new.victims != shipped[m].victims:
                changed[m] += 1
        rejected[task.level] += not keeps
    print(f"{name}: {n} tasks, {n * len(FAULT_MODES)} fault profiles")
    print(f"shipped victims a careful agent may skip, per mode: {dict(misplaced)} "
          f"(tasks per level: {dict(tasks_hit)})")
    print(f"profiles built otherwise now, per mode: {dict(changed)}, "
          f"total {sum(changed.values())}")
    print(f"tasks the builder would now reject, per level: {dict(rejected)}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
