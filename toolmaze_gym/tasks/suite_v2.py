"""The reference suite ``toolmaze-v2``, built from the scenario library.

Per level, the least-used scenario goes first (then the least-used domain), and
tool usage steers each task's choice of providers, which keeps tool sets diverse
(Table 1's Jaccard). Target
s* lengths are drawn from the paper's distribution per level. Everything is keyed
by the seed, so a rebuild is byte-identical; the manifest records the SHA-256 of
the scenario files beside the tasks'.

Procedural splits (``train``, ``dev``) draw the same scenarios with other seeds
and skip any task equal to a suite task (same DAG and literals).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from toolmaze_gym import hashing
from toolmaze_gym.corpus.spec import DOMAINS
from toolmaze_gym.tasks.assembly import LENGTHS
from toolmaze_gym.tasks.capabilities import capabilities
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.scenario_gen import GENERATOR_VERSION, ScenarioBuildError, ScenarioGenerator
from toolmaze_gym.tasks.scenarios import Scenario, library_files, load_library
from toolmaze_gym.tasks.suite import SPLITS, SuiteError, sha256, suite_signatures

SUITE_NAME = "toolmaze-v2"
SUITE_SEED = 20261201
PER_LEVEL = 100
ID_PREFIX = "tmz-v2"
CROWD_WEIGHT = 6.0  # per capability the typical earlier task already used
# One call off the target length, against one reuse of a scenario. C3 has the
# fewest usable scenarios, so there reuse (Jaccard) weighs more than length.
LENGTH_WEIGHT = {"C1": 1.1, "C2": 1.1, "C3": 0.5, "C4": 1.1}
DEAD_AFTER = 4  # failed tries after which a scenario that never built is skipped


def library_digest() -> str:
    """One SHA-256 over the scenario files (name and bytes), for the manifest."""
    h = hashlib.sha256()
    for p in library_files():
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


class LevelBuilder:
    """Tasks of one level, one after another, steered towards diversity."""

    def __init__(self, level: str, seed: int | str, scenarios: Iterable[Scenario],
                 gen: ScenarioGenerator | None = None) -> None:
        self.level, self.seed = level, seed
        self.gen = gen or ScenarioGenerator()
        eligible = [sc for sc in scenarios if level in sc.levels]
        self.by_domain = {d: [sc for sc in eligible if sc.domain == d] for d in DOMAINS}
        self.domains = [d for d in DOMAINS if self.by_domain[d]]
        if not self.domains:
            raise SuiteError(f"no scenario is written for {level}")
        self.uses: Counter[str] = Counter()
        self.domain_uses: Counter[str] = Counter()
        self.fails: Counter[str] = Counter()
        self.dead: set[str] = set()  # scenarios that keep failing and never built here

    def _order(self, k: int, target: int) -> list[Scenario]:
        """Scenarios to try for task ``k``: the least used first (tasks of one
        scenario share most tools, so spreading them keeps Jaccard low), traded
        against how far the scenario's s* lengths are from the target (the paper's
        length distribution); then the least used domain, then a seeded tie-break."""
        pool = [sc for d in self.domains for sc in self.by_domain[d] if sc.id not in self.dead]

        def miss(sc: Scenario) -> int:
            lengths = self.gen.lengths(sc, self.level)
            return min((abs(n - target) for n in lengths), default=99)

        def crowd(sc: Scenario) -> float:
            # How often earlier tasks already used this scenario's capabilities
            # (a forecast in every other task makes every pair overlap).
            caps = capabilities(self.gen.corpus)
            return sum(min(self.gen.usage[t] for t in caps[st.use].tools)
                       for st in sc.steps) / (k + 1)

        return sorted(pool, key=lambda sc: (self.uses[sc.id] + LENGTH_WEIGHT[self.level] * miss(sc)
                                            + CROWD_WEIGHT * crowd(sc),
                                            self.uses[sc.id], self.domain_uses[sc.domain],
                                            hashing.unit("order", self.seed, k, sc.id)))

    def task(self, k: int, task_id: str, skip: set[str]) -> Task:
        target = hashing.Stream("v2-length", self.seed, self.level, k).weighted(
            list(LENGTHS[self.level]), list(LENGTHS[self.level].values()))
        for sc in self._order(k, target):
            try:
                task = self.gen.generate(sc, self.level, f"{self.seed}/{k}", task_id,
                                         target=target, skip=frozenset(skip))
            except ScenarioBuildError:
                self.fails[sc.id] += 1
                if not self.uses[sc.id] and self.fails[sc.id] >= DEAD_AFTER:
                    self.dead.add(sc.id)
                continue
            self.uses[sc.id] += 1
            self.domain_uses[sc.domain] += 1
            self.gen.record(task)
            skip.add(task.meta["signature"])
            return task
        raise SuiteError(f"no {self.level} task could be built for index {k}; "
                         "the scenario library is too small for this level")


Check = Callable[[Task], list[str]]


def level_tasks(level: str, per_level: int = PER_LEVEL, seed: int | str = SUITE_SEED,
                on_task: Callable[[Task], None] | None = None, prefix: str = ID_PREFIX,
                skip: Iterable[str] = (), check: Check | None = None) -> list[Task]:
    builder = LevelBuilder(level, seed, load_library(), ScenarioGenerator(extra_check=check))
    seen = set(skip)
    out = []
    for k in range(per_level):
        task = builder.task(k, f"{prefix}-{level.lower()}-{k:04d}", seen)
        out.append(task)
        if on_task:
            on_task(task)
    return out


def _level_job(args: tuple[str, int, int | str, Check | None]) -> list[Task]:
    level, n, seed, check = args
    return level_tasks(level, n, seed, check=check)


ProfileWriter = Callable[[Sequence[Task]], bytes]
PROFILES_FILE = "profiles.jsonl"


def build_suite(out_dir: Path, seed: int = SUITE_SEED, per_level: int = PER_LEVEL,
                on_task: Callable[[Task], None] | None = None, jobs: int = 1,
                profiles: ProfileWriter | None = None, check: Check | None = None) -> dict:
    """Tasks, fault profiles and manifest of toolmaze-v2, written to ``out_dir``.

    ``profiles`` turns the tasks into the profiles file's bytes and ``check`` is an
    extra acceptance test per task; the caller passes the fault engine's writer and
    "its profiles can be built" (tasks never import faults: the dependency points
    the other way). A ``check`` must be picklable (a module-level function) when
    ``jobs`` > 1.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(jobs, len(LEVELS))) as pool:
            built = dict(zip(LEVELS, pool.map(_level_job, [(lv, per_level, seed, check)
                                                            for lv in LEVELS]), strict=True))
    else:
        built = {lv: level_tasks(lv, per_level, seed, on_task, check=check) for lv in LEVELS}
    files = {}
    for level in LEVELS:
        data = "".join(t.to_json() + "\n" for t in built[level]).encode("utf-8")
        (out_dir / f"{level}.jsonl").write_bytes(data)
        files[f"{level}.jsonl"] = sha256(data)
    if profiles is not None:
        data = profiles([t for lv in LEVELS for t in built[lv]])
        (out_dir / PROFILES_FILE).write_bytes(data)
        files[PROFILES_FILE] = sha256(data)
    manifest = {"name": out_dir.name, "seed": seed, "per_level": per_level,
                "generator": GENERATOR_VERSION, "scenarios": library_digest(), "files": files}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def generate_split(split: str, n: int, seed: int = 0, levels: Iterable[str] = LEVELS,
                   exclude_tools: Iterable[str] = (),
                   exclude_domains: Iterable[str] = ()) -> Iterator[Task]:
    """``n`` procedural v2 tasks, levels round-robin, disjoint from the v2 suite.

    ``exclude_domains`` drops that domain's scenarios and tools, ``exclude_tools``
    the named tools (generalisation splits).
    """
    if split not in SPLITS:
        raise SuiteError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    levels = list(levels)
    if not levels:
        raise SuiteError("no levels to generate")
    try:
        skip = set(suite_signatures(SUITE_NAME))
    except SuiteError:
        skip = set()
    held = set(exclude_domains)
    gen = ScenarioGenerator(exclude_tools=exclude_tools, exclude_domains=held)
    scenarios = [sc for sc in load_library() if sc.domain not in held]
    builders = {lv: LevelBuilder(lv, f"{split}:{seed}", scenarios, gen) for lv in levels}
    counts: Counter[str] = Counter()
    for i in range(n):
        lv = levels[i % len(levels)]
        k = counts[lv]
        counts[lv] += 1
        yield builders[lv].task(k, f"tmz-v2-{split}{seed}-{lv.lower()}-{k:04d}", skip)


def procedural_task(level: str, index: int, split: str, sim=None,
                    skip: Iterable[str] = (), tries: int = 24) -> Task:
    """One procedural v2 task determined by ``index`` alone (for an env's
    ``reset(seed)``): a scenario picked by a stable hash of the index, built with a
    fresh generator, never equal to a suite task."""
    if split not in SPLITS:
        raise SuiteError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    pool = [sc for sc in load_library() if level in sc.levels]
    if not pool:
        raise SuiteError(f"no scenario is written for {level}")
    gen = ScenarioGenerator(sim)
    skip = frozenset(skip)
    for k in range(tries):
        sc = pool[hashing.randint(0, len(pool) - 1, "procedural", split, level, index, k)]
        try:
            return gen.generate(sc, level, f"{split}:env:{index}:{k}",
                                f"tmz-v2-{split}-{level.lower()}-{index}", skip=skip)
        except ScenarioBuildError:
            continue
    raise SuiteError(f"no {level} task generated for index {index} (split {split})")
