"""Repeated calls: a clean answer asked for again is a repeat; a retry after a fault is not."""

from __future__ import annotations

import pytest
from toolmaze_gym.reward import PARTIAL, partial_reward, repeat_indices

from toolmaze_gym.episode import Step

FAILED = {"success": False, "exposed": False, "recovered": None, "c_rec": 0.0}


def _call(name: str, args: dict, status: int = 200, fault: dict | None = None) -> Step:
    return Step("", {"kind": "call", "name": name, "arguments": args}, status, "{}", fault)


def test_the_same_call_after_a_clean_answer_is_a_repeat():
    steps = [_call("get_quote", {"symbol": "AAPL"}), _call("get_quote", {"symbol": "AAPL"}),
             _call("get_quote", {"symbol": "MSFT"}), _call("get_quote", {"symbol": "AAPL"})]
    assert repeat_indices(steps) == {1, 3}


def test_key_order_does_not_hide_a_repeat():
    steps = [_call("convert", {"amount": 5, "to": "EUR"}),
             _call("convert", {"to": "EUR", "amount": 5})]
    assert repeat_indices(steps) == {1}


@pytest.mark.parametrize("first", [_call("get_quote", {"symbol": "AAPL"}, status=503),
                                   _call("get_quote", {"symbol": "AAPL"},
                                         fault={"kind": "implicit"})])
def test_a_retry_after_an_error_or_a_corrupted_answer_is_no_repeat(first):
    again = _call("get_quote", {"symbol": "AAPL"})
    assert repeat_indices([first, again]) == set()
    assert repeat_indices([first, again, again]) == {2}  # the retry answered: now a loop


def test_endings_are_never_repeats():
    end = Step("", {"kind": "finish", "text": "done"}, None, "", None)
    assert repeat_indices([end, end]) == set()


def test_each_repeat_costs_its_weight():
    assert PARTIAL.repeat > 0
    base = partial_reward(FAILED, 0.5, 0.5)
    assert partial_reward(FAILED, 0.5, 0.5, repeats=3) == pytest.approx(base - 3 * PARTIAL.repeat)
