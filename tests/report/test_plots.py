"""Figure styling: every compared model keeps its own colour."""

from __future__ import annotations

from toolmaze_gym.report.plots import colours


def test_each_label_gets_its_own_colour_whatever_the_order():
    labels = ["base", "trained", "oracle", "naive", "retry", "validator", "random",
              *(f"run{k}" for k in range(30))]
    got = colours(labels)
    assert len(set(got.values())) == len(set(labels))
    assert colours(list(reversed(labels))) == got
    assert colours(["trained", "base"]) == colours(["base", "trained"])
    assert colours(["base", "trained"])["base"] != colours(["base", "trained"])["trained"]
