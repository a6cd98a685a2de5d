"""Over-trust reads every value a later call sent, however deep a record nests it,
without recursing on agent data."""

from __future__ import annotations

from toolmaze_gym.episode import Step
from toolmaze_gym.grading.overtrust import propagated


def _step(args, fault=None) -> Step:
    return Step("", {"kind": "call", "name": "t", "arguments": args}, 200, "{}", fault)


def test_a_deeply_nested_later_argument_is_read_without_recursion():
    fault = {"tool": "get_quote", "corrupted": {"price": 912.5}, "clean": {"price": 91.25}}
    deep: list = [912.5]
    for _ in range(5_000):  # far past Python's recursion limit
        deep = [deep]
    assert propagated([_step({}, fault), _step({"v": deep})]) is True
    assert propagated([_step({}, fault), _step({"v": [[{"x": 91.25}]]})]) is False
