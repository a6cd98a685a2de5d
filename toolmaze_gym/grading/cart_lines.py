"""A cart's lines in either order (grading version 30).

A request that orders two products "together" names no order of the cart's lines, and
the checkout is the same whichever goes in first: toolmaze-v13's review c4-0055
("Order 3 Veloxa Ultra Power Banks and 3 Kestrel Active Running Shoes together")
failed a cart created with the shoes and the power banks added, the same order at the
same total, on every Action from the cart on.

A task whose cart is created by one Action and filled by another that adds to it has a
twin with the two lines swapped (the product and quantity each Action takes), its
reference paths run again; an episode the task fails is graded against the twin too,
and a success there is the grade. Nothing else changes: the twin's slots, paths and
faults are the task's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.identity_cache import IdentityCache
from toolmaze_gym.tasks.execution import ExecutionError, execute
from toolmaze_gym.tasks.model import Slot, SolutionPath, Task

CREATE, ADD = "shop.cart_create", "shop.cart_add"
LINE_ROLES = frozenset({"product_id", "quantity"})


def _behaviour(slot: Slot, corpus: Corpus) -> str:
    """The one behaviour every tool of the slot has ('' where they differ)."""
    found = {corpus.tools[t].behaviour for side in slot.alternatives for t in side
             if t in corpus.tools}
    return found.pop() if len(found) == 1 else ""


def _pair(task: Task, corpus: Corpus) -> tuple[Slot, Slot] | None:
    """The slot that creates the cart and the one that adds the second line to it."""
    for add in task.slots:
        if _behaviour(add, corpus) != ADD:
            continue
        for i in add.inputs:
            first = task.slot_by_id.get(i.source.slot) if i.source.kind == "slot" else None
            if first is not None and _behaviour(first, corpus) == CREATE:
                return first, add
    return None


def _lines(slot: Slot) -> dict[str, object]:
    return {i.role: i for i in slot.inputs if i.role in LINE_ROLES}


_TWINS: IdentityCache[Task | None] = IdentityCache(256)


def swapped(task: Task, corpus: Corpus) -> Task | None:
    """``task`` with its cart's two lines the other way round; None: no such pair. One
    twin per task (kept, as ``index.task_index`` keeps its index, by identity: the twin's
    index is built once)."""
    return _TWINS.get(task, corpus, lambda: _swapped(task, corpus))


def _swapped(task: Task, corpus: Corpus) -> Task | None:
    pair = _pair(task, corpus)
    if pair is None:
        return None
    first, add = pair
    a, b = _lines(first), _lines(add)
    if set(a) != LINE_ROLES or set(b) != LINE_ROLES:
        return None
    if all(a[r] == b[r] for r in LINE_ROLES):
        return None  # the same line twice: nothing to swap

    def take(slot: Slot, other: dict[str, object]) -> Slot:
        return replace(slot, inputs=tuple(
            replace(other[i.role], mentions=i.mentions) if i.role in LINE_ROLES else i
            for i in slot.inputs))
    slots = [take(s, b) if s.id == first.id else take(s, a) if s.id == add.id else s
             for s in task.slots]
    return _rerun(replace(task, slots=slots), corpus)


def _rerun(twin: Task, corpus: Corpus) -> Task | None:
    """``twin`` with its reference runs done again on its own slots (the cart's ids and
    its lines' responses are the twin's), on the task's world edition."""
    from toolmaze_gym.corpus.simulator import Simulator
    from toolmaze_gym.tasks.suites import edition_of
    from toolmaze_gym.world import get_world

    sim = Simulator(corpus, get_world(0, edition_of(twin)))
    try:
        paths = [SolutionPath(p.choice, tuple(execute(sim, twin.slots, p.choice)))
                 for p in twin.solutions]
    except ExecutionError:
        return None
    return replace(twin, solutions=paths)


def as_graded(task: Task, corpus: Corpus, steps: Sequence[Step]) -> Task:
    """The task an episode's success was graded against: the twin where the episode
    completes no path of ``task`` and does complete one of its twin (what an
    explanation of that success lists as done), else ``task``."""
    twin = swapped(task, corpus)
    if twin is None or _completed(task, corpus, steps):
        return task
    return twin if _completed(twin, corpus, steps) else task


def _completed(task: Task, corpus: Corpus, steps: Sequence[Step]) -> bool:
    from toolmaze_gym.grading.index import task_index
    from toolmaze_gym.grading.trace import Trace

    return Trace(task_index(task, corpus), list(steps)).best()[1]
