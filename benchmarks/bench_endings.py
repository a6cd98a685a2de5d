"""Agreement of ``reports_failure`` with the labelled endings, per part and per language.

The parts (``toolmaze_gym/data/endings/labelled.jsonl``): ``dev``, written first and
used to write the rules; ``probe``, hard cases written after the first rules and then
used to improve them; ``held-out``, written with ``dev`` and never used for the rules;
``held-out-hard``, hard cases written after the last rule change and never used.
Prints, per part, the agreement and both kinds of error (a failure report read as a
claim of success; a claim read as a failure report); ``--errors`` lists them.

Run: .venv/bin/python benchmarks/bench_endings.py [--errors]
"""

from __future__ import annotations

import argparse
from collections import Counter

from toolmaze_gym.failure_text import SPLITS, disagreements, labelled


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--errors", action="store_true", help="list every disagreement")
    ns = ap.parse_args()
    print(f"{'part':<14} {'agree':>9} {'%':>6}  {'failure→claim':>13}  {'claim→failure':>13}")
    for split in SPLITS:
        rows = labelled(split)
        bad = disagreements(rows)
        kinds = Counter(r["label"] for r in rows)
        missed = Counter(r["label"] for r in bad)
        print(f"{split:<14} {len(rows) - len(bad):>4}/{len(rows):<4} "
              f"{100 * (1 - len(bad) / len(rows)):>6.1f}  "
              f"{missed['failure']:>6}/{kinds['failure']:<6}  "
              f"{missed['claim']:>6}/{kinds['claim']:<6}")
    langs = Counter(r["language"] for r in labelled())
    wrong = Counter(r["language"] for r in disagreements(labelled()))
    print("per language (all parts):",
          ", ".join(f"{k} {n - wrong[k]}/{n}" for k, n in langs.most_common()))
    if ns.errors:
        for r in disagreements(labelled()):
            print(f"[{r['split']}] {r['label']:<7} {r['text']!r}")


if __name__ == "__main__":
    main()
