"""``toolmaze grade RUN``: re-grade trajectory records with the current grader.

RUN is a JSONL file whose lines are trajectory records as ``rollout()`` / the runner
write them (task id, mode, steps, ...), or a run directory (read as ``report`` reads
it). The steps are graded again against the task and its fault profile (``--tasks``; by
default the ``tasks.jsonl`` a run directory over a task file kept, as ``report``
reads it, else the shipped suite each record names, as ``report`` reads it too: a run
of an older default suite still grades) by the code ``report`` uses
(``toolmaze_gym.report.regrade``), the C×P table of every (agent, prompt) is printed,
the last line says how many stored grades disagreed, and ``--out`` writes the records
with the new grade and grading version.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolmaze_gym.cli.common import UsageError, exit_statuses, output_file

if TYPE_CHECKING:
    from toolmaze_gym.report.regrade import Regraded
    from toolmaze_gym.tasks.model import Task


def _read_records(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The records of a JSONL file or a run directory, checked (one line per mistake)."""
    from toolmaze_gym.report.records import read_source
    from toolmaze_gym.runner import RunError

    if not path.exists():
        raise UsageError(f"no such file or run directory: {path}")
    try:
        return read_source(path)
    except RunError as exc:
        raise UsageError(str(exc)) from None


def _task_source(source: str):
    """A lookup ``task id -> Task`` over a shipped suite or a JSONL file of tasks."""
    from toolmaze_gym.cli.common import load_tasks

    return {t.id: t for t in load_tasks(source)}


def _own_suite(rec: dict[str, Any]) -> str:
    """The shipped suite a record ran on: the one it names, else the one its task id
    names (``tmz-v3-...``), else the default suite."""
    from toolmaze_gym.tasks.suite import SUITE_NAME, shipped_suites, suite_of

    named = rec.get("suite")
    if isinstance(named, str) and named in shipped_suites():
        return named
    return suite_of(str(rec["task_id"])) or SUITE_NAME


def regrade(records: list[tuple[str, dict[str, Any]]], tasks: dict[str, Task] | None,
            source: str | None, sim: Any = None) -> Regraded:
    """The records graded again from their steps against ``tasks`` (from ``source``),
    or, with neither, each against the shipped suite it ran on."""
    from toolmaze_gym.report.regrade import regrade as regrade_records
    from toolmaze_gym.runner import RunError
    from toolmaze_gym.tasks.suite import shipped_suites, task_index

    def find(rec: dict[str, Any]):
        where = source or _own_suite(rec)
        task = (task_index(where) if tasks is None else tasks).get(rec["task_id"])
        if task is None:
            raise LookupError(f"task {rec['task_id']!r} is not in {where} (pass --tasks)")
        return task, where if where in shipped_suites() else None

    try:
        return regrade_records(records, find, sim)
    except RunError as exc:
        raise UsageError(str(exc)) from None


def _kept_tasks(run: Path) -> str | None:
    """The tasks a run directory over a task file kept (``tasks.jsonl``), which
    ``report`` reads too; None for a suite run or a records file."""
    from toolmaze_gym.runner import TASKS_FILE

    kept = run / TASKS_FILE
    return str(kept) if run.is_dir() and kept.is_file() else None


def cmd_grade(ns: argparse.Namespace) -> int:
    from toolmaze_gym import metrics
    from toolmaze_gym.grading import GRADING_VERSION
    if ns.resamples <= 0:
        raise UsageError("--resamples must be a positive number")
    out_path = output_file(ns.out)
    run = Path(ns.run)
    records = _read_records(run)
    source = ns.tasks or _kept_tasks(run)  # None: each record's own shipped suite
    result = regrade(records, _task_source(source) if source else None, source)
    graded, changed = result.records, result.disagreed + result.missing

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
          f"{changed} grades changed ({result.said()}); {result.replay_said()}"
          + (f"; wrote {out_path}" if out_path else ""), file=sys.stderr)
    return 0


def add_commands(sub) -> None:
    from toolmaze_gym.tasks.suite import SUITE_NAME

    p = sub.add_parser("grade", help="re-grade trajectory records (JSONL) and print the "
                       "C×P table", epilog=exit_statuses(
                           "the records are graded, also when some disagree with a replay "
                           "of their actions (stderr counts them; they score as failures)"))
    p.add_argument("run", help="JSONL file of trajectory records (rollout/runner output) or a "
                   "run directory (toolmaze eval --out)")
    p.add_argument("--tasks", default=None,
                   help="suite name, suite directory or JSONL file of the tasks the records "
                   "ran on (default: the tasks.jsonl a run directory kept, else the shipped suite "
                   f"each record names, else {SUITE_NAME})")
    p.add_argument("--out", help="write the re-graded records to this JSONL file")
    p.add_argument("--json", action="store_true", help="print the tables as JSON")
    p.add_argument("--ci", action="store_true", help="add bootstrap 95%% confidence intervals")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.set_defaults(func=cmd_grade)
