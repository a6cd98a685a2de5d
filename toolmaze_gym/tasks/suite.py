"""Loading shipped suites, and the first reference suite ``toolmaze-v1``.

Every suite is shipped as JSONL with a manifest (SHA-256 per file, generator
version, seed); ``load_suite`` checks the bytes against it. ``SUITE_NAME`` is the
default suite everywhere (``toolmaze-v15``, built by ``tasks.suite_v2``); the
builders of each suite are looked up by name in ``tasks.suites``.

The rest of this module is the v1 generator, kept so old runs stay loadable and
v1 still rebuilds bit for bit: ``build_suite``, ``generate_split`` and
``procedural_task`` make v1 tasks (type-wired DAGs) and skip any task whose DAG
and entities equal a v1 suite task, so training never sees that benchmark.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

from toolmaze_gym.tasks.generator import GENERATOR_VERSION, GenerationError, TaskGenerator
from toolmaze_gym.tasks.model import LEVELS, Task

SUITE_NAME = "toolmaze-v15"  # the default suite of every command, runner and env
V1_NAME = "toolmaze-v1"
V2_NAME = "toolmaze-v2"  # kept loadable for old runs; its builder became v3's
V3_NAME = "toolmaze-v3"  # kept loadable for old runs; built before the library's rework
SUITE_SEED = 20260501  # v1's seed (v2's is suite_v2.SUITE_SEED)
PER_LEVEL = 100
SPLITS = ("train", "dev")


_SUITE_ID = re.compile(r"tmz-(v\d+)-c\d-\d+$")  # a suite task's id names its suite


class SuiteError(Exception):
    """A suite is missing, unknown or does not match its manifest."""


def _dump(tasks: Iterable[Task]) -> bytes:
    return "".join(t.to_json() + "\n" for t in tasks).encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# C4 DAGs are slow to assemble; the level is built in independently steered parts
# (each with its own seed key), so parts can run in parallel with the same bytes.
PARTS = {"C4": 4}

Job = tuple[str, int, int | str, int]  # level, tasks, seed key, first task number


def _jobs(level: str, per_level: int, seed: int) -> list[Job]:
    parts = PARTS.get(level, 1)
    size = -(-per_level // parts)
    return [(level, min(size, per_level - first), seed if parts == 1 else f"{seed}/q{i}",
             first) for i, first in enumerate(range(0, per_level, size))]


def _run_job(job: Job, on_task: Callable[[Task], None] | None = None) -> list[Task]:
    level, n, seed, first = job
    tasks = []
    for task in TaskGenerator().generate_level(level, n, seed, "tmz-v1", start=first):
        tasks.append(task)
        if on_task:
            on_task(task)
    return tasks


def level_tasks(level: str, per_level: int = PER_LEVEL, seed: int = SUITE_SEED,
                on_task: Callable[[Task], None] | None = None) -> list[Task]:
    """One level of the suite: its parts in order, each from a fresh generator."""
    return [t for job in _jobs(level, per_level, seed) for t in _run_job(job, on_task)]


ProfileWriter = Callable[[Sequence[Task]], bytes]
PROFILES_FILE = "profiles.jsonl"


def build_suite(out_dir: Path, seed: int = SUITE_SEED, per_level: int = PER_LEVEL,
                on_task: Callable[[Task], None] | None = None, jobs: int = 1,
                profiles: ProfileWriter | None = None, check: object = None,
                kinds: object = None) -> dict:
    """Generate v1 into ``out_dir``; returns the manifest written beside it.

    ``jobs`` > 1 builds the levels' parts in parallel processes; the bytes are the
    same as a serial build. ``profiles`` turns the tasks into the profiles file's
    bytes (the fault engine's writer: tasks never import faults). ``check`` and
    ``kinds`` are accepted for the same signature as ``suite_v2.build_suite`` and
    not applied:
    v1 is frozen, and filtering its tasks would change the shipped bytes.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        todo = [j for lv in LEVELS for j in _jobs(lv, per_level, seed)]
        todo.sort(key=lambda j: (j[0] != "C4", j[0], j[3]))  # the slowest parts first
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = dict(zip(todo, pool.map(_run_job, todo), strict=True))
        built = {lv: [t for j in _jobs(lv, per_level, seed) for t in done[j]] for lv in LEVELS}
    else:
        built = {lv: level_tasks(lv, per_level, seed, on_task) for lv in LEVELS}
    sigs = [t.meta["signature"] for tasks in built.values() for t in tasks]
    if len(set(sigs)) != len(sigs):
        raise SuiteError("two parts of the suite produced the same task; change the seed")
    return write_suite(out_dir, built, profiles, {"seed": seed, "per_level": per_level,
                                                  "generator": GENERATOR_VERSION})


def write_suite(out_dir: Path, built: dict[str, Sequence[Task]],
                profiles: ProfileWriter | None, fields: dict) -> dict:
    """The level files, the profiles file and the manifest of a built suite (every
    reference suite ships this one layout); returns the manifest, which holds
    ``fields`` (seed, size, generator ...) and the SHA-256 of every file."""
    files = {}
    for level in LEVELS:
        data = _dump(built[level])
        (out_dir / f"{level}.jsonl").write_bytes(data)
        files[f"{level}.jsonl"] = sha256(data)
    if profiles is not None:
        data = profiles([t for lv in LEVELS for t in built[lv]])
        (out_dir / PROFILES_FILE).write_bytes(data)
        files[PROFILES_FILE] = sha256(data)
    manifest = {"name": out_dir.name, **fields, "files": files}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def _suite_root(name: str):
    root = resources.files("toolmaze_gym") / "data" / "suites" / name
    if not (root / "manifest.json").is_file():
        raise SuiteError(f"unknown suite {name!r} (shipped: {', '.join(shipped_suites())})")
    return root


@cache
def _suites_dir():
    """Where shipped suites live (resolving the package's files costs more than a
    reset of the env once did)."""
    return resources.files("toolmaze_gym") / "data" / "suites"


def shipped_suites() -> list[str]:
    base = _suites_dir()
    return sorted(p.name for p in base.iterdir() if (p / "manifest.json").is_file()) \
        if base.is_dir() else []


# Suite names found shipped. Shipped suites are package data, never removed while a
# process runs (their tasks are cached by ``_load`` anyway), so a name found once is
# not looked up again; a name not found is looked up each time (a suite may be added).
_SHIPPED: set[str] = set()


def is_shipped(name: str) -> bool:
    """``name in shipped_suites()``, for one name: one file check, then none.

    ``suite_of`` runs on every env reset and profile lookup; listing the suite
    folders there was most of a reset (~100 µs of ~120 µs)."""
    if name in _SHIPPED:
        return True
    if (_suites_dir() / name / "manifest.json").is_file():
        _SHIPPED.add(name)
        return True
    return False


def manifest(name: str = SUITE_NAME) -> dict:
    return json.loads((_suite_root(name) / "manifest.json").read_text())


@cache
def _load(name: str, level: str) -> tuple[Task, ...]:
    root = _suite_root(name)
    data = (root / f"{level}.jsonl").read_bytes()
    if sha256(data) != manifest(name)["files"][f"{level}.jsonl"]:
        raise SuiteError(f"{name}/{level}.jsonl does not match its manifest checksum")
    return tuple(Task.from_json(line) for line in data.decode().splitlines() if line)


def load_suite(name: str = SUITE_NAME, levels: Iterable[str] = LEVELS) -> list[Task]:
    """Tasks of the shipped suite, checked against the manifest."""
    out: list[Task] = []
    for level in levels:
        if level not in LEVELS:
            raise SuiteError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        out += _load(name, level)
    return out


@cache
def task_index(name: str = SUITE_NAME) -> dict[str, Task]:
    return {t.id: t for t in load_suite(name)}


def get_task(task_id: str, name: str | None = None) -> Task:
    """The task ``task_id`` of suite ``name``; without a name, of the suite the id
    names (``tmz-v3-...`` is toolmaze-v3's), else of the default suite: a stored id
    keeps finding its task after the default suite moves on."""
    name = name or suite_of(task_id) or SUITE_NAME
    try:
        return task_index(name)[task_id]
    except KeyError:
        raise SuiteError(f"no task {task_id!r} in {name}") from None


def suite_of(task_id: str) -> str | None:
    """The shipped suite a task id names (``tmz-v3-c1-0002`` is toolmaze-v3's), or None:
    so an id keeps finding its task after the default suite moves on."""
    m = _SUITE_ID.match(task_id)
    return f"toolmaze-{m[1]}" if m and is_shipped(f"toolmaze-{m[1]}") else None


@cache
def suite_signatures(name: str = SUITE_NAME) -> frozenset[str]:
    return frozenset(t.meta["signature"] for t in load_suite(name))


def generate_split(split: str, n: int, seed: int = 0, levels: Iterable[str] = LEVELS,
                   exclude_tools: Iterable[str] = (),
                   exclude_domains: Iterable[str] = (), check: object = None) -> Iterator[Task]:
    """``n`` procedural v1 tasks, levels round-robin, disjoint from the v1 suite.

    ``exclude_tools`` / ``exclude_domains`` hold tools or domains out (for
    generalisation splits). Each level comes from its own generator, so a level's
    tasks do not depend on the other levels asked for: ``toolmaze generate --jobs``
    builds the levels in parallel with the same bytes. ``check`` is accepted for
    the registry's common signature: the v1 generator validates fault profiles
    itself (``validation.fault_problems``).
    """
    if split not in SPLITS:
        raise SuiteError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    levels = list(levels)
    if not levels:
        raise SuiteError("no levels to generate")
    tools, domains = tuple(exclude_tools), tuple(exclude_domains)
    key = f"{split}:{seed}"
    streams = {lv: TaskGenerator(exclude_tools=tools, exclude_domains=domains).generate_level(
        lv, -(-n // len(levels)), key, f"tmz-{split}{seed}", skip=suite_signatures(V1_NAME))
        for lv in levels}
    for i in range(n):
        yield next(streams[levels[i % len(levels)]])


def procedural_task(level: str, index: int, split: str, sim=None,
                    skip: Iterable[str] = (), tries: int = 8, check: object = None) -> Task:
    """One procedural v1 task determined by ``index`` alone (for an env's
    ``reset(seed)``), never one whose signature is in ``skip``. ``check`` is not
    applied, as in ``generate_split``.

    A fresh generator per task: a used one steers by past tool usage, and the
    index must fully determine the task.
    """
    if split not in SPLITS:
        raise SuiteError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    for k in range(tries):
        try:
            return TaskGenerator(sim).generate(level, index + k, f"{split}:env",
                                               f"tmz-{split}-{level.lower()}-{index + k}",
                                               skip=frozenset(skip))
        except GenerationError:
            continue
    raise SuiteError(f"no {level} task generated near index {index} (split {split})")
