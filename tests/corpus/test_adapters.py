"""Unit and format adapters: each change of unit has an exact way back."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import adapters

SAMPLES = {
    "c_to_f": 21.5, "km_to_mi": 1234.5, "kph_to_mph": 40.0, "mm_to_in": 12.7, "kg_to_lb": 3.25,
    "to_cents": 1234.56, "hours_to_minutes": 1.5, "years_to_months": 30, "pct_to_fraction": 12.5,
    "stars5_to_10": 4.0, "iso_to_epoch": "2026-03-02T09:00:00Z", "iso_to_us_date": "2026-03-02",
    "iso_to_compact_date": "2026-03-02",
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_unit_change_and_its_inverse_round_trip(name):
    value = SAMPLES[name]
    there = adapters.apply(name, value)
    assert there != value
    back = adapters.apply(adapters.inverse(name), there)
    if isinstance(value, float):
        assert back == pytest.approx(value, abs=0.11)  # one decimal in the other unit
    else:
        assert back == value


def test_every_unit_change_has_an_inverse_and_case_changes_have_none():
    for name in adapters.UNIT_CHANGES:
        assert adapters.inverse(adapters.inverse(name)) == name
    assert adapters.inverse("upper") == "" and adapters.apply("", 5) == 5


def test_known_values():
    assert adapters.apply("to_cents", 12.5) == 1250
    assert adapters.apply("c_to_f", 100) == 212
    assert adapters.apply("iso_to_epoch", "1970-01-02T00:00:00Z") == 86400
    assert adapters.apply("epoch_to_iso", 86400) == "1970-01-02T00:00:00Z"
    assert adapters.apply("iso_to_us_date", "2026-12-31") == "12/31/2026"


def test_an_adapter_registered_twice_is_refused():
    with pytest.raises(ValueError, match="registered twice"):
        adapters.register("c_to_f", lambda v: v)
