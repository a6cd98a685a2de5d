"""World edition 8: the toolmaze-v10 blind review's and play-tests' world oddities (issue
28), each as edition 7 answers it (toolmaze-v10 replays on it) and gone on edition 8."""

from __future__ import annotations

from tests.corpus.helpers import call
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world

V10, V11 = 7, 8


def _tax(edition: int, city: str, amount: float) -> dict:
    sim = Simulator(world=get_world(0, edition))
    return call(sim, EpisodeState(), "calculate_sales_tax", amount=amount, city=city)


def test_los_angeles_sales_tax_is_the_rate_since_april_2025():
    """c3-0049's 216.00 USD gift: 9.5 % on edition 7 (236.52), the real combined rate
    9.75 % (Measure A, 1 April 2025) on edition 8 (237.06), which the reviewer worked out."""
    old, new = _tax(V10, "Los Angeles", 216.0), _tax(V11, "Los Angeles", 216.0)
    assert (old["tax_rate"], old["total"]) == (9.5, 236.52)
    assert (new["tax_rate"], new["total"]) == (9.75, 237.06)
    for city, rate in (("Seattle", 10.35), ("Chicago", 10.25), ("New York", 8.875)):
        assert _tax(V11, city, 100.0)["tax_rate"] == rate  # no other city's rate moved
