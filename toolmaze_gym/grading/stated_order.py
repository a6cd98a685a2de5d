"""The order a request states between steps the task graph leaves independent.

Sources and Processors are means, in any order the data allows; but a request may
state an order the data does not carry (toolmaze-v9 review c4-0080, play-test
c3-0071; grading version 21):

* **An asked check precedes the Action it guards.** "cool ... the office thermostat
  as well after checking its climate and dew point", "(check the office's humidity
  and dew point first)", "once you've checked it's in stock": where the request says
  so, a Source that reads the Action's own target (the same literal place and room,
  or the same upstream record: the SKU, the lock, the product) and that the reference
  run calls before the Action must be called before it. So must a check the Action's
  own data runs through (toolmaze-v10 review c3-0037, grading version 23): a Source
  that hands back unchanged what the Action takes from it (``check_inventory``'s
  product id, the tail of ``search_products -> check_inventory``, or a step of its
  own between the search and the cart), which the data alone would let the Action
  go without, as the search already showed the id. A check skipped fails, and
  so does one done after the Action; extra checks and a re-check do not matter. A
  derivable Processor of the check (the dew point) stays the agent's to work out,
  before or after: only the Sources it reads are the check.
* **A reading told "first" is read before the Action.** "bring the guest room to 22
  degrees (tell me the current reading first)": the device's own state (a stateful
  Source of the Action's target) is read before the Action changes it (grading
  version 27, toolmaze-v11 review c4-0051); a lookup that only shares the Action's
  place is not ordered.
* **A state read "then" is read after the Action.** "pay Aisha Mensah ...; then
  tell me the account's balance", "a push with the new balance afterwards", "what's
  left in the account" (grading version 28, toolmaze-v12 review c2-0081): a
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
    from toolmaze_gym.corpus.spec import ToolSpec
    from toolmaze_gym.tasks.model import Slot, Task

# "after checking", "after confirming", "after a stock check", "once you've checked",
# "having checked", "(... first)", "check X first" (not "check-in first"). Not "tell me
# the current reading first" (``READ_FIRST``): the phrase would order every Source that
# reads an Action's target, the arrival's time conversion before the scene scheduled at
# that instant too (v3-round8 c4-0087 P1)
CHECK_FIRST = re.compile(
    r"\bafter (?:checking|confirming|verifying|making sure|a look at|looking at|seeing)\b"
    r"|\bafter (?:a|the) (?:[\w-]+ ){0,2}check\b(?!-)"
    r"|\bonce you(?:(?:'|\u2019)?ve| have) (?:checked|seen|confirmed|verified|made sure)\b"
    r"|\bhaving (?:checked|confirmed|verified)\b"
    r"|\b(?:check|confirm|read|look at)\b(?!-)[^.;:]{0,60}\bfirst\b",
    re.IGNORECASE)
# "(tell me the current reading first)" (grading version 27, toolmaze-v11 review c4-0051):
# a reading the user asks to be told before an Action. It orders only the device's own
# state read (a stateful Source of the Action's target: the thermostat's state before its
# set point), never a lookup that merely shares the Action's place (the city's time zone
# before the scene scheduled there, which v3-round8 c4-0087 P1 read after).
READ_FIRST = re.compile(r"\b(?:tell|give|show|send) me\b[^.;:()]{0,50}\bfirst\b", re.IGNORECASE)
# A stock check or condition stated with the order, with no ordering word (grading
# version 25, toolmaze-v10 play-test c4-0043 "(check they're in stock)", c2-0012 "confirm
# stock"): "check it's in stock", "make sure they're in stock", "only if in stock", "if
# they have it in stock". It orders the stock lookup alone before the order: the other
# conditions of such a clause ("if they're well rated, in stock and can ship to Prague",
# toolmaze-v10 c4-0071) may be met by any response that shows them (a search's rating).
STOCK_FIRST = re.compile(
    r"\b(?:check|checking|confirm|confirming|verify|make sure|making sure|if)\b"
    r"[^.;:()?]{0,40}\bin stock\b"
    r"|\bconfirm (?:the )?stock\b",
    re.IGNORECASE)
STOCK_WORDS = frozenset({"stock", "inventory"})
WORD = re.compile(r"[a-z]+")
# the words of a check phrase itself, not of what it checks
CHECK_VERB = re.compile(r"(?:check|confirm|verif|look|seeing|read|first|after|once|"
                        r"having|making|made|sure)")
# "then tell me", "... afterwards", "after that", "the new balance"; "what's left in the
# account", "the remaining balance" (grading version 28, toolmaze-v12 review c2-0081: the
# balance read before the instalment was paid passed as what is left)
THEN = re.compile(r"\bthen\b|\bafterwards\b|\bafter that\b|\bnew balance\b"
                  r"|\bwhat(?:'|\u2019)?s left\b|\bwhat is left\b|\bremaining balance\b"
                  r"|\bleft over\b", re.IGNORECASE)


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


def _hands_back(spec: ToolSpec, types: Set[str]) -> bool:
    """Whether ``spec`` is a Source that answers each of ``types`` only with the value it
    was given (an echo: ``check_inventory``'s product id): what an Action takes from it
    it had before, so the call is there only to look (at the stock)."""
    fields = [f for f in spec.returns if f.type in types]
    return spec.category == "Source" and bool(fields) and all(f.echo for f in fields)


def _asked_words(query: str) -> frozenset[str]:
    """The words each stated check names ("it's in stock", "a stock check", "the SKU's
    stock level"): its clause up to the next comma or stop, less the check's own verbs."""
    out: set[str] = set()
    for m in [*CHECK_FIRST.finditer(query), *STOCK_FIRST.finditer(query)]:
        clause = re.split(r"[.;:,()]", query[m.start():], maxsplit=1)[0].lower()
        out |= {w for w in WORD.findall(clause) if len(w) > 3 and not CHECK_VERB.match(w)}
    return frozenset(out)


def _vocabulary(spec: ToolSpec) -> frozenset[str]:
    """The words of a tool's name and of its answer's field names (``in_stock``)."""
    return frozenset(WORD.findall(" ".join([spec.name, *(f.name for f in spec.returns)])))


def _lookup_checks(task: Task, corpus: Corpus, action: str, source: str) -> list[str]:
    """The tools of slot ``source`` that are a check the request names before Action
    slot ``action`` although the Action's own data runs through them: each hands back
    unchanged what the Action takes from the slot (so the data alone lets the Action go
    on the lookup before it) and its name or answer says what the request asks checked,
    in a word the Action's tools do not use as well (``stock``, not ``product``)."""
    taken = {i.type for i in task.slot_by_id[action].inputs if i.source.slot == source}
    if not taken:
        return []
    asked = _asked_words(task.query) - frozenset().union(
        *(_vocabulary(corpus[t]) for t in task.slot_by_id[action].tools))
    return [t for t in dict.fromkeys(task.slot_by_id[source].tools)
            if _hands_back(corpus[t], taken) and asked & _vocabulary(corpus[t])]


def _upstream_checks(task: Task, k: int, corpus: Corpus) -> set[str]:
    """The slots Action slot number ``k`` takes a value from through a check the request
    names (``_lookup_checks``): ``search_products -> check_inventory`` before the
    order, or a ``check_inventory`` of its own between the search and the cart."""
    act = task.slots[k]
    return {u for u in act.upstream() if _lookup_checks(task, corpus, act.id, u)}


def _stock_lookup(task: Task, corpus: Corpus, slot: str) -> bool:
    """Whether a tool of ``slot`` looks the stock up (its name or answer says so)."""
    return any(STOCK_WORDS & _vocabulary(corpus[t]) for t in task.slot_by_id[slot].tools)


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
    stock = not checks and STOCK_FIRST.search(task.query)
    told = READ_FIRST.search(task.query)
    out: dict[str, frozenset[str]] = {}
    for k, slot in enumerate(task.slots):
        before: set[str] = set()
        if (checks or stock) and _category(corpus, slot) == "Action":
            found = _checks(task, corpus, upstream, k) | _upstream_checks(task, k, corpus)
            before |= found if checks else {s for s in found
                                             if _stock_lookup(task, corpus, s)}
        if told and _category(corpus, slot) == "Action":
            before |= {s for s in _checks(task, corpus, upstream, k)
                       if any(corpus[t].stateful for t in task.slot_by_id[s].tools)}
        if then:
            before |= _reads_after(task, corpus, upstream, k)
        before = {b for b in before if rank[b] < rank[slot.id]}
        if before:
            out[slot.id] = frozenset(before)
    return out


def check_tools(task: Task, corpus: Corpus, action: str, check: str) -> list[str]:
    """The tools of slot ``check`` that are the check asked before Action slot
    ``action``: inside the Action's own lookup only the check (``check_inventory``, not
    the ``search_products`` before it); else any tool of the slot."""
    return _lookup_checks(task, corpus, action, check) or task.slot_by_id[check].tools


def not_before(before: Set[str], tools_of: Mapping[str, Sequence[str]],
               called: Sequence[tuple[str, bool]], i: int) -> list[str]:
    """The slots of ``before`` with no clean call of one of their tools (``tools_of``)
    before step ``i``: why an Action the request orders after them did not count.
    ``called``: each step's tool and whether it answered cleanly."""
    return sorted(s for s in before
                  if not any(ok and name in tools_of[s] for name, ok in called[:i]))
