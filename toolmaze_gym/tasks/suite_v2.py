"""The reference suite ``toolmaze-v15``, built from the scenario library.

(``toolmaze-v2`` to ``toolmaze-v14`` came from the same builder, v2 under grading
version 3, v3 before the library's rework of issue 28, v4 to v14 before their blind
reviews' and play-tests' findings were fixed; all stay loadable for old runs,
but the world, asks, scenarios and fault rules have changed since.)

Per level, the least-used scenario goes first (then the least-used domain), and
tool usage steers each task's choice of providers, which keeps tool sets diverse
(Table 1's Jaccard); scenarios whose domains are under the paper's involvement
so far are favoured and over-target ones held back (Table 1's domain rows). Target
s* lengths are drawn from the paper's distribution per level. Everything is keyed
by the seed, so a rebuild is byte-identical; the manifest records the SHA-256 of
the scenario files beside the tasks'.

Procedural splits (``train``, ``dev``) draw the same scenarios with other seeds
and skip any task equal to a suite task (same DAG and literals).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from toolmaze_gym import hashing
from toolmaze_gym.corpus.corruption import FAULT_KINDS
from toolmaze_gym.corpus.spec import DOMAINS
from toolmaze_gym.tasks.assembly import LENGTHS
from toolmaze_gym.tasks.capabilities import capabilities
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.scenario_gen import GENERATOR_VERSION, ScenarioBuildError, ScenarioGenerator
from toolmaze_gym.tasks.scenarios import Scenario, library_files, load_library
from toolmaze_gym.tasks.stats import PAPER_TABLE1
from toolmaze_gym.tasks.suite import (
    SPLITS,
    ProfileWriter,
    SuiteError,
    suite_signatures,
    write_suite,
)

SUITE_NAME = "toolmaze-v15"
SUITE_SEED = 20261201
PER_LEVEL = 100
ID_PREFIX = "tmz-v15"
CROWD_WEIGHT = 7.0  # per capability the typical earlier task already used
# One call off the target length, against one reuse of a scenario. C3 has the
# fewest usable scenarios, so there reuse (Jaccard) weighs more than length.
LENGTH_WEIGHT = {"C1": 1.1, "C2": 1.1, "C3": 0.5, "C4": 1.1}
# Per task of squared miss against the paper's domain involvement (Table 1): how
# much one task's domains count against one reuse of a scenario. C4 tasks span
# many domains anyway and have the fewest scenarios, so there tool diversity
# (Jaccard) weighs more.
DOMAIN_WEIGHT = {"C1": 0.1, "C2": 0.1, "C3": 0.15, "C4": 0.05}
# One reuse of a scenario against a task whose fault kinds all sit one share-point
# above their even share: steers the implicit-fault mix towards the four plausible
# kinds in equal parts (left alone, most Sources can only answer for the wrong entity).
KIND_WEIGHT = 6.0
# Per tool (at most COVER_CAP) that a scenario could use and no task of the level
# has used yet, against one reuse of a scenario: rarely fitting providers still
# get their turn, so every tool of the corpus shows up somewhere.
COVER_WEIGHT = 1.0
COVER_CAP = 2
MAX_LENGTH_SHIFT = 2  # calls the running-mean feedback may move a drawn target
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
                 gen: ScenarioGenerator | None = None, kinds: Kinds | None = None,
                 distinct: bool = True) -> None:
        self.level, self.seed = level, seed
        # Each (scenario, phrasing) at most once: a second task of one would be the
        # same request with other names (tasks.repeats). Procedural splits of any
        # size turn it off, as they draw more tasks than the library has phrasings.
        self.distinct = distinct
        self.phrasings: dict[str, set[int]] = {}  # scenario -> phrasings used
        self.gen = gen or ScenarioGenerator()
        eligible = [sc for sc in scenarios if level in sc.levels]
        self.by_domain = {d: [sc for sc in eligible if sc.domain == d] for d in DOMAINS}
        self.domains = [d for d in DOMAINS if self.by_domain[d]]
        if not self.domains:
            raise SuiteError(f"no scenario is written for {level}")
        self.uses: Counter[str] = Counter()
        self.domain_uses: Counter[str] = Counter()
        self.involved: Counter[str] = Counter()  # tasks so far using a tool of each domain
        self.length_sum = 0  # s* calls of the tasks built so far
        self.kinds = kinds  # a task's implicit fault kinds (the fault engine's census)
        self.kind_total: Counter[str] = Counter()
        self.seen_kinds: dict[str, Counter[str]] = {}
        self.seen_domains: dict[str, frozenset[str]] = {}  # a scenario's last task's domains
        self.fails: Counter[str] = Counter()
        self.dead: set[str] = set()  # scenarios that keep failing and never built here

    def _order(self, k: int, target: int) -> list[Scenario]:
        """Scenarios to try for task ``k``: the least used first (tasks of one
        scenario share most tools, so spreading them keeps Jaccard low), traded
        against how far the scenario's s* lengths are from the target (the paper's
        length distribution); then the least used domain, then a seeded tie-break."""
        pool = [sc for d in self.domains for sc in self.by_domain[d]
                if sc.id not in self.dead and len(self._avoid(sc)) < len(sc.phrasings)]

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
                                            + CROWD_WEIGHT * crowd(sc)
                                            + DOMAIN_WEIGHT[self.level]
                                            * self.domain_miss(sc, k)
                                            + KIND_WEIGHT * self.kind_miss(sc)
                                            - COVER_WEIGHT * self.unused_tools(sc),
                                            self.uses[sc.id], self.domain_uses[sc.domain],
                                            hashing.unit("order", self.seed, k, sc.id)))

    def domains_of(self, sc: Scenario) -> frozenset[str]:
        """The domains a task of ``sc`` will involve: those of its last task here,
        else the ones every way of doing some step involves (a guess before the
        scenario has been built: providers of composite sides vary)."""
        if sc.id in self.seen_domains:
            return self.seen_domains[sc.id]
        caps = capabilities(self.gen.corpus)
        corpus = self.gen.corpus
        out: set[str] = set()
        for st in sc.steps:
            per_side = [{corpus[t].domain for t in side} for side in caps[st.use].sides]
            out |= set.intersection(*per_side) if per_side else set()
        return frozenset(out)

    def unused_tools(self, sc: Scenario) -> int:
        """How many tools ``sc``'s steps could be done by that no task of this level
        has used yet (capped at COVER_CAP)."""
        caps = capabilities(self.gen.corpus)
        fresh = {t for st in sc.steps for t in caps[st.use].tools if not self.gen.usage[t]}
        return min(COVER_CAP, len(fresh))

    def kind_miss(self, sc: Scenario) -> float:
        """How far the fault kinds of ``sc``'s last task lean towards kinds that are
        already over their even share in this level (negative: towards rare ones);
        0 before the scenario was built or without a census."""
        mine, total = self.seen_kinds.get(sc.id), sum(self.kind_total.values())
        if not mine or not total:
            return 0.0
        even = {k: 1 / len(FAULT_KINDS) for k in FAULT_KINDS}
        n = sum(mine.values())
        return sum(c / n * (self.kind_total[k] / total - even.get(k, 0.0))
                   for k, c in mine.items())

    def domain_miss(self, sc: Scenario, k: int) -> float:
        """How much task ``k`` from ``sc`` would change the squared distance between
        the level's domain involvement and the paper's (per 100 tasks): negative when
        its domains are under target so far, positive when over."""
        paper = PAPER_TABLE1[self.level]
        return sum(2 * (self.involved[d] - paper[d] / 100 * (k + 1)) + 1
                   for d in self.domains_of(sc))

    def target_length(self, k: int) -> int:
        """The s* length to aim at for task ``k``: a draw from the paper's length
        distribution, moved towards whatever keeps the level's running mean on the
        paper's (long scenarios fail more often than short ones, so without this
        feedback the mean drifts short)."""
        lengths = list(LENGTHS[self.level])
        target = hashing.Stream("v2-length", self.seed, self.level, k).weighted(
            lengths, list(LENGTHS[self.level].values()))
        deficit = PAPER_TABLE1[self.level]["avg_length"] * k - self.length_sum
        shift = max(-MAX_LENGTH_SHIFT, min(MAX_LENGTH_SHIFT, int(deficit)))
        return max(min(lengths), min(max(lengths), target + shift))

    def _avoid(self, sc: Scenario) -> frozenset[int]:
        """The phrasings of ``sc`` a new task must not take (none unless distinct)."""
        return frozenset(self.phrasings.get(sc.id, ())) if self.distinct else frozenset()

    def task(self, k: int, task_id: str, skip: set[str]) -> Task:
        target = self.target_length(k)
        for sc in self._order(k, target):
            try:
                task = self.gen.generate(sc, self.level, f"{self.seed}/{k}", task_id,
                                         target=target, skip=frozenset(skip),
                                         avoid=self._avoid(sc))
            except ScenarioBuildError:
                self.fails[sc.id] += 1
                if not self.uses[sc.id] and self.fails[sc.id] >= DEAD_AFTER:
                    self.dead.add(sc.id)
                continue
            self.uses[sc.id] += 1
            self.phrasings.setdefault(sc.id, set()).add(task.meta["phrasing"])
            self.domain_uses[sc.domain] += 1
            self.involved.update(task.domains)
            self.length_sum += task.default_path.length
            if self.kinds:
                self.seen_kinds[sc.id] = self.kinds(task)
                self.kind_total.update(self.seen_kinds[sc.id])
            self.seen_domains[sc.id] = frozenset(task.domains)
            self.gen.record(task)
            skip.add(task.meta["signature"])
            return task
        raise SuiteError(f"no {self.level} task could be built for index {k}; "
                         "the scenario library is too small for this level")


Check = Callable[[Task], list[str]]
Kinds = Callable[[Task], Counter[str]]


def level_tasks(level: str, per_level: int = PER_LEVEL, seed: int | str = SUITE_SEED,
                on_task: Callable[[Task], None] | None = None, prefix: str = ID_PREFIX,
                skip: Iterable[str] = (), check: Check | None = None,
                kinds: Kinds | None = None) -> list[Task]:
    builder = LevelBuilder(level, seed, load_library(), ScenarioGenerator(extra_check=check),
                           kinds)
    seen = set(skip)
    out = []
    for k in range(per_level):
        task = builder.task(k, f"{prefix}-{level.lower()}-{k:04d}", seen)
        out.append(task)
        if on_task:
            on_task(task)
    return out


def _level_job(args: tuple[str, int, int | str, Check | None, Kinds | None]) -> list[Task]:
    level, n, seed, check, kinds = args
    return level_tasks(level, n, seed, check=check, kinds=kinds)


def build_suite(out_dir: Path, seed: int = SUITE_SEED, per_level: int = PER_LEVEL,
                on_task: Callable[[Task], None] | None = None, jobs: int = 1,
                profiles: ProfileWriter | None = None, check: Check | None = None,
                kinds: Kinds | None = None) -> dict:
    """Tasks, fault profiles and manifest of toolmaze-v2, written to ``out_dir``.

    ``profiles`` turns the tasks into the profiles file's bytes and ``check`` is an
    extra acceptance test per task; the caller passes the fault engine's writer and
    "its profiles can be built" (tasks never import faults: the dependency points
    the other way); ``kinds`` (the fault kinds a task's implicit faults take)
    steers the kind mix. ``check`` and ``kinds`` must be picklable (module-level
    functions) when ``jobs`` > 1.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(jobs, len(LEVELS))) as pool:
            built = dict(zip(LEVELS, pool.map(_level_job, [(lv, per_level, seed, check, kinds)
                                                            for lv in LEVELS]), strict=True))
    else:
        built = {lv: level_tasks(lv, per_level, seed, on_task, check=check, kinds=kinds)
                 for lv in LEVELS}
    return write_suite(out_dir, built, profiles, {
        "seed": seed, "per_level": per_level, "generator": GENERATOR_VERSION,
        "scenarios": library_digest()})


