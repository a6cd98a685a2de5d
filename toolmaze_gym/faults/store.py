"""Perturbation profiles shipped with a suite, covered by its manifest.

``build_reference`` generates a suite's tasks (its builder from ``tasks.suites``)
and then the profile of every (task, mode), written as ``profiles.jsonl`` beside
them with that file's checksum in the manifest: one release, one manifest. Every
reference suite (v1 and v2) ships its profiles the same way.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults.census import kind_counts
from toolmaze_gym.faults.modes import MODE_NAMES
from toolmaze_gym.faults.profiles import FaultProfile, ProfileError, build_profile
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import (
    PROFILES_FILE,
    SUITE_NAME,
    SuiteError,
    load_suite,
    sha256,
    suite_of,
    task_index,
)
from toolmaze_gym.tasks.suites import kind


def profile_lines(tasks: Iterable[Task], sim: Simulator) -> bytes:
    lines = []
    for task in tasks:
        for mode in MODE_NAMES:
            lines.append(json.dumps(build_profile(task, mode, sim).to_dict(), sort_keys=True,
                                    separators=(",", ":"), ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def build_reference(out_dir: Path, name: str = SUITE_NAME, seed: int | None = None,
                    per_level: int | None = None,
                    on_task: Callable[[Task], None] | None = None, jobs: int = 1) -> dict:
    """Tasks, profiles and manifest of reference suite ``name``, written to ``out_dir``.

    ``seed`` and ``per_level`` default to the suite's reference values. v2 keeps
    only tasks whose fault profiles can be built with an alternative left
    (``profiles_buildable``) and balances the kinds of implicit faults
    (``fault_kinds``); v1 is frozen and ignores both.
    """
    spec = kind(name)
    if not spec.rebuildable:
        raise SuiteError(f"{name} is kept loadable, not rebuildable: the world and the fault "
                         f"rules it was built under have changed since (build {SUITE_NAME})")
    sim = Simulator()
    return spec.build(out_dir, spec.seed if seed is None else seed,
                      spec.per_level if per_level is None else per_level, on_task, jobs,
                      profiles=lambda tasks: profile_lines(tasks, sim),
                      check=profiles_buildable, kinds=fault_kinds)


@cache
def _simulator() -> Simulator:
    return Simulator()


def fault_kinds(task: Task) -> Counter[str]:
    """The kinds of the implicit faults planted in ``task`` (over P3 and P4), which
    the v2 builder balances; empty when the task cannot carry one."""
    try:
        profiles = [build_profile(task, mode, _simulator()) for mode in ("P3", "P4")]
    except ProfileError:
        return Counter()
    return sum(kind_counts(profiles).values(), Counter())


def profiles_buildable(task: Task) -> list[str]:
    """Every fault mode's profile can be built for ``task``, and above C1 every
    victim is a branch slot, so the fault always leaves an alternative. The suite
    build and the procedural splits pass this as their per-task ``check`` (problems
    found; empty means the task is kept)."""
    try:
        profiles = [build_profile(task, mode, _simulator()) for mode in MODE_NAMES]
    except ProfileError as exc:
        return [f"fault profile: {exc}"]
    return [msg for p in profiles for msg in _stranded(task, p)][:1]


def _stranded(task: Task, profile: FaultProfile) -> list[str]:
    """Above C1 a fault must leave an alternative: victims that are not branch slots."""
    if task.level == "C1":
        return []
    slots = task.slot_by_id
    return [f"fault profile {profile.mode}: victim {v.slot} has no alternative"
            for v in profile.victims if not slots[v.slot].is_branch]


def playable_profile(task: Task, mode: str, sim: Simulator) -> FaultProfile | None:
    """The profile of (task, ``mode``) when the mode can be played on the task (what
    ``profiles_buildable`` asks of every mode), else None: the env's procedural
    splits test only the mode they are about to play, a fifth of the cost."""
    try:
        profile = build_profile(task, mode, sim)
    except ProfileError:
        return None
    return None if _stranded(task, profile) else profile


@cache
def shipped_profiles(name: str = SUITE_NAME) -> dict[tuple[str, str], FaultProfile]:
    return read_profiles(resources.files("toolmaze_gym") / "data" / "suites" / name, name)


def read_profiles(root, name: str) -> dict[tuple[str, str], FaultProfile]:
    """(task id, mode) -> profile of the suite in ``root`` (a shipped suite or a
    ``build-suite --out`` directory), checked against its manifest."""
    if not (root / PROFILES_FILE).is_file():
        raise SuiteError(f"{name} has no {PROFILES_FILE} (its profiles are made on the fly)")
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
    """The shipped profile of a suite task, or one built on the spot for other tasks.

    A task whose id names a shipped suite (``tmz-v3-...``) takes that suite's profile
    whichever ``suite`` is asked: an old episode replays under the faults it was
    played with after the default suite moves on."""
    suite = suite_of(task.id) or suite
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
