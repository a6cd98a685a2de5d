"""Perturbation profiles shipped with a suite, covered by its manifest.

``build_reference`` generates the suite's tasks (``tasks.suite``) and then the
profile of every (task, mode), written as ``profiles.jsonl`` beside them, and
adds that file's checksum to the manifest: one release, one manifest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults.modes import MODE_NAMES
from toolmaze_gym.faults.profiles import FaultProfile, build_profile
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import (
    SUITE_NAME,
    SUITE_SEED,
    SuiteError,
    build_suite,
    load_suite,
    sha256,
    task_index,
)

PROFILES_FILE = "profiles.jsonl"


def profile_lines(tasks: Iterable[Task], sim: Simulator) -> bytes:
    lines = []
    for task in tasks:
        for mode in MODE_NAMES:
            lines.append(json.dumps(build_profile(task, mode, sim).to_dict(), sort_keys=True,
                                    separators=(",", ":"), ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def build_reference(out_dir: Path, seed: int = SUITE_SEED, per_level: int = 100,
                    on_task: Callable[[Task], None] | None = None, jobs: int = 1) -> dict:
    """Tasks, profiles and manifest of a reference suite, written to ``out_dir``."""
    manifest = build_suite(out_dir, seed, per_level, on_task, jobs)
    tasks = [Task.from_json(line) for level in sorted(manifest["files"])
             for line in (out_dir / level).read_text().splitlines() if line]
    data = profile_lines(tasks, Simulator())
    (out_dir / PROFILES_FILE).write_bytes(data)
    manifest["files"][PROFILES_FILE] = sha256(data)
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


@cache
def shipped_profiles(name: str = SUITE_NAME) -> dict[tuple[str, str], FaultProfile]:
    root = resources.files("toolmaze_gym") / "data" / "suites" / name
    data = (root / PROFILES_FILE).read_bytes()
    manifest = json.loads((root / "manifest.json").read_text())
    if sha256(data) != manifest["files"].get(PROFILES_FILE):
        raise SuiteError(f"{name}/{PROFILES_FILE} does not match its manifest checksum")
    out = {}
    for line in data.decode().splitlines():
        if line:
            p = FaultProfile.from_dict(json.loads(line))
            out[(p.task_id, p.mode)] = p
    return out


def profile_for(task: Task, mode: str, sim: Simulator, suite: str = SUITE_NAME) -> FaultProfile:
    """The shipped profile of a suite task, or one built on the spot for other tasks."""
    try:
        shipped = shipped_profiles(suite)
    except (SuiteError, FileNotFoundError):
        shipped = {}
    found = shipped.get((task.id, mode))
    if found is not None and _is_suite_task(task, suite):
        return found
    return build_profile(task, mode, sim)


def _is_suite_task(task: Task, suite: str) -> bool:
    try:
        return task_index(suite)[task.id].meta.get("signature") == task.meta.get("signature")
    except (KeyError, SuiteError):
        return False


def suite_with_profiles(name: str = SUITE_NAME) -> list[tuple[Task, dict[str, FaultProfile]]]:
    profiles = shipped_profiles(name)
    return [(t, {m: profiles[(t.id, m)] for m in MODE_NAMES}) for t in load_suite(name)]
