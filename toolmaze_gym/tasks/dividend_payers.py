"""A request that asks a dividend asks it of a company that pays one.

toolmaze-v9's c3-0037 weighed "58 Intel shares" for their yearly dividend, and the world
paid Intel 0.50 a share, though Intel has paid none since late 2024 (edition 7 pays the
real non-payers nothing: markets.json ``non_payers``). A dividend of nil is a fact a user
who asks "what would they pay out a year" would not have asked about, and a comparison of
dividends with one side at 0 compares nothing. So a scenario whose request reads a
company's dividend (``dividend_per_share`` or ``dividend_yield`` of a profile, in an
argument, a text or its answer) states the premise ``<step>.dividend_per_share > 0``, and
the generator redraws a company that pays none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolmaze_gym.tasks.conventions import reads
from toolmaze_gym.values.numbers import is_number

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

DIVIDEND_KEYS = frozenset({"dividend_per_share", "dividend_yield"})
PAYS_KEY = "dividend_per_share"


def _pays(sc: Scenario, step: str) -> bool:
    """Whether a premise makes the step's company a payer: ``step.dividend_per_share``
    greater than 0 (or than any positive literal)."""
    for p in sc.premises:
        bound = p.right.value if p.right.kind == "literal" else None
        if (p.left.kind == "field" and p.left.ref == f"{step}.{PAYS_KEY}" and is_number(bound)
                and (bound > 0 or (p.op == ">" and bound == 0)) and p.op in (">", ">=")):
            return True
    return False


def dividend_problems(sc: Scenario) -> list[str]:
    """Every step whose dividend the request reads with no premise that it pays one."""
    where = f"{sc.file}: {sc.id}"
    asked = sorted({r.split(".", 1)[0] for r in reads(sc, "any")
                    if "." in r and r.split(".", 1)[1] in DIVIDEND_KEYS})
    return [f"{where}.premises: the request reads step {s!r}'s dividend but nothing makes "
            f"its company a payer; add \"{s}.{PAYS_KEY} > 0\" so a non-payer is redrawn"
            for s in asked if not _pays(sc, s)]
