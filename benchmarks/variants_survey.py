"""How the grader judges the competent and wrong variants over the whole suite.

Every variant of ``toolmaze_gym.agents.variants`` plays all 400 reference tasks in
every mode (P0–P4), beside the careful agent on the same (task, mode). Printed per
variant: episodes, applicable ones (the variant changed something), n/a, graded
success / failure, and how many were graded as the variant's kind requires
(competent: success wherever the careful agent succeeds; wrong: failure). A
grader that grades what the user asked for shows ``wrong = 0`` on every row.

Run: .venv/bin/python benchmarks/variants_survey.py [--levels C1 C2] [--per-level N]
(about 2 minutes for the whole suite on one core).
"""

from __future__ import annotations

import argparse
import time

from toolmaze_gym.agents.variants import COMPETENT, WRONG, survey, tally
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite

COLUMNS = ("episodes", "applicable", "n/a", "success", "failure", "as_required", "wrong")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", nargs="*", default=list(LEVELS))
    ap.add_argument("--per-level", type=int, default=0, help="first N tasks a level (0: all)")
    args = ap.parse_args()
    tasks = [t for lv in args.levels
             for t in load_suite(levels=[lv])[: args.per_level or None]]
    start = time.perf_counter()
    rows = tally(survey(tasks, MODE_NAMES))
    took = time.perf_counter() - start
    print(f"suite {SUITE_NAME}, grading version {GRADING_VERSION}: {len(tasks)} tasks x "
          f"{len(MODE_NAMES)} modes, {took:.0f} s")
    print(f"{'variant':<15}{'kind':<11}" + "".join(f"{c:>12}" for c in COLUMNS))
    for kind, group in (("competent", COMPETENT), ("wrong", WRONG)):
        for v in group:
            row = rows.get(v.name, dict.fromkeys(COLUMNS, 0))
            print(f"{v.name:<15}{kind:<11}" + "".join(f"{row[c]:>12}" for c in COLUMNS))


if __name__ == "__main__":
    main()
