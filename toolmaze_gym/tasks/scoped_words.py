"""Words a request needs because of what the scenario does, not what it says.

The v9 blind review and play-test found requests whose words were fine alone but
named one thing two ways once the steps were read: "the per diem per person" for a
3-day trip graded as the whole trip's allowance (c4-0028); "the meeting time" of a
meeting in Rome, found by the agent, with no clock named (c4-0088); "send ... a
confirmation" that the task's Action sends as a push (c1-0066). Each kind is a rule of
``data/wording/requests.toml`` [[scoped]]: when a scenario has a step of one of
``uses`` (and, where given, asks a step output matching ``asked``, has a ``with_param``
type and no ``unless_param`` type), every phrasing matches ``needs`` and none matches
``avoid``, so a careful reader sees one outcome in every phrasing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from toolmaze_gym.tasks.people_words import wording

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario


@dataclass(frozen=True)
class ScopedRule:
    name: str
    uses: tuple[str, ...]
    needs: re.Pattern[str] | None
    avoid: re.Pattern[str] | None
    why: str
    asked: re.Pattern[str] | None = None
    with_param: str = ""
    unless_param: str = ""


def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def _rule(r: dict[str, Any]) -> ScopedRule:
    return ScopedRule(r["name"], tuple(r.get("uses", ())), _compiled(r.get("needs")),
                      _compiled(r.get("avoid")), r["why"], _compiled(r.get("asked")),
                      r.get("with_param", ""), r.get("unless_param", ""))


@cache
def scoped_rules() -> tuple[ScopedRule, ...]:
    return tuple(_rule(r) for r in wording().get("scoped", ()))


def _asked(sc: Scenario) -> set[str]:
    """Step outputs a text or the answer asks for."""
    return {*sc.answer, *(ref for s in sc.steps for a in s.args for ref in a.mention)}


def applies(rule: ScopedRule, sc: Scenario) -> bool:
    """Whether ``rule`` governs ``sc``'s phrasings (its steps, asks and params)."""
    types = {p.type for p in sc.params}
    if rule.uses and not any(s.use in rule.uses for s in sc.steps):
        return False
    if rule.asked is not None and not any(rule.asked.search(r) for r in _asked(sc)):
        return False
    if rule.with_param and rule.with_param not in types:
        return False
    return not (rule.unless_param and rule.unless_param in types)


def phrasing_faults(rule: ScopedRule, phrasing: str) -> list[str]:
    """What ``phrasing`` lacks or says against ``rule`` (empty: it reads one way)."""
    out = []
    if rule.needs is not None and not rule.needs.search(phrasing):
        out.append(f"{rule.name}: {rule.why}")
    if rule.avoid is not None and (m := rule.avoid.search(phrasing)):
        out.append(f"{rule.name} {m.group(0)!r}: {rule.why}")
    return out


def scoped_problems(sc: Scenario) -> list[str]:
    """Each phrasing of ``sc`` that a [[scoped]] rule finds reading two ways."""
    return [f"{sc.file}: {sc.id}.phrasings[{k}]: {fault}"
            for rule in scoped_rules() if applies(rule, sc)
            for k, p in enumerate(sc.phrasings) for fault in phrasing_faults(rule, p)]
