"""Reading trajectory records for ``report`` and ``grade``: a run directory or a bare
JSONL file, each record with where it came from, every unreadable input one line.

Why here and not in the runner: the runner reads its own files to resume, where a
last line cut short by a kill is expected and dropped (that episode runs again). A
report must not drop it silently: its figures would miss an episode without a word.
So this layer refuses what the runner tolerates (a cut last line, bytes that are not
UTF-8) with the file and line, and checks the shape of every record before a grader
or a table reads a field of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolmaze_gym.runner import (
    RECORDS_GLOB,
    RunError,
    read_records,
    record_key,
    unique_records,
    warn_duplicates,
)

# What re-grading a record needs; ``level`` and the grade are derived from them.
RECORD_FIELDS = ("task_id", "mode", "steps")
# Fields a record may lack (or hold null), and their shape when present.
OPTIONAL_FIELDS = {"agent": str, "prompt": str, "suite": str, "tasks": str, "cut": str,
                   "usage": dict, "agent_options": dict}
# A stored action's fields, where present.
ACTION_FIELDS = {"name": str, "arguments": dict, "text": str}
# What the tables, metrics and viewer read of a stored grade.
GRADE_FIELDS = ("success", "exposed", "recovered", "c", "c_star", "c_rec")
CUT_SHORT = ("the last record is cut short (its run stopped, or is still writing it): "
             "`toolmaze eval --resume` on the run directory rewrites it, or delete the line")

Located = tuple[str, dict[str, Any]]  # (where: "file:line" or "dir (episode key)", record)


def check_record(rec: Any, where: str) -> dict[str, Any]:
    """``rec`` if it is a trajectory record with a well-formed grade (or none: grades
    are re-derived); otherwise a RunError naming the first thing wrong."""
    if not isinstance(rec, dict):
        raise RunError(f"{where}: a record must be a JSON object")
    missing = [k for k in RECORD_FIELDS if k not in rec]
    if missing:
        raise RunError(f"{where}: not a trajectory record (the field {missing[0]} is missing)")
    for name in ("task_id", "mode"):
        if not isinstance(rec[name], str):
            raise RunError(f"{where}: not a trajectory record (its {name} is not a string)")
    if not isinstance(rec["steps"], list):
        raise RunError(f"{where}: not a trajectory record (its steps are not a list)")
    for name, kind in OPTIONAL_FIELDS.items():
        if rec.get(name) is not None and not isinstance(rec[name], kind):
            raise RunError(f"{where}: not a trajectory record (its {name} is not "
                           f"{'a string' if kind is str else 'a JSON object'})")
    try:
        record_key(rec)
    except (ValueError, TypeError):
        raise RunError(f"{where}: not a trajectory record (its repeat is not a whole "
                       "number)") from None
    for k, step in enumerate(rec["steps"], 1):
        problem = _step_problem(step)
        if problem:
            raise RunError(f"{where}: malformed record (step {k}: {problem})")
    grade = rec.get("grade")
    if grade is not None:
        if not isinstance(grade, dict):
            raise RunError(f"{where}: its grade is not a JSON object")
        lacking = [k for k in GRADE_FIELDS if k not in grade]
        if lacking:
            raise RunError(f"{where}: its grade lacks the field {lacking[0]!r} (not as the "
                           "runner wrote it; delete the grade to have it derived again)")
    return rec


def _step_problem(step: Any) -> str | None:
    """What is wrong with the shape of a stored step (None: it is as the env writes
    it); the grader reads these fields without further checks."""
    if not isinstance(step, dict):
        return "not a JSON object"
    for name in ("raw", "action", "status", "observation"):
        if name not in step:
            return f"the field {name} is missing"
    action, status = step["action"], step["status"]
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        return "its action is not an object with a kind"
    for name, kind in ACTION_FIELDS.items():
        if name in action and not isinstance(action[name], kind):
            return f"its action's {name} has the wrong type"
    if status is not None and (not isinstance(status, int) or isinstance(status, bool)):
        return "its status is not a number"
    if not isinstance(step["raw"], str) or not isinstance(step["observation"], str):
        return "its raw text or observation is not a string"
    if step.get("fault") is not None and not isinstance(step["fault"], dict):
        return "its fault is not a JSON object"
    return None


def _not_utf8(path: Path, data: bytes) -> RunError:
    """The first line of ``data`` that is not UTF-8, as a one-line error."""
    for lineno, line in enumerate(data.split(b"\n"), 1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return RunError(f"{path}:{lineno}: not UTF-8 text (byte 0x{line[exc.start]:02x} "
                            f"at column {exc.start + 1})")
    return RunError(f"{path}: not UTF-8 text")


def _cut_last_line(path: Path, data: bytes) -> RunError | None:
    """An error when the last line has no newline and is no complete JSON object."""
    if not data or data.endswith(b"\n"):
        return None
    try:
        if isinstance(json.loads(data[data.rfind(b"\n") + 1:]), dict):
            return None
    except (ValueError, RecursionError):  # RecursionError: nested too deep for json
        pass
    lineno = data.count(b"\n") + 1
    return RunError(f"{path}:{lineno}: {CUT_SHORT}")


def read_file(path: Path) -> list[Located]:
    """The records of a JSONL file, each with its ``file:line``."""
    data = path.read_bytes()
    cut = _cut_last_line(path, data)
    if cut is not None:
        raise cut
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _not_utf8(path, data) from None
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RunError(f"{path}:{lineno}:{exc.colno}: not valid JSON ({exc.msg})") \
                from None
        except RecursionError:  # json recurses once per level: no record nests this deep
            raise RunError(f"{path}:{lineno}: nested too deeply to be a trajectory record") \
                from None
        out.append((f"{path}:{lineno}", check_record(rec, f"{path}:{lineno}")))
    return _unique(out, path)


def _unique(located: list[Located], path: Path) -> list[Located]:
    """One record per episode (the runner's rule, :func:`unique_records`, which
    ``read_records`` applies to run directories), with a warning for what was dropped."""
    kept, dropped = unique_records(rec for _, rec in located)
    warn_duplicates(path, dropped)
    keep = {id(rec) for rec in kept}
    return [(where, rec) for where, rec in located if id(rec) in keep]


def read_dir(run_dir: Path) -> list[Located]:
    """The records of a run directory (every shard file, one per episode key, as the
    runner reads them), each named by its directory and episode key."""
    files = sorted(run_dir.glob(RECORDS_GLOB))
    for path in files:
        data = path.read_bytes()
        cut = _cut_last_line(path, data)
        if cut is not None:
            raise cut
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise _not_utf8(path, data) from None
    out = []
    try:
        records = read_records(run_dir)
    except RecursionError:  # json recurses once per level: no record nests this deep
        raise RunError(f"{run_dir}: a line nested too deeply to be a trajectory record") \
            from None
    for rec in records:
        where = f"{run_dir} (episode {record_key(rec)})"
        out.append((where, check_record(rec, where)))
    return out


def read_source(path: Path) -> list[Located]:
    """Records of a run directory or a JSONL file; an empty source is an error."""
    if path.is_dir():
        records = read_dir(path)
    elif path.is_file():
        records = read_file(path)
    else:
        raise RunError(f"no such run directory or records file: {path}")
    if not records:
        raise RunError(f"{path} holds no trajectory records")
    return records
