"""A text asked to carry "all of it" carries each figure the request's earlier steps came
to (grading version 21; the toolmaze-v9 blind review, c4-0080 and c4-0091)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_reviewed import _grade
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.all_of_it import results, says_all
from toolmaze_gym.tasks.scenarios import load_library

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"
NOTIFY = ("notify", "notification", "household", "push")


@pytest.mark.parametrize(("query", "asked"), [
    ("Cool the office, and notify the household with all of it and the headline.", True),
    ("Price it. Then send the household in Manchester a notification with all of it.", True),
    ("Price it, and Send all that to the household as a home notification.", True),
    ("Price it and push everything to my co-host.", True),
    ("Price it, frost-proof the cottage, and push kofi the lot, with the new temperature?",
     True),                                                 # v10 review c4-0089 (version 22)
    ("Price it and push me a lot of detail.", False),
    ("Price it, put it all in a document, and notify the household of the set point.", False),
    ("Push me all of it: the low in both units, the order number.", False),  # a list
    ("Notify the household of the new temperature.", False),
])
def test_all_of_it_is_read_in_the_clause_that_asks_for_the_text(query, asked):
    assert says_all(query, NOTIFY) is asked


def test_a_formatted_price_line_stands_for_the_cost_it_dresses():
    """toolmaze-v10 review c4-0089: the mail carries the cost only as format_price's
    line, and the cost itself is read by that formatter alone (grading version 22)."""
    sc = {s.id: s for s in load_library()}["iot-two-homes-bill-and-frost-guard"]
    assert results(sc, sc.step_by_id["mail"], load_corpus()) == ["cost.cost", "heat.setpoint_c"]


def test_the_results_are_the_figures_no_other_step_works_from():
    sc = {s.id: s for s in load_library()}["iot-heatwave-two-rooms"]
    step = sc.step_by_id["notify"]
    got = results(sc, step, load_corpus())
    # the set points, the dew point and the cost; not the forecast high, the office's
    # humidity or the kWh (later steps work from them), nor the °F high (the high in
    # another unit, asked by the scenario itself), the condition or the headline
    assert got == ["cool_a.setpoint_c", "cool_b.setpoint_c", "dew.dew_point_c", "cost.cost"]


_REF_80 = ("bedroom cooling to 27 C, office to 27 C (humidity 46%, dew point 15.7 C). "
           "Energy this month: 881.34 kWh = 185.08 EUR.")


@pytest.mark.parametrize(("new", "success"), [
    (None, True),                                                       # the reference
    ("Bedroom and office both set to 27 °C; office dew point 15.7 °C. "
     "This month 185.08 EUR.", True),                                   # own words
    ("bedroom and office cooled to 27 C (office dew point 15,7 °C). "
     "Energy: 185,08 EUR.", True),                                      # decimal commas
    ("Energy this month: 881.34 kWh = 185.08 EUR.", False),             # a subset
    ("bedroom cooling to 22 C, office to 22 C (dew point 25 C). "
     "Energy this month: 881.34 kWh = 185.08 EUR.", False),             # wrong figures
    ("bedroom cooling to 27 C, office to 27 C. "
     "Energy this month: 881.34 kWh = 185.08 EUR.", False),             # no dew point
])
def test_c4_0080s_notice_with_all_of_it(new, success, tmp_path):
    path = ACTIONS / "c4-0080.ref.txt"
    if new is not None:
        text = path.read_text(encoding="utf-8")
        assert _REF_80 in text
        path = tmp_path / "c4-0080.txt"
        path.write_text(text.replace(_REF_80, new), encoding="utf-8")
    g, reason = _grade(path, "tmz-v9-c4-0080")
    assert g["success"] is success, reason


@pytest.mark.parametrize(("replay", "success"), [
    ("ref", True), ("both19", True),       # the plugs' order is no figure: not asked
    ("nocost", False), ("wrongcost", False),
])
def test_c4_0091s_notice_with_all_of_it_carries_the_cost(replay, success):
    g, reason = _grade(ACTIONS / f"c4-0091.{replay}.txt", "tmz-v9-c4-0091")
    assert g["success"] is success, reason
