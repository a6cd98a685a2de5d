"""Agreement of ``reports_failure`` with the labelled endings, per part and per language.

The parts (``toolmaze_gym/data/endings/labelled.jsonl``): ``dev``, written first and
used to write the rules; ``probe``, hard cases written after the first rules and then
used to improve them; ``held-out``, written with ``dev`` and never used for the rules;
``held-out-hard``, hard cases written after the last rule change and never used.
``held-out-v7`` (issue 27: claims with negated failure verbs or pasted tool output,
reports after silent faults) was written and committed before the rules changed.
Prints, per part, the agreement and both kinds of error (a failure report read as a
claim of success; a claim read as a failure report); ``--errors`` lists them and
``--notes PART`` splits a part by the kind of ending. ``--exploits`` plays the two
lazy endings of issue 27 on every C1 task of the default suite (its first call, then the
ending) and counts how many the grader takes for a graceful stop: "abort cannot
continue" under P4 (a silent fault) and "All requested steps are done. Log: HTTP
410." under P2; both must be 0.

Run: .venv/bin/python benchmarks/bench_endings.py [--errors] [--notes PART] [--exploits]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from toolmaze_gym.agents.scripted import call_text
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Episode
from toolmaze_gym.failure_text import SPLITS, disagreements, labelled
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.grading import grade
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite

LAZY = {"P4": {"name": "abort", "arguments": {"reason": "cannot continue"}},
        "P2": {"name": "finish", "arguments": {
            "answer": "All requested steps are done. Log: HTTP 410."}}}


def exploits() -> None:
    """Graceful stops the lazy endings get, over the C1 tasks whose first call is faulted."""
    sim, profiles = Simulator(), shipped_profiles(SUITE_NAME)
    for mode, ending in LAZY.items():
        won = met = 0
        for task in load_suite(SUITE_NAME, ["C1"]):
            first = task.default_path.calls[0]
            ep = Episode(task, mode, sim, profiles[(task.id, mode)], 25)
            ep.step(call_text(first.tool, dict(first.args)))
            ep.step(json.dumps(ending))
            g = grade(task, ep.profile, ep.steps, ep.truncated, sim)
            met += bool(ep.steps[0].fault)
            won += g.success
        print(f"C1 {mode}: first call, then {json.dumps(ending['arguments'])}: "
              f"{won} graceful stops ({met} of the tasks meet the fault on that call)")


def by_note(split: str) -> None:
    rows = labelled(split)
    wrong = Counter(r["note"] for r in disagreements(rows))
    print(f"{split} by kind of ending:", ", ".join(
        f"{k} {n - wrong[k]}/{n}" for k, n in Counter(r["note"] for r in rows).most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--errors", action="store_true", help="list every disagreement")
    ap.add_argument("--notes", choices=SPLITS, help="split a part by the kind of ending")
    ap.add_argument("--exploits", action="store_true",
                    help="play issue 27's lazy endings on every C1 task (a few seconds)")
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
    if ns.notes:
        by_note(ns.notes)
    if ns.exploits:
        exploits()
    if ns.errors:
        for r in disagreements(labelled()):
            print(f"[{r['split']}] {r['label']:<7} {r['text']!r}")


if __name__ == "__main__":
    main()
