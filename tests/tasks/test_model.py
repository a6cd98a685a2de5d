"""Task data: optional fields stay out of the bytes when empty, and round-trip when set."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

from toolmaze_gym.tasks.model import LEVELS, Task


def _lines(level: str) -> list[str]:
    root = resources.files("toolmaze_gym") / "data" / "suites" / "toolmaze-v1"
    return (root / f"{level}.jsonl").read_text(encoding="utf-8").splitlines()


def test_v1_tasks_serialise_to_their_shipped_bytes():
    for level in LEVELS:
        for line in _lines(level):
            assert Task.from_json(line).to_json() == line


def test_empty_mentions_field_and_reads_are_left_out():
    task = Task.from_json(_lines("C1")[0])
    raw = json.loads(task.to_json())
    slot = raw["slots"][0]
    assert "reads" not in slot
    assert all("mentions" not in i and "field" not in i["source"] for i in slot["inputs"])


def test_mentions_field_and_reads_round_trip():
    task = Task.from_json(_lines("C2")[0])
    slot = task.slots[-1]
    first = dataclasses.replace(slot.inputs[0], mentions=(("money_amount", 12.5),
                                                          ("stock_symbol", "AAPL")))
    slot = dataclasses.replace(slot, inputs=(first, *slot.inputs[1:]),
                               reads=(("s1", "money_amount"),))
    task.slots[-1] = slot
    again = Task.from_json(task.to_json())
    assert again.slots[-1].inputs[0].mentions == (("money_amount", 12.5), ("stock_symbol", "AAPL"))
    assert again.slots[-1].reads == (("s1", "money_amount"),)
    assert "s1" in again.slots[-1].upstream()
    assert ("s1", slot.id, "money_amount") in again.edges()
    assert again.to_json() == task.to_json()
