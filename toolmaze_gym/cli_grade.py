"""``toolmaze grade RUN.jsonl``: re-grade trajectory records with the current grader.

Each line of RUN.jsonl is a trajectory record as ``rollout()`` / the runner write
it (task id, mode, steps, ...). The steps are graded again against the task and
its fault profile (the shipped suite by default, or ``--tasks FILE.jsonl``), the
C×P table of every (agent, prompt) in the file is printed, and ``--out`` writes
the records with the new grade and grading version.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from toolmaze_gym.cli import UsageError, output_file


def _read_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    out = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{path}:{lineno}:{exc.colno}: not valid JSON ({exc.msg})") \
                    from None
            if not isinstance(rec, dict):
                raise UsageError(f"{path}:{lineno}: a record must be a JSON object")
            missing = [k for k in ("task_id", "mode", "steps") if k not in rec]
            if missing or not isinstance(rec["steps"], list):
                what = f"the field {missing[0]} is missing" if missing else \
                    "its steps are not a list"
                raise UsageError(f"{path}:{lineno}: not a trajectory record ({what})")
            out.append((lineno, rec))
    if not out:
        raise UsageError(f"{path} holds no trajectory records")
    return _unique(out, path)


def _unique(records: list[tuple[int, dict[str, Any]]], path: Path) \
        -> list[tuple[int, dict[str, Any]]]:
    """One record per episode, by the rule ``report`` applies too
    (:func:`toolmaze_gym.runner.unique_records`), with a warning for what was dropped."""
    from toolmaze_gym.runner import unique_records, warn_duplicates

    kept, dropped = unique_records(rec for _, rec in records)
    warn_duplicates(path, dropped)
    keep = {id(rec) for rec in kept}
    return [(lineno, rec) for lineno, rec in records if id(rec) in keep]


def _task_source(source: str):
    """A lookup ``task id -> Task`` over a shipped suite or a JSONL file of tasks."""
    from toolmaze_gym.cli import load_tasks

    return {t.id: t for t in load_tasks(source)}


def regrade(records: list[tuple[int, dict[str, Any]]], tasks, where: str, source: str,
            sim=None) -> tuple[list[dict[str, Any]], int]:
    """The records with fresh grades, and how many grades changed."""
    from toolmaze_gym.corpus import Simulator
    from toolmaze_gym.episode import Step
    from toolmaze_gym.faults import get_mode
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.grading import GRADING_VERSION, grade

    sim = sim or Simulator()
    out, changed = [], 0
    for lineno, rec in records:
        task = tasks.get(rec["task_id"])
        if task is None:
            raise UsageError(f"{where}:{lineno}: task {rec['task_id']!r} is not in {source} "
                             "(pass --tasks)")
        try:
            mode = get_mode(str(rec["mode"])).name
            steps = [Step.from_dict(s) for s in rec["steps"]]
            if any(not isinstance(s.action, dict) or "kind" not in s.action for s in steps):
                raise ValueError("a step has no parsed action")
        except KeyError as exc:
            raise UsageError(f"{where}:{lineno}: malformed record (a step lacks the field "
                             f"{exc.args[0]})") from None
        except (ValueError, TypeError, AttributeError) as exc:
            raise UsageError(f"{where}:{lineno}: malformed record ({exc})") from None
        g = grade(task, profile_for(task, mode, sim), steps, bool(rec.get("truncated")),
                  corpus=sim.corpus).to_dict()
        old = rec.get("grade")
        strip = {"version"}
        if not isinstance(old, dict) or {k: v for k, v in old.items() if k not in strip} != \
                {k: v for k, v in g.items() if k not in strip}:
            changed += 1
        new = dict(rec)
        new.update(level=task.level, mode=mode, grade=g, grading_version=GRADING_VERSION)
        out.append(new)
    return out, changed


def cmd_grade(ns: argparse.Namespace) -> int:
    from toolmaze_gym import metrics
    from toolmaze_gym.grading import GRADING_VERSION

    if ns.resamples <= 0:
        raise UsageError("--resamples must be a positive number")
    out_path = output_file(ns.out)
    run = Path(ns.run)
    records = _read_records(run)
    tasks = _task_source(ns.tasks)
    graded, changed = regrade(records, tasks, str(run), ns.tasks)

    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for rec in graded:
        groups[(str(rec.get("agent", "")), str(rec.get("prompt", "")))].append(rec)
    report: dict[str, Any] = {}
    for (agent, prompt), recs in sorted(groups.items()):
        name = "/".join(x for x in (agent, prompt) if x) or "records"
        tbl = metrics.table(recs)
        if ns.ci:
            tbl["ci"] = metrics.bootstrap_table(recs, n=ns.resamples, seed=ns.seed)
        runs = max(Counter((r["task_id"], r["mode"]) for r in recs).values())
        if runs > 1:
            tbl["pass^k"] = {k: metrics.pass_hat_k_records(recs, k) for k in range(1, runs + 1)}
        report[name] = tbl
        if not ns.json:
            print(f"== {name}: {len(recs)} trajectories")
            print(metrics.format_table(tbl))
            if "ci" in tbl:
                lo_hi = tbl["ci"]["composite"]
                if lo_hi:
                    print(f"composite 95% CI: {100 * lo_hi[0]:.2f}-{100 * lo_hi[1]:.2f}")
            if "pass^k" in tbl:
                print("pass^k: " + ", ".join(f"k={k} {100 * v:.2f}" for k, v in
                                             tbl["pass^k"].items() if v is not None))
            print()
    if ns.json:
        print(json.dumps(report, indent=2))
    if out_path is not None:
        from toolmaze_gym.redact import Redactor
        from toolmaze_gym.runner import to_json

        redactor = Redactor.from_environment()  # records are written as the runner writes
        with out_path.open("w", encoding="utf-8") as fh:
            for rec in graded:
                fh.write(to_json(rec, redactor) + "\n")
    print(f"re-graded {len(graded)} records with grading version {GRADING_VERSION}; "
          f"{changed} grades changed" + (f"; wrote {out_path}" if out_path else ""),
          file=sys.stderr)
    return 0


def add_commands(sub) -> None:
    from toolmaze_gym.tasks.suite import SUITE_NAME

    p = sub.add_parser("grade", help="re-grade trajectory records (JSONL) and print the "
                       "C×P table")
    p.add_argument("run", help="JSONL file of trajectory records (rollout/runner output)")
    p.add_argument("--tasks", default=SUITE_NAME,
                   help="suite name, suite directory or JSONL file of the tasks the records "
                   "ran on")
    p.add_argument("--out", help="write the re-graded records to this JSONL file")
    p.add_argument("--json", action="store_true", help="print the tables as JSON")
    p.add_argument("--ci", action="store_true", help="add bootstrap 95%% confidence intervals")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.set_defaults(func=cmd_grade)