def generate_split(split: str, n: int, seed: int = 0, levels: Iterable[str] = LEVELS,
                   exclude_tools: Iterable[str] = (),
                   exclude_domains: Iterable[str] = (),
                   check: Check | None = None) -> Iterator[Task]:
    """``n`` procedural v2 tasks, levels round-robin, disjoint from the v2 suite.

    ``exclude_domains`` drops that domain's scenarios and tools, ``exclude_tools``
    the named tools (generalisation splits); ``check`` is the suite build's extra
    acceptance test (the fault engine's "profiles can be built").
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
    held, tools = set(exclude_domains), tuple(exclude_tools)
    sim = ScenarioGenerator().sim
    scenarios = [sc for sc in load_library() if sc.domain not in held]
    # One generator (tool-usage steering) and skip set per level: a level's tasks do
    # not depend on the other levels asked for, so `toolmaze generate --jobs` builds
    # the levels in parallel with the serial bytes.
    builders = {lv: LevelBuilder(lv, f"{split}:{seed}", scenarios, ScenarioGenerator(
        sim, exclude_tools=tools, exclude_domains=held, extra_check=check), distinct=False)
        for lv in levels}
    skips = {lv: set(skip) for lv in levels}
    counts: Counter[str] = Counter()
    for i in range(n):
        lv = levels[i % len(levels)]
        k = counts[lv]
        counts[lv] += 1
        yield builders[lv].task(k, f"tmz-v2-{split}{seed}-{lv.lower()}-{k:04d}", skips[lv])


def procedural_task(level: str, index: int, split: str, sim=None,
                    skip: Iterable[str] = (), tries: int = 24,
                    check: Check | None = None) -> Task:
    """One procedural v2 task determined by ``index`` alone (for an env's
    ``reset(seed)``): a scenario picked by a stable hash of the index, built with a
    fresh generator, never equal to a suite task."""
    if split not in SPLITS:
        raise SuiteError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    pool = [sc for sc in load_library() if level in sc.levels]
    if not pool:
        raise SuiteError(f"no scenario is written for {level}")
    gen = ScenarioGenerator(sim, extra_check=check)
    skip = frozenset(skip)
    for k in range(tries):
        sc = pool[hashing.randint(0, len(pool) - 1, "procedural", split, level, index, k)]
        try:
            return gen.generate(sc, level, f"{split}:env:{index}:{k}",
                                f"tmz-v2-{split}-{level.lower()}-{index}", skip=skip)
        except ScenarioBuildError:
            continue
    raise SuiteError(f"no {level} task generated for index {index} (split {split})")
