"""A total: what it includes. A request that asks for one figure graded as its parts.

toolmaze-v5's c4-0010 asked the live screen to show "what we've raised, which is 900
runners at 20 EUR each plus the sponsor matching 50 % of that", and graded the parts
(18,000 and 9,000); a careful reader shows the total, 27,000, and fails. No tool sums
two amounts, so a scenario that reports an amount and a share worked out from it (a
pledge and the sponsor's match) grades them as two figures, and every phrasing that
adds the share on top ("plus", "matching", "top-up") and uses a word of one aggregate
("total", "what we've raised", "in all") must also say that the parts are wanted each
("separately", "each figure", "both figures"). A share that replaces its amount
("members pay 80 % of the pack total") asks for no sum, whatever it calls the base.

The parts are found from the steps: two arithmetic steps (``calc.*``) whose results
a text or the answer carries (directly or through a formatted price), one of them
fed by the other; that is one amount and a share of it, never a single result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolmaze_gym.tasks.readings import states

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

PART_USES = frozenset({"calc.line_total", "calc.percentage_of"})
PASS_THROUGH = frozenset({"text.format_price"})  # a formatted price tells its amount
AGGREGATE_WORDS = ("total", "in total", "totals", "what we've raised", "what we have raised",
                   "raised", "in all", "altogether", "all told", "sum", "overall",
                   "come to", "comes to")
# a share added on top of the amount (a sponsor's match), not a price that replaces it
# ("members pay 80 % of the pack total", where the total is the base, told as such)
ADDED_WORDS = ("plus", "match", "matching", "matches", "top-up", "tops up", "on top",
               "in addition", "added to")
PARTS_WORDS = ("separately", "each figure", "both figures", "two figures", "each amount",
               "both amounts", "on its own", "on their own", "each part", "both parts",
               "listed apart", "not summed", "kept apart")


def _told_steps(sc: Scenario) -> set[str]:
    """Steps whose results the user is told: a text's holes or the answer, a
    formatted price counted as the step whose amount it formats."""
    refs = set(sc.answer)
    for step in sc.steps:
        for a in step.args:
            refs |= {h for h in a.holes if "." in h}
    told = {r.split(".", 1)[0] for r in refs}
    by_id = sc.step_by_id
    for sid in list(told):
        step = by_id.get(sid)
        if step is not None and step.use in PASS_THROUGH:
            told |= {a.step for a in step.args if a.kind == "field"}
    return told


def part_pairs(sc: Scenario) -> list[tuple[str, str]]:
    """(amount step, share step): both told, the share worked out from the amount."""
    told = {s for s in _told_steps(sc) if s in sc.step_by_id
            and sc.step_by_id[s].use in PART_USES}
    return [(a.step, s) for s in sorted(told) for a in sc.step_by_id[s].args
            if a.kind == "field" and a.step in told]


def aggregate_problems(sc: Scenario) -> list[str]:
    """Every phrasing that asks for one aggregate where the parts are graded."""
    pairs = part_pairs(sc)
    if not pairs:
        return []
    where = f"{sc.file}: {sc.id}"
    parts = ", ".join(f"{a!r} and {b!r}" for a, b in pairs)
    return [f"{where}.phrasings[{k}]: asks for one total (a total: what it includes) but "
            f"the parts are graded ({parts}); say one of {list(PARTS_WORDS)} or ask for "
            "each part without a word of a sum"
            for k, p in enumerate(sc.phrasings)
            if states(p, AGGREGATE_WORDS) and states(p, ADDED_WORDS)
            and not states(p, PARTS_WORDS)]
