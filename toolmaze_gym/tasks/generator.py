"""Task generation per level: chain specs, finalisation and acceptance.

Every random choice comes from ``hashing.Stream`` keyed by (seed, level, index,
attempt), so the same seed gives the same tasks on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator

from toolmaze_gym import hashing
from toolmaze_gym.corpus import Corpus, Simulator
from toolmaze_gym.corpus.spec import DOMAINS
from toolmaze_gym.tasks.assembly import LENGTHS, MULTI, SINGLE, Assembler, ChainSpec, Draft
from toolmaze_gym.tasks.enumeration import default_index, enumerate_solutions
from toolmaze_gym.tasks.execution import ExecutionError
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.queries import compose
from toolmaze_gym.tasks.validation import validate_task

GENERATOR_VERSION = "1.0"
MAX_ATTEMPTS = 30
MAX_INDEX_MISSES = 40
TAIL_BUDGET = 250
B_TRIES = 4
MAX_USE: dict[str, int] = {}


class GenerationError(RuntimeError):
    """No acceptable task was found within the attempt budget."""


def signature(task: Task) -> str:
    """Identity of a task's DAG and entities (ids, queries and distractors aside)."""
    parts = [task.level]
    for s in task.slots:
        ins = [(i.role, i.type, i.source.kind, i.source.slot, repr(i.source.value))
               for i in s.inputs]
        parts.append(f"{s.alternatives}|{ins}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


class TaskGenerator:
    def __init__(self, sim: Simulator | None = None, exclude_tools: Iterable[str] = (),
                 exclude_domains: Iterable[str] = ()) -> None:
        self.sim = sim or Simulator()
        self.corpus: Corpus = self.sim.corpus
        self.assembler = Assembler(self.sim)
        banned = set(exclude_tools)
        banned |= {t for t, s in self.corpus.tools.items() if s.domain in set(exclude_domains)}
        if banned:
            self.assembler.restrict(banned)
        self.banned = banned
        self.domains = [d for d in DOMAINS if d not in set(exclude_domains)]
        # General is glue (weather, time, text, maths) in most tasks; it is never
        # the subject of one, so primary domains rotate over the other five.
        self.primaries = [d for d in self.domains if d != "General"] or self.domains

    # -- level shapes ------------------------------------------------------------

    def _chain(self, level: str, stream: hashing.Stream, primary: str) -> Draft | None:
        target = stream.weighted(list(LENGTHS[level]), list(LENGTHS[level].values()))
        if level == "C4":
            return self._join(stream, primary, target)
        dom = frozenset({primary, "General", self._secondary(stream, primary)})
        need = {"C1": (), "C2": (SINGLE,), "C3": (MULTI,)}[level]
        spec = ChainSpec(calls=target, need=need, domains=dom, final_domains=dom | {"Office"},
                         subject=primary)
        return self.assembler.grow(Draft(), spec, stream)

    def _secondary(self, stream: hashing.Stream, primary: str) -> str:
        """A neighbouring domain a chain may pass through (a travel fare converted by a
        finance tool); the chain still starts in the primary domain."""
        return stream.choice([d for d in self.primaries if d != primary] or [primary])

    def _join(self, stream: hashing.Stream, primary: str, target: int) -> Draft | None:
        """C4: two parallel branches (two domains) that join, then a tail to an Action.

        Branch slots (at least one single-tool and one sub-graph group) are spread
        over the first branch and the tail, sometimes the second branch too.
        """
        other = stream.choice([d for d in self.domains if d not in (primary, "General")]
                              or [primary])
        la = max(2, round((target - 1) * 0.45))
        lb = max(2, round((target - 1) * 0.3))
        lt = max(1, target - la - lb)
        kinds = stream.shuffled([SINGLE, MULTI])
        extra = (stream.choice([SINGLE, MULTI]),) if stream.unit() < 0.45 else ()
        da, db = frozenset({primary, "General"}), frozenset({other, "General"})
        a_spec = ChainSpec(la, (kinds[0],), da, da, end_action=False, subject=primary,
                           mid_actions=0)
        a = self.assembler.grow(Draft(), a_spec, stream.fork("A"))
        if a is None:
            return None
        a_last = a.slots[-1].id
        tail_dom = da | db | {"Office"}
        # The first branch is the costly search; the join fails most often, so a
        # few second branches are tried against it before starting over.
        for b_try in range(B_TRIES):
            b = self.assembler.grow(a, ChainSpec(lb, extra, db, db, end_action=False,
                                                 subject=other, mid_actions=0),
                                    stream.fork("B", b_try))
            if b is None:
                continue
            b_last = b.slots[-1].id
            for prev, also in stream.shuffled([(a_last, b_last), (b_last, a_last)]):
                done = self.assembler.grow(b, ChainSpec(lt, (kinds[1],), tail_dom, tail_dom,
                                                        prev=prev, also_from=also,
                                                        mid_actions=0),
                                           stream.fork("T", b_try, prev), budget=TAIL_BUDGET)
                if done is not None:
                    return done
        return None

    # -- finalisation ----------------------------------------------------------------

    def _distractors(self, task_tools: set[str], domains: set[str],
                     stream: hashing.Stream) -> list[str]:
        behaviours = {self.corpus[t].behaviour for t in task_tools}
        peers = {m for t in task_tools for g in self.corpus.groups_of[t] for m in g.tools}
        pool = sorted(t for t, s in self.corpus.tools.items()
                      if s.domain in domains and t not in task_tools and t not in peers
                      and t not in self.banned and s.behaviour not in behaviours)
        return sorted(stream.shuffled(pool)[: stream.randint(3, 5)])

    def _finalise(self, draft: Draft, level: str, task_id: str, primary: str,
                  stream: hashing.Stream) -> Task | None:
        try:
            solutions = enumerate_solutions(self.sim, draft.slots)
        except ExecutionError:
            return None
        d = default_index(solutions)
        sides = [s.alternatives[solutions[d].choice[k]] for k, s in enumerate(draft.slots)]
        task_tools = {t for s in draft.slots for t in s.tools}
        domains = sorted({self.corpus[t].domain for t in task_tools})
        entities = [{"type": i.type, "value": i.source.value, "slot": s.id, "role": i.role}
                    for s in draft.slots for i in s.inputs if i.source.is_literal]
        task = Task(id=task_id, level=level, domains=domains, query="", entities=entities,
                    slots=draft.slots, solutions=solutions, default=d,
                    tools=sorted(task_tools | set(self._distractors(task_tools, set(domains),
                                                                     stream))),
                    meta={"primary_domain": primary, "generator": GENERATOR_VERSION})
        task.query = compose(self.corpus, draft.slots, sides, task_id)
        task.meta["signature"] = signature(task)
        return None if validate_task(task, self.corpus, self.sim.world) else task

    # -- public ----------------------------------------------------------------------

    def generate(self, level: str, index: int, seed: int | str, task_id: str,
                 primary: str | None = None, skip: frozenset[str] = frozenset(),
                 attempts: int = MAX_ATTEMPTS) -> Task:
        """The task for (seed, level, index); raises GenerationError if none is found."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        primary = primary or self.primaries[index % len(self.primaries)]
        for attempt in range(attempts):
            stream = hashing.Stream("toolmaze", seed, level, index, attempt)
            draft = self._chain(level, stream, primary)
            if draft is None:
                continue
            task = self._finalise(draft, level, task_id, primary, stream.fork("final"))
            if task is not None and task.meta["signature"] not in skip:
                for t in task.task_tools:
                    self.assembler.usage[t] += 1
                return task
        raise GenerationError(f"no {level} task found for index {index} (seed {seed})")

    def generate_level(self, level: str, n: int, seed: int | str, id_prefix: str,
                       skip: frozenset[str] = frozenset(), start: int = 0) -> Iterator[Task]:
        """``n`` tasks of one level; tool usage steers later tasks towards diversity.

        Primary domains rotate with the number of tasks produced, so an index for
        which no task is found only costs time, never balance.
        """
        index = 0
        seen = set(skip)
        # Large C4 DAGs would otherwise keep reusing hub tools (summaries,
        # translators); a cap keeps tool sets as diverse as the paper's.
        self.assembler.max_use = MAX_USE.get(level)
        for k in range(n):
            primary = self.primaries[k % len(self.primaries)]
            for _ in range(MAX_INDEX_MISSES):
                index += 1
                try:
                    task_id = f"{id_prefix}-{level.lower()}-{start + k:04d}"
                    task = self.generate(level, index, seed, task_id,
                                         primary, frozenset(seen), attempts=MAX_ATTEMPTS)
                except GenerationError:
                    continue
                seen.add(task.meta["signature"])
                yield task
                break
            else:
                raise GenerationError(f"no {level} task with primary domain {primary} found; "
                                      "are too many tools or domains held out?")
