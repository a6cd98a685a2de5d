"""Task files a user hands in: a JSONL file of tasks or a suite directory.

Every command (and the runner) reads them through here, so a broken file is
reported alike everywhere: the file, the line, and what is wrong with it.
"""

from __future__ import annotations

import json
from pathlib import Path

from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suite import SuiteError, load_suite, sha256


class TaskFileError(ValueError):
    """A task source that cannot be read; the message is one line for the user."""


def read_task_lines(path: Path) -> list[Task]:
    """Tasks from a JSONL file; a broken line is reported with its line and column."""
    tasks = []
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = _text(path, lineno, raw)
            if line.strip():
                tasks.append(_task(path, lineno, line))
    if not tasks:
        raise TaskFileError(f"{path} holds no tasks")
    return tasks


def _text(path: Path, lineno: int, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{path}:{lineno}: not UTF-8 text (byte "
                            f"0x{raw[exc.start]:02x} at column {exc.start + 1})") from None


def _task(path: Path, lineno: int, line: str) -> Task:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise TaskFileError(f"{path}:{lineno}:{exc.colno}: not valid JSON ({exc.msg})") \
            from None
    if not isinstance(data, dict):
        raise TaskFileError(f"{path}:{lineno}: a task must be a JSON object")
    try:
        return Task.from_dict(data)
    except KeyError as exc:
        raise TaskFileError(f"{path}:{lineno}: not a task (the field {exc.args[0]} "
                            "is missing)") from None
    except (ValueError, TypeError, AttributeError):
        raise TaskFileError(f"{path}:{lineno}: not a task (a field has the wrong "
                            "shape)") from None


def read_suite_dir(path: Path) -> list[Task]:
    """Tasks of a suite directory (``build-suite --out``), checked against its manifest."""
    try:
        files = json.loads((path / "manifest.json").read_text(encoding="utf-8"))["files"]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise TaskFileError(f"{path}/manifest.json is not a suite manifest") from None
    tasks = []
    for level in LEVELS:
        name = f"{level}.jsonl"
        if name not in files:
            continue
        if not (path / name).is_file():
            raise TaskFileError(f"{path}/{name} is listed in the manifest but missing")
        if sha256((path / name).read_bytes()) != files[name]:
            raise TaskFileError(f"{path}/{name} does not match its manifest checksum")
        tasks += read_task_lines(path / name)
    if not tasks:
        raise TaskFileError(f"{path} holds no tasks")
    return tasks


def load_tasks(source: str) -> list[Task]:
    """A shipped suite by name, a suite directory, or a JSONL file of tasks."""
    path = Path(source)
    if path.is_dir():
        if not (path / "manifest.json").is_file():
            raise TaskFileError(f"{source} is a directory without a manifest.json "
                                "(not a suite)")
        return read_suite_dir(path)
    if path.suffix == ".jsonl" or path.exists():
        if not path.is_file():
            raise TaskFileError(f"{source} is not a regular file" if path.exists()
                                else f"no such file: {source}")
        return read_task_lines(path)
    try:
        return load_suite(source)
    except SuiteError as exc:
        raise TaskFileError(str(exc)) from None
