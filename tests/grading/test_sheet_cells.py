"""A sheet filled one row per item, its cells apart by commas, is the sheet asked
(grading version 19; toolmaze-v8 play-test c3-0031 P1 `threerows-noheader`, `climatiq`:
"Hotel,...,245.73,EUR" named no currency, "245.73,EUR" being one word to the grader, so
every row failed as a wrong value)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import replay_changed
from toolmaze_gym.mentions import mentions

PROBES = Path(__file__).parent.parent / "data" / "played" / "v8" / "probes"
EPISODE = "tmz-v8-c3-0031-P1"
ALLOWANCE = "Allowance,Rome 2 days per person,206.84,EUR"
ROW = '"values": "' + ALLOWANCE + '"'


@pytest.mark.parametrize(("text", "said"), [
    ("Hotel,Motel One,245.73,EUR", True),
    ("Value;EUR", True),
    ("245.73 EUR", True),
    ("Hotel,245.73,EURO-X", False),      # a longer code is no EUR
    ("Hotel,245.73,GBP", False),
])
def test_a_cell_names_a_currency(text, said):
    assert mentions(text, "currency_code", "EUR") is said


@pytest.mark.parametrize(("probe", "new", "success"), [
    ("threerows-noheader", ALLOWANCE, True),                     # one row per item
    ("climatiq", ALLOWANCE, True),                               # with a header row
    ("threerows-noheader", "Allowance,Rome 2 days per person,206.85,EUR", False),
    ("threerows-noheader", "Allowance,Rome 2 days per person,EUR", False),  # value lost
])
def test_one_row_per_item_fills_the_sheet(tmp_path, probe, new, success):
    graded = replay_changed(PROBES / f"{EPISODE}.{probe}.actions", EPISODE, ALLOWANCE, new,
                            tmp_path)
    assert graded["success"] is success


def test_a_row_on_another_sheet_is_not_in_the_sheet(tmp_path):
    """The values must all be in the sheet asked: a row added to another record does
    not fill it."""
    graded = replay_changed(PROBES / f"{EPISODE}.threerows-noheader.actions", EPISODE,
                            '{"spreadsheet_id": "SHT-ZUPSYV8SU9", ' + ROW,
                            '{"spreadsheet_id": "SHT-OTHER00000", ' + ROW, tmp_path)
    assert not graded["success"]


def test_a_sheet_without_a_row_lacks_its_values(tmp_path):
    graded = replay_changed(PROBES / f"{EPISODE}.threerows-noheader.actions", EPISODE,
                            'append_row {"spreadsheet_id": "SHT-ZUPSYV8SU9", ' + ROW + "}\n",
                            "", tmp_path)
    assert not graded["success"]
