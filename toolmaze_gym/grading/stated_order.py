"""The order a request states between steps the task graph leaves independent.

Sources and Processors are means, in any order the data allows; but a request may
state an order the data does not carry (toolmaze-v9 review c4-0080, play-test
c3-0071; grading version 21):

* **An asked check precedes the Action it guards.** "cool ... the office thermostat
  as well after checking its climate and dew point", "(check the office's humidity
  and dew point first)", "once you've checked it's in stock": where the request says
  so, a Source that reads the Action's own target (the same literal place and room,
  or the same upstream record: the SKU, the lock, the product) and that the reference
  run calls before the Action must be called before it. A check skipped fails, and
  so does one done after the Action; extra checks and a re-check do not matter. A
  derivable Processor of the check (the dew point) stays the agent's to work out,
  before or after: only the Sources it reads are the check.
* **A state read "then" is read after the Action.** "pay Aisha Mensah ...; then
  tell me the account's balance", "a push with the new balance afterwards": a
  stateful Source that reads a record an earlier Action of the reference run changed
  (the same account id) is read after that Action. The balance read before the
  payment is not the one asked; one read before and after is told as the later.

Both are read from the request's words, so a phrasing that states no order ("read
the office climate and dew point too") leaves the steps independent. The result is
per task (``TaskIndex`` keeps it) and feeds the resolver as extra upstream slots.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolmaze_gym.corpus import Corpus
    from toolmaze_gym.tasks.model import Slot, Task

# "after checking", "after a look at", "once you've checked", "(... first)", "check X first"
CHECK_FIRST = re.compile(
    r"\bafter (?:checking|a look at|looking at|seeing)\b"
    r"|\bonce you(?:'|\u2019)?ve (?:checked|seen|confirmed)\b"
    r"|\b(?:check|confirm|read|look at)\b[^.;:]{0,60}\bfirst\b",
    re.IGNORECASE)
# "then tell me", "... afterwards", "after that", "the new balance"
THEN = re.compile(r"\bthen\b|\bafterwards\b|\bafter that\b|\bnew balance\b", re.IGNORECASE)


def _category(corpus: Corpus, slot: Slot) -> str:
    """"Action" where any tool of the slot is one, else its first tool's category."""
    cats = [corpus[t].category for t in slot.tools]
    return "Action" if "Action" in cats else cats[0]


def _target(slot: Slot, ids_only: bool) -> frozenset[tuple[str, object]]:
    """What a slot reads or changes: its literal inputs (by type and value) and the
    upstream fields it takes (by slot and field); with ``ids_only`` only identifiers."""
    out = set()
    for i in slot.inputs:
        if ids_only and not i.type.endswith("_id"):
            continue
        if i.source.is_literal:
            out.add((i.type, repr(i.source.value)))
        else:
            out.add((i.source.slot, i.source.field or i.type))
    return frozenset(out)


def _checks(task: Task, corpus: Corpus, upstream: Mapping[str, Set[str]],
            k: int) -> set[str]:
    """The Sources before Action slot number ``k`` that read its target: every literal
    and upstream field of the Source is one the Action takes too, and the Action does
    not already read it through the data."""
    act = task.slots[k]
    target = _target(act, ids_only=False)
    found: set[str] = set()
    for s in task.slots[:k]:
        if s.id in upstream[act.id] or _category(corpus, s) == "Action":
            continue
        mine = _target(s, ids_only=False)
        if (mine and mine <= target) or found & set(s.upstream()):
            found.add(s.id)
    return {s for s in found if _category(corpus, task.slot_by_id[s]) == "Source"}


def _reads_after(task: Task, corpus: Corpus, upstream: Mapping[str, Set[str]],
                 k: int) -> set[str]:
    """The Actions before stateful Source slot number ``k`` that change the record it
    reads (an identifier both take: the account)."""
    src = task.slots[k]
    if _category(corpus, src) != "Source" or not any(corpus[t].stateful for t in src.tools):
        return set()
    target = _target(src, ids_only=True)
    return {a.id for a in task.slots[:k]
            if a.id not in upstream[src.id] and _category(corpus, a) == "Action"
            and target and target <= _target(a, ids_only=True)}


def stated_order(task: Task, corpus: Corpus, upstream: Mapping[str, Set[str]],
                 order: Sequence[str]) -> dict[str, frozenset[str]]:
    """Slot -> the slots the request states must be done before it (see the module
    docstring); only pairs the resolver's ``order`` already visits in that order.
    ``upstream``: each slot's data ancestors."""
    rank = {s: n for n, s in enumerate(order)}
    checks, then = CHECK_FIRST.search(task.query), THEN.search(task.query)
    out: dict[str, frozenset[str]] = {}
    for k, slot in enumerate(task.slots):
        before: set[str] = set()
        if checks and _category(corpus, slot) == "Action":
            before |= _checks(task, corpus, upstream, k)
        if then:
            before |= _reads_after(task, corpus, upstream, k)
        before = {b for b in before if rank[b] < rank[slot.id]}
        if before:
            out[slot.id] = frozenset(before)
    return out


def not_before(before: Set[str], tools_of: Mapping[str, Sequence[str]],
               called: Sequence[tuple[str, bool]], i: int) -> list[str]:
    """The slots of ``before`` with no clean call of one of their tools (``tools_of``)
    before step ``i``: why an Action the request orders after them did not count.
    ``called``: each step's tool and whether it answered cleanly."""
    return sorted(s for s in before
                  if not any(ok and name in tools_of[s] for name, ok in called[:i]))
