"""The valid-call rate and tokens per episode: what a before/after comparison of a
fine-tune reads first (can the model emit calls at all, and at what cost)."""

from __future__ import annotations

import copy
import csv
import json

import pytest

from toolmaze_gym.report import build_report
from toolmaze_gym.report.calls import (
    is_valid_call,
    named_call_rate,
    names_shown_tool,
    valid_call_rate,
)


@pytest.fixture(scope="module")
def call_step(records) -> dict:
    """A real, schema-valid call from a scripted run."""
    return next(s for r in records["naive"] for s in r["steps"]
                if s["action"]["kind"] == "call" and s["action"]["arguments"]
                and s["status"] == 200)


# the env's answer to a call of a tool the episode did not show
HIDDEN = {"status": 404, "fault": None, "observation": json.dumps({"error": {
    "code": 404, "status": "Not Found", "type": "unknown_tool",
    "message": "no tool named 'x' is available", "field": "name"}})}
# a shown tool's own answer to an id it does not know: a valid call, a wrong value
NOT_FOUND = {"status": 404, "fault": None, "observation": json.dumps({"error": {
    "code": 404, "status": "Not Found", "type": "not_found",
    "message": "device 'LT-0000' not found"}})}


def _with(step: dict, **changes) -> dict:
    out = copy.deepcopy(step)
    out.update(changes)
    return out


def test_a_well_formed_call_and_the_reserved_calls_are_valid(call_step):
    assert is_valid_call(call_step)
    assert is_valid_call({"action": {"kind": "finish", "text": "done"}, "status": None})
    assert is_valid_call({"action": {"kind": "abort", "text": "no way"}, "status": None})


def test_prose_broken_calls_and_unshown_tools_are_not(call_step):
    assert not is_valid_call({"action": {"kind": "answer", "text": "Sure! Here is"}})
    assert not is_valid_call({"action": {"kind": "invalid", "text": "bad JSON"}, "status": 400})
    assert not is_valid_call(_with(call_step, **HIDDEN))  # not shown
    name = call_step["action"]["name"]
    assert not is_valid_call(_with(call_step, action={"kind": "call", "name": "no_such_tool",
                                                      "arguments": {}}))
    extra = {**call_step["action"]["arguments"], "zzz_unknown": 1}
    assert not is_valid_call(_with(call_step, action={"kind": "call", "name": name,
                                                      "arguments": extra}))
    assert not is_valid_call(_with(call_step, action={"kind": "call", "name": name,
                                                      "arguments": {}}))


def test_an_injected_fault_does_not_hide_a_valid_call(call_step):
    fault = {"kind": "explicit", "status": 404}
    assert is_valid_call(_with(call_step, status=404, fault=fault))


def test_a_shown_tools_own_not_found_is_a_valid_call_with_a_wrong_value(call_step):
    """A strict-decoded model's calls are well formed and often name ids that do not
    exist; counting the tool's 404 as "a tool the episode hid" put 103 of 801 such
    calls of an SFT model among the invalid ones."""
    assert is_valid_call(_with(call_step, **NOT_FOUND))
    assert names_shown_tool(_with(call_step, **NOT_FOUND))


def _summary(report, name: str) -> list[str]:
    text = report.markdown.read_text()
    section = text.split("## Summary")[1].split("\n## ")[0]
    line = next(ln for ln in section.splitlines() if ln.startswith(f"| {name} |"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_the_report_shows_valid_calls_and_tokens_per_run(records, tmp_path):
    """A run that answers in prose on half its episodes shows it, beside a clean run."""
    talky = []
    for k, rec in enumerate(copy.deepcopy(records["naive"])):
        rec["agent"] = "talky"
        rec["usage"] = {"prompt_tokens": 100 + k, "completion_tokens": 10, "turns": 1}
        if k % 2 == 0:
            rec["steps"] = [{"raw": "I think", "action": {"kind": "answer", "text": "I think"},
                             "status": None, "observation": "", "fault": None}]
        talky.append(rec)
    src = tmp_path / "talky.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in talky))
    clean = tmp_path / "naive.jsonl"
    clean.write_text("".join(json.dumps(r) + "\n" for r in records["naive"]))
    rep = build_report([src, clean], tmp_path / "report", resamples=0, plots=False,
                       viewer=False)

    mine = [r for r in talky if r["mode"] == "P0" or r["prompt"] == "standard"]
    expected = valid_call_rate(mine)
    steps = sum(len(r["steps"]) for r in mine)
    prose = sum(r["steps"][0]["action"]["kind"] == "answer" for r in mine)
    assert prose > 0 and expected == pytest.approx((steps - prose) / steps)
    tokens = sum(r["usage"]["prompt_tokens"] + 10 for r in mine) / len(mine)
    cells = _summary(rep, "talky (standard)")
    assert cells[2] == f"{100 * expected:.2f}" and cells[-1] == f"{tokens:.0f}"
    assert _summary(rep, "naive (standard)")[2] == "100.00"

    with rep.csv.open() as fh:
        avg = next(r for r in csv.DictReader(fh)
                   if (r["agent"], r["prompt"], r["C"]) == ("talky", "standard", "Avg"))
    assert float(avg["valid_call_rate"]) == pytest.approx(100 * expected, abs=1e-3)
    assert float(avg["tokens_per_episode"]) == pytest.approx(tokens, abs=0.05)


def test_a_call_names_a_shown_tool_whatever_its_arguments(call_step):
    """The rung below a valid call (partial credit's ``named``): a shown tool with
    wrong arguments counts, an invented or hidden tool, prose and the endings do not."""
    name = call_step["action"]["name"]
    wrong = _with(call_step, status=400, action={"kind": "call", "name": name,
                                                 "arguments": {"zzz_unknown": 1}})
    assert names_shown_tool(call_step) and names_shown_tool(wrong) and not is_valid_call(wrong)
    assert names_shown_tool(_with(call_step, status=404, fault={"kind": "endpoint_retired"}))
    assert not names_shown_tool(_with(call_step, **HIDDEN))  # not shown
    assert not names_shown_tool(_with(call_step, action={"kind": "call", "name": "no_such_tool",
                                                         "arguments": {}}))
    assert not names_shown_tool({"action": {"kind": "invalid", "text": "bad"}, "status": 400})
    assert not names_shown_tool({"action": {"kind": "finish", "text": "done"}, "status": None})


def test_the_named_rate_counts_shown_tools_with_any_arguments_but_not_the_endings(call_step):
    name = call_step["action"]["name"]
    wrong = _with(call_step, status=400, action={"kind": "call", "name": name,
                                                 "arguments": {"zzz_unknown": 1}})
    finish = {"action": {"kind": "finish", "text": "done"}, "status": None}
    records = [{"steps": [call_step, wrong]}, {"steps": [finish, _with(call_step, **HIDDEN)]}]
    assert named_call_rate(records) == pytest.approx(2 / 4)
    assert valid_call_rate(records) == pytest.approx(2 / 4)  # the good call and finish
    assert named_call_rate([{"steps": []}]) is None
