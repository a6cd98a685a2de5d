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
"""

from __future__ import annotations

from collections.abc import Iterable

from toolmaze_gym.grading.arguments import ROUNDING_ORDER


def rounding_slack(value: float, unprinted: Iterable[float]) -> float:
    """How far the agent's own rounding can move ``value``: a cent at the end, plus a
    cent of each value it had to work out on the way (``unprinted``: what the sum was
    worked from that no response showed), carried to ``value`` in proportion (the
    largest such carry; an upper bound where the way is a product or a share)."""
    carries = [abs(value / u) for u in unprinted
               if isinstance(u, int | float) and not isinstance(u, bool) and u
               and not _same_cent(u, value)]
    return ROUNDING_ORDER * (1 + max(carries, default=0.0))


def own_rounding(got: float, want: float, shown: bool, unprinted: Iterable[float]) -> bool:
    """Whether ``got`` (a cent or more off ``want``) is ``want`` rounded in another
    order by the agent: never when ``want`` was ``shown`` (printed before the agent
    wrote ``got``), else within ``rounding_slack``."""
    if shown or isinstance(got, bool) or not isinstance(got, int | float):
        return False
    gap = abs(round(got, 2) - round(want, 2))
    return 0 < gap <= rounding_slack(want, unprinted) + 1e-9


def _same_cent(a: float, b: float) -> bool:
    return round(a, 2) == round(b, 2)
