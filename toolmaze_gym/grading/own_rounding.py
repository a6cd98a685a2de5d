"""Whether a sum a cent or more off the expected one is the agent's own rounding.

A sum the agent works out itself may round at another point than the reference run
(grading version 8): a cent at the end, and a cent where the agent rounded a value it
had to work out on the way, carried to the sum (a cent of a half in EUR is 0.11 SEK
once converted at 11.2; a cent of a fare, eight fares later, is 0.08). That is all
the rounding can explain (grading version 16, toolmaze-v6 play-test): a figure a
response printed is copied to the cent, so a cent off it is another amount (the tax
tool's 1,229.18 AUD told as 1,229.19); and where every value it is worked from was
printed (80.32 EUR at 11.525809 SEK) only the last rounding is the agent's, so 925.57
SEK for 925.75 is a slip, not a rounding. Before version 16 any figure within 0.02 %
passed (``arguments.ROUNDING_SHARE``), which that allowance still caps.

Where only that last rounding is the agent's, it is a rounding of one exact value, the
one the tool's documented rule gives (``ToolSpec.checks``: share = amount / people), so
the figure must be that value rounded down, up or half up at the precision the agent
printed (grading version 19, toolmaze-v8 play-test c1-0092: 983.68 / 5 = 196.736 is
196.73 or 196.74; 196.75, a cent off the reference's 196.74 but no rounding of it,
is a slip).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any

from toolmaze_gym.corpus.invariants import expected
from toolmaze_gym.corpus.spec import ToolSpec
from toolmaze_gym.grading.arguments import ROUNDING_ORDER
from toolmaze_gym.values.numbers import is_number

# The rule's result is read to this many places before rounding, so float noise
# (0.1 * 3 = 0.30000000000000004) never moves a ceiling.
_EXACT_PLACES = 9


def rounding_slack(value: float, unprinted: Iterable[float]) -> float:
    """How far the agent's own rounding can move ``value``: a cent at the end, plus a
    cent of each value it had to work out on the way (``unprinted``: what the sum was
    worked from that no response showed), carried to ``value`` in proportion (the
    largest such carry; an upper bound where the way is a product or a share)."""
    return ROUNDING_ORDER * (1 + max(_carries(value, unprinted), default=0.0))


def _carries(value: float, unprinted: Iterable[float]) -> list[float]:
    return [abs(value / u) for u in unprinted
            if is_number(u) and u and not _same_cent(u, value)]


def own_rounding(got: float, want: float, shown: bool, unprinted: Iterable[float],
                 exact: float | None = None, coarser: bool = True) -> bool:
    """Whether ``got`` (a cent or more off ``want``) is ``want`` rounded in another
    order by the agent: within ``rounding_slack``; and where nothing unprinted was
    carried and the ``exact`` value is known, only as one of its roundings. Where
    ``want`` was ``shown`` (printed before the agent wrote ``got``) only as a rounding
    to fewer decimals (``coarser_rounding``; ``coarser``: ``got`` was written with no
    more decimals than it reads back with, as a JSON number always is)."""
    if not is_number(got):
        return False
    unprinted = list(unprinted)
    gap = abs(round(got, 2) - round(want, 2))
    if not 0 < gap <= rounding_slack(want, unprinted) + 1e-9:
        return False
    if shown:
        return coarser and coarser_rounding(got, want, exact)
    if exact is None or _carries(want, unprinted):
        return True  # rounded on the way: the carry, not one rounding, bounds it
    return got in roundings(exact, printed_places(got))


def coarser_rounding(got: float, want: float, exact: float | None) -> bool:
    """Whether ``got`` rounds the ``exact`` value to fewer decimals than the printed
    ``want`` has (grading version 21, v21 play-test c2-0024 P4: 33.55 x 90 % = 30.195,
    printed 30.19, set as 30.2): a rounding at the agent's own precision, which copies
    no printed figure wrong. At the printed precision the figure is copied to the cent
    (30.20 for 30.19 is another amount)."""
    if exact is None:
        return False
    places = printed_places(got)
    return places < printed_places(want) and got in roundings(exact, places)


def roundings(exact: float, places: int) -> set[float]:
    """``exact`` rounded down, up and half up to ``places`` decimals."""
    d = Decimal(f"{exact:.{_EXACT_PLACES}f}")
    step = Decimal(1).scaleb(-places)
    return {float(d.quantize(step, rounding=r))
            for r in (ROUND_FLOOR, ROUND_CEILING, ROUND_HALF_UP)}


def printed_places(got: float) -> int:
    """The decimals ``got`` was written with (196.75: 2; 196.7: 1), as read back."""
    text = repr(float(got))
    if "e" in text or not math.isfinite(got):
        return 2
    return len(text.partition(".")[2].rstrip("0"))


def exact_values(spec: ToolSpec, args: Mapping[str, Any], body: Mapping[str, Any]
                 ) -> tuple[tuple[float, float], ...]:
    """(the figure printed, the exact value) of each field ``spec``'s documented rule
    works out (a product, share, sum, difference or unit conversion) where the body's
    figure is that value rounded (a body the rule does not explain tells nothing)."""
    out = []
    for check in spec.checks:
        exact = expected(check, args, body)
        got = body.get(check.target)
        if exact is None or not is_number(got):
            continue
        if got != exact and abs(got - exact) <= check.tolerance:
            out.append((float(got), float(exact)))
    return tuple(out)


def _same_cent(a: float, b: float) -> bool:
    return round(a, 2) == round(b, 2)
