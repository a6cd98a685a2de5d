"""``is_number``: an int or a float, never a bool (JSON ``true`` is no 1)."""

from __future__ import annotations

import math

import pytest

from toolmaze_gym.values.numbers import is_number


@pytest.mark.parametrize("value", [1, 0, -3, 1.5, -0.0, 10**30, math.inf])
def test_ints_and_floats_are_numbers(value):
    assert is_number(value)


def test_nan_is_a_number():
    # NaN is a float: the check is on the type only; callers that need a finite
    # value test math.isfinite as well.
    assert is_number(float("nan"))


@pytest.mark.parametrize("value", [True, False])
def test_bools_are_no_numbers(value):
    # bool is an int subclass in Python: isinstance(True, int) holds.
    assert isinstance(value, int)
    assert not is_number(value)


@pytest.mark.parametrize("value", ["1", "1.5", None, [1], {"a": 1}, b"1"])
def test_other_values_are_no_numbers(value):
    assert not is_number(value)
