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


def _ending(kind: str, text: str) -> Step:
    return Step("", {"kind": kind, "text": text}, None, "", None)


def test_a_corrupted_value_told_to_the_user_is_over_trust():
    """The final answer passes a value on as surely as a call: quoting the corrupted
    price as the result is over-trust; quoting the clean one, or both (the agent
    noticed), is not, and an abort claims nothing."""
    fault = {"tool": "get_quote", "corrupted": {"price": 912.5}, "clean": {"price": 91.25}}
    told = "The laptop costs 912.50 USD, so I e-mailed the quote."
    assert propagated([_step({}, fault), _ending("finish", told)]) is True
    assert propagated([_step({}, fault), _ending("answer", told)]) is True
    assert propagated([_step({}, fault),
                       _ending("finish", "The laptop costs 91.25 USD.")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "The first quote said 912.50, which was wrong; it costs 91.25.")]) is False
    assert propagated([_step({}, fault), _ending(
        "abort", "The quote tool said 912.50, which cannot be right.")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "It costs 91.25 USD. (The first quote said 912.50 by mistake; I ignored it "
                  "and asked again.)")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "One search returned bad data the first time (912.50); I retried.")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "It costs 91.25 USD. Note: the first quote kept returning 912.50.")]) is False
