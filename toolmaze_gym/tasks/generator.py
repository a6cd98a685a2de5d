"""Task generation per level: chain specs, finalisation and acceptance.

Every random choice comes from ``hashing.Stream`` keyed by (seed, level, index,
attempt), so the same seed gives the same tasks on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import replace

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
MAX_ATTEMPTS = 60


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
            a = self.assembler
            a.fixed = [u for u in a.fixed if not u.tools & banned]
            a.branch = [u for u in a.branch if not u.tools & banned]
        self.banned = banned
        self.domains = [d for d in DOMAINS if d not in set(exclude_domains)]

    # -- level shapes ------------------------------------------------------------

    def _chain(self, level: str, stream: hashing.Stream, primary: str) -> Draft | None:
        target = stream.weighted(list(LENGTHS[level]), list(LENGTHS[level].values()))
        dom = frozenset({primary, "General"})
        spec = ChainSpec(calls=target, branches={}, domains=dom,
                         final_domains=dom | {"Office"})
        if level == "C2":
            spec = replace(spec, branches={stream.randint(0, target - 1): SINGLE})
        elif level == "C3":
            spec = replace(spec, branches={stream.randint(0, max(0, target - 3)): MULTI})
        elif level == "C4":
            return self._join(stream, primary, target)
        return self.assembler.grow(Draft(), spec, stream)

    def _join(self, stream: hashing.Stream, primary: str, target: int) -> Draft | None:
        """C4: two parallel branches (two domains) that join, then a tail to an Action."""
        other = stream.choice([d for d in self.domains if d not in (primary, "General")]
                              or [primary])
        la = max(2, round((target - 1) * 0.45))
        lb = max(2, round((target - 1) * 0.3))
        lt = max(1, target - la - lb)
        kinds = stream.shuffled([SINGLE, MULTI])
        a_br = {stream.randint(0, 1): kinds[0]}
        b_br = {stream.randint(0, 1): kinds[1]}
        if la >= 4 and stream.unit() < 0.35:
            a_br[2] = stream.choice([SINGLE, MULTI])
        da, db = frozenset({primary, "General"}), frozenset({other, "General"})
        a = self.assembler.grow(Draft(), ChainSpec(la, a_br, da, da, end_action=False),
                                stream.fork("A"))
        if a is None:
            return None
        a_last = a.slots[-1].id
        b = self.assembler.grow(a, ChainSpec(lb, b_br, db, db, end_action=False),
                                stream.fork("B"))
        if b is None:
            return None
        tail_dom = da | db | {"Office"}
        return self.assembler.grow(b, ChainSpec(lt, {}, tail_dom, tail_dom, prev=a_last,
                                                also_from=b.slots[-1].id), stream.fork("T"))

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
        return None if validate_task(task, self.corpus) else task

    # -- public ----------------------------------------------------------------------

    def generate(self, level: str, index: int, seed: int | str, task_id: str,
                 primary: str | None = None, skip: frozenset[str] = frozenset()) -> Task:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        primary = primary or self.domains[index % len(self.domains)]
        for attempt in range(MAX_ATTEMPTS):
            stream = hashing.Stream("toolmaze", seed, level, index, attempt)
            self.assembler.reset_budget()
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
                       skip: frozenset[str] = frozenset()) -> Iterator[Task]:
        """``n`` tasks of one level; tool usage steers later tasks towards diversity."""
        for i in range(n):
            yield self.generate(level, i, seed, f"{id_prefix}-{level.lower()}-{i:04d}",
                                skip=skip)
