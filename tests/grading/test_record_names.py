"""A record a text is asked to mention may be named by any identifier the episode
showed for it (issue 27/28, v4 draft-2 review c4-0028, c4-0060: "mentioning the
flight, landing time, hotel and car" was graded on the booking reference, the hotel's
name and the car's reservation id only): a flight by its number, a hotel by its
reservation id, a car by its company and model. Another record's identifier is no
name of it. Played on toolmaze-v3's task of the same scenario."""

from __future__ import annotations

import json

import pytest

from tests.grading._helpers import FINISH, call, graded, profile, simulator, suite
from toolmaze_gym.episode import Episode

TASK = "tmz-v3-c4-0015"  # NEM63K = EK3373; Motel One Manchester Old Town = HR-XVULQBQ4;
# CR-2RF35H6T = Budget's "Economy (e.g. VW Polo or similar)"
LANDING = "landing 25 Aug 2026 at 10:13 Manchester time"


def _requested(description: str) -> bool:
    """Success of s* with the payment request's description replaced (the invoice's
    id taken from the episode's own response)."""
    task = next(t for t in suite() if t.id == TASK)
    ep = Episode(task, "P0", simulator(), profile(task, "P0"), 25)
    for c in task.default_path.calls:
        args = {**c.args, "description": description} if c.tool == "create_invoice" \
            else dict(c.args)
        if "invoice_id" in args:
            args["invoice_id"] = json.loads(ep.steps[-1].observation)["invoice_id"]
        ep.step(call(c, **args))
    ep.step(FINISH)
    return graded(ep).success


@pytest.mark.parametrize(("description", "success"), [
    (f"Flight EK3373 Beijing-Manchester, {LANDING}; hotel booking HR-XVULQBQ4; car: "
     "Budget VW Polo.", True),
    (f"Flight NEM63K, {LANDING}; hotel Motel One Manchester Old Town; car CR-2RF35H6T.",
     True),
    # subtly wrong: a model without its company, another reservation, another flight
    (f"Flight EK3373, {LANDING}; hotel booking HR-XVULQBQ4; car: a VW Polo.", False),
    (f"Flight EK3373, {LANDING}; hotel booking HR-XVULQBQ5; car: Budget VW Polo.", False),
    (f"Flight EK3374, {LANDING}; hotel booking HR-XVULQBQ4; car: Budget VW Polo.", False),
])
def test_a_record_may_be_named_by_any_of_its_identifiers(description, success):
    assert _requested(description) is success
