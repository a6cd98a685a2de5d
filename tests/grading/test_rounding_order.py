"""A sum the agent works out itself may round at another point than the reference:
a third of a converted total is a cent off the converted third. That passes; a cent
off a value a response showed, or two cents off, does not (``ROUNDING_ORDER``)."""

from __future__ import annotations

import json

import pytest

from tests.grading._helpers import played

TASK = "tmz-v3-c3-0003"  # book for 3 in Sao Paulo (425.30 BRL), log my third in GBP
DESC = ("Mi parte (1/3) de la reserva HR-Q28PRY7T en Sao Paulo, 2 noches desde "
        "2026-08-27.")
WHOLE = {"amount": 425.3, "from_currency": "BRL", "to_currency": "GBP"}  # -> 66.22
THIRD = {"amount": 141.77, "from_currency": "BRL", "to_currency": "GBP"}  # -> 22.08


def _grade(convert: dict, amount: float) -> dict:
    return played(TASK, "P0", [
        'search_hotels {"city": "Sao Paulo", "check_in": "2026-08-27", "nights": 2}',
        'reserve_room {"property_id": "HTL-SAO-110", "arrival_date": "2026-08-27", '
        '"length_of_stay": 2, "guest": "Elif Kowalski"}',
        f"convert_currency {json.dumps(convert)}",
        "record_trip_expense " + json.dumps({"itinerary_id": "ITN-S792PYMC", "amount": amount,
                                              "currency": "GBP", "description": DESC}),
        "finish Booked HR-Q28PRY7T; logged my third.",
    ])


@pytest.mark.parametrize(("convert", "amount", "success"), [
    (WHOLE, 22.07, True),    # 66.22 / 3: the reference's 22.08 rounded the other way
    (WHOLE, 22.08, True),
    (WHOLE, 22.06, False),   # two cents off is no rounding order
    (THIRD, 22.07, False),   # 22.08 was shown: a copy is exact
    (THIRD, 22.08, True),
])
def test_a_cent_of_rounding_order_passes_only_where_the_agent_worked_it_out(
        convert, amount, success):
    assert _grade(convert, amount)["success"] is success


def test_a_cent_of_the_source_carried_through_a_rate_passes():
    """Round 6 (c4-0015): half a hotel converted unrounded, 163.53 / 2 × 13.094517 =
    1070.67 SEK, where the reference rounds the half first (81.77 GBP → 1070.74)."""
    from toolmaze_gym.grading.arguments import cent_apart

    assert cent_apart(1070.67, 1070.74)
    assert not cent_apart(1070.50, 1070.74)  # a quarter of a krona more is no rounding
    assert cent_apart(22.07, 22.08) and not cent_apart(22.06, 22.08)


def test_an_amount_in_a_currency_without_minor_units_may_be_whole():
    """Round 6 (c4-0003): 24408 JPY for a shown 24407.88 JPY is the same amount in yen."""
    from toolmaze_gym.grading.arguments import _whole_units
    from toolmaze_gym.world.geo import minor_units

    assert minor_units("JPY") == 0 and minor_units("KRW") == 0 and minor_units("EUR") == 2
    assert _whole_units(24408, 24407.88) and not _whole_units(24409, 24407.88)
    assert not _whole_units(24407.9, 24407.88)


def test_a_sum_told_in_a_text_within_its_rounding_order_says_it():
    """Round 7 (c4-0018): 8 fares told as 787.55 CAD (8 × 65.37 × 1.505938) where the
    reference multiplies the rounded fare, 8 × 98.44 = 787.52."""
    from toolmaze_gym.grading.arguments import says

    assert says("fares for 8: 787.55 CAD", "money_amount", 787.52)
    assert says("fares for 8: 787,55 CAD", "money_amount", 787.52)
    assert not says("fares for 8: 788.52 CAD", "money_amount", 787.52)
    assert not says("fares for 8: 787.95 CAD", "money_amount", 787.52)
