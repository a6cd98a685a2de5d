"""A change told the right way round: the old value as the old, the new as the new.

A request that asks a text to tell a change ("notify the household with the old and
new setpoint") asks two values of one kind: the reading before the Action and the
value the Action set. A text that names both passed on the figures alone, told either
way round: toolmaze-v9's play-test p4 c3-0028 P2 notified "setpoint was 19 °C, now
20.5 °C" where it was 20.5 and is now 19 (grading version 21).

The pair comes from the scenario's output cues: an output asked by an old-word ("old",
"before", "what it was") and one of the same kind asked by a new-word ("new", "after").
Each figure of either value in a text is read by its label: a word right before it
("was", "from", "old", "previously"; "now", "to", "new", an arrow), up to two words
apart ("old setpoint: 20.5"), or else a word right after it ("20.5 °C before"). A text
that puts the new value under an old label, or the old under a new one, tells the
change the other way round. Figures with no label say nothing either way, so "now 19 °C
(was 20.5 °C)" and "20.5 °C → 19 °C" pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolmaze_gym.grading.asked_facts import scenario_of
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.values.numbers import is_number

_OLD_CUES = frozenset({"old", "before", "what it was", "previous", "previously"})
_NEW_CUES = frozenset({"new", "after", "what it is now", "now"})

_OLD = r"was|old|from|previously|previous|before|formerly|originally|earlier"
_NEW = r"now|new|to|after|becomes|→|->|=>"
# A label right before a figure, up to two words between ("old setpoint: 20.5").
_BEFORE = re.compile(rf"(?:(?<!\w)({_OLD})|(?<!\w)({_NEW}))(?!\w)(?:\s+[^\s\d,;.()]+){{0,2}}"
                     r"\s*[:=]?\s*\(?\s*$", re.I)
# A label right after a figure and its unit ("20.5 °C before").
_AFTER = re.compile(rf"^\s*(?:°\s*[CF]|[CF]\b|degrees?)?\s*\(?\s*(?:({_OLD})|({_NEW}))\b",
                    re.I)
_FIGURE = re.compile(r"(?<![\w.,])-?\d+(?:[.,]\d+)?(?![\w.,]\d)")

Change = tuple[str, str, Any, str, str, Any]  # old slot, key, value; new slot, key, value
_PAIRS: dict[int, tuple[Task, tuple[Change, ...]]] = {}


def _ways(cues: Mapping[str, tuple[str, ...]], ref: str) -> tuple[bool, bool]:
    words = {w.lower() for w in cues.get(ref, ())}
    return bool(words & _OLD_CUES), bool(words & _NEW_CUES)


def changes(task: Task) -> tuple[Change, ...]:
    """Each (old slot, key, value, new slot, key, value) a text of ``task`` is asked as a
    change: two asked values of one kind, one cued as the old, one as the new
    (cached per task)."""
    hit = _PAIRS.get(id(task))
    if hit is not None and hit[0] is task:
        return hit[1]
    sc = scenario_of(task)
    steps = task.meta.get("steps", {})
    cues = dict(sc.cues) if sc is not None else {}
    asked = {(m[0], m[2], m[3], m[1]) for s in task.slots for i in s.inputs for m in i.mentions
             if len(m) >= 4}
    old, new = [], []
    for type_, slot, key, value in sorted(asked, key=str):
        ref = f"{steps.get(slot, '')}.{key.split('@', 1)[-1]}"
        is_old, is_new = _ways(cues, ref)
        if is_old != is_new:
            (old if is_old else new).append((type_, slot, key, value))
    out = tuple((*o[1:], *n[1:]) for o in old for n in new if o[0] == n[0])
    _PAIRS[id(task)] = (task, out)
    return out


def _label(text: str, start: int, end: int) -> str:
    """"old", "new" or "" for the figure at ``text[start:end]``."""
    m = _BEFORE.search(text[max(0, start - 40):start]) or _AFTER.match(text[end:end + 24])
    if m is None:
        return ""
    return "old" if m.group(1) else "new"


def _same(token: str, value: float) -> bool:
    return abs(float(token.replace(",", ".")) - value) < 0.005


def swapped(text: str, old: Any, new: Any) -> str:
    """The figure ``text`` tells under the other value's label ("" where none does)."""
    if not all(is_number(v) for v in (old, new)) or abs(old - new) < 0.005:
        return ""
    for m in _FIGURE.finditer(text):
        label = ""
        if _same(m.group(), new):
            label = "old"
        elif _same(m.group(), old):
            label = "new"
        if label and _label(text, m.start(), m.end()) == label:
            return m.group()
    return ""


def swapped_changes(task: Task, outputs: Mapping[str, Mapping[str, Any]], text: str
                    ) -> list[tuple[str, Any, str]]:
    """(slot, new value, figure) of each change ``text`` tells the other way round."""
    out = []
    for old_slot, old_key, old, new_slot, new_key, new in changes(task):
        old = outputs.get(old_slot, {}).get(old_key, old)
        new = outputs.get(new_slot, {}).get(new_key, new)
        figure = swapped(text, old, new)
        if figure:
            out.append((new_slot, new, figure))
    return out
