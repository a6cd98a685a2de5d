"""How the grader judges the competent and wrong variants over the whole suite.

Every variant of ``toolmaze_gym.agents.variants`` plays all 400 reference tasks in
every mode (P0–P4), beside the careful agent on the same (task, mode). Printed per
variant: episodes, applicable ones (the variant changed something), n/a, graded
success / failure, and how many were graded as the variant's kind requires
(competent: success wherever the careful agent succeeds; wrong: failure). A
grader that grades what the user asked for shows ``wrong = 0`` on every row.

Then, per variant, what it changed (``Outcome.detail``: the slot shape of a derivation,
the Processor whose text it wrote itself, how it split an Action) with the episodes of
each kind, and the misjudged episodes (task/mode): the grader's work list.

Run: .venv/bin/python benchmarks/variants_survey.py [--levels C1 C2] [--per-level N]
[--stride K] [--examples N] (about 4 minutes for the whole suite on one core; --stride 4
is the default tests' sample, about 1 minute).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from toolmaze_gym.agents.variants import COMPETENT, WRONG, Outcome, expected, survey, tally
from toolmaze_gym.faults import MODE_NAMES
from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite

COLUMNS = ("episodes", "applicable", "n/a", "success", "failure", "as_required", "wrong")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", nargs="*", default=list(LEVELS))
    ap.add_argument("--per-level", type=int, default=0, help="first N tasks a level (0: all)")
    ap.add_argument("--stride", type=int, default=1, help="every K-th task of a level")
    ap.add_argument("--examples", type=int, default=12, help="misjudged episodes shown")
    args = ap.parse_args()
    tasks = [t for lv in args.levels
             for t in load_suite(levels=[lv])[: args.per_level or None][:: args.stride]]
    start = time.perf_counter()
    outcomes = survey(tasks, MODE_NAMES)
    rows = tally(outcomes)
    took = time.perf_counter() - start
    print(f"suite {SUITE_NAME}, grading version {GRADING_VERSION}: {len(tasks)} tasks x "
          f"{len(MODE_NAMES)} modes, {took:.0f} s")
    print(f"{'variant':<15}{'kind':<11}" + "".join(f"{c:>12}" for c in COLUMNS))
    for kind, group in (("competent", COMPETENT), ("wrong", WRONG)):
        for v in group:
            row = rows.get(v.name, dict.fromkeys(COLUMNS, 0))
            print(f"{v.name:<15}{kind:<11}" + "".join(f"{row[c]:>12}" for c in COLUMNS))
    print()
    for v in (*COMPETENT, *WRONG):
        details(v.name, [o for o in outcomes if o.variant == v.name], args.examples)


def details(name: str, mine: list[Outcome], examples: int) -> None:
    """What the variant changed, episodes (misjudged) per kind of change, and examples."""
    applied = [o for o in mine if o.applied]
    bad = [o for o in applied if not expected(o)]
    kinds = Counter(k for o in applied for k in o.detail.split(", ") if k)
    wrong = Counter(k for o in bad for k in o.detail.split(", ") if k)
    if kinds:
        print(f"{name}: " + "; ".join(f"{k} {n} ({wrong[k]} misjudged)"
                                      for k, n in kinds.most_common()))
    if bad:
        shown = ", ".join(f"{o.task_id}/{o.mode}" for o in bad[:examples])
        print(f"{name}: {len(bad)} misjudged, e.g. {shown}")


if __name__ == "__main__":
    main()
