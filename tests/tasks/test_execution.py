"""Binding inside a side: a later tool of a chain takes the earlier field it names."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.execution import plan_side
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library

BILL = ("get_energy_usage", "calc_energy_cost")


def test_a_chain_passes_on_the_field_with_the_parameters_name():
    """The meter answers the daily average before the period's total, both in kWh;
    the cost tool's ``kwh`` (canonical ``energy_kwh``) is the total."""
    plan = plan_side(load_corpus(), BILL, [("site", "city_name"), ("period", "energy_period"),
                                           ("price", "money_amount")])
    assert ("kwh", ("local", "energy_kwh@energy_kwh")) in plan[1]


@pytest.mark.parametrize("level", ["C1", "C2"])
def test_a_weeks_bill_is_priced_on_the_weeks_energy_not_a_days(level):
    """Play-test: "used 88.05 kWh last week" was billed as 12.58 kWh (the day's average)."""
    sc = next(s for s in load_library() if s.id == "iot-yearly-energy-budget")
    task = ScenarioGenerator().generate(sc, level, "exec-test", "t")
    for path in task.solutions:
        usage = next(c for c in path.calls if c.tool == "get_energy_usage")
        cost = next(c for c in path.calls if c.slot == usage.slot and c.tool != usage.tool)
        billed = cost.args.get("kwh", cost.args.get("energy_kwh"))
        assert billed == usage.response["energy_kwh"] != usage.response["daily_average_kwh"]
