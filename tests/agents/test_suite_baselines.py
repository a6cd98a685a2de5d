"""The scripted baselines on the whole reference suite (400 tasks × P0–P4 = 2,000
instances): each scores what the grading semantics say it must, cell by cell."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.corpus.invariants import violations
from toolmaze_gym.corpus.spec import flat_form
from toolmaze_gym.metrics import LEVELS, MODES, table

CELLS = [f"{lv}/{m}" for lv in LEVELS for m in MODES]


def _cells(records):
    tbl = table(records)
    assert sorted(tbl["cells"]) == sorted(CELLS)
    assert all(c["n"] == 100 for c in tbl["cells"].values())
    return tbl["cells"]


def _in(records, mode):
    return [r for r in records if r["mode"] == mode]


def test_suite_has_2000_instances(suite):
    assert len(suite) == 400 and sum(len(ps) for _, ps in suite) == 2000


# Episodes where the oracle, which follows the reference plan, makes one call more than
# c*: the visa-and-allowance trip (tr-err-visa-landing-hotel-and-allowance) at P2, whose
# two permanent faults fall on the visa lookup and on the flight's first tool. After the
# flight search's 403 the oracle takes the other side (search_flights, get_flight_status);
# c* prices the faulted side as its search alone, the flight-status lookup it never called
# there counting nothing (``costs._side_cost``: a lookup the agent skipped is free). In
# toolmaze-v11 the grader did let the status go (c4-0059, c4-0094); since grading version
# 28 an answer that tells the status must have read it (``resolution.told_word``), so the
# lookup is owed and c* undercounts by one. Known, for the costs (issue 27); toolmaze-v13
# draws the goal once (c4-0081).
OVER_C_STAR = {("tmz-v12-c4-0061", "P2"): "get_flight_status",
               ("tmz-v12-c4-0081", "P2"): "get_flight_status",
               ("tmz-v13-c4-0081", "P2"): "get_flight_status",
               # toolmaze-v15 draws the goal twice
               ("tmz-v15-c4-0035", "P2"): "get_flight_status",
               ("tmz-v15-c4-0094", "P2"): "get_flight_status"}


def test_oracle_is_perfect_in_every_cell(suite_run):
    """The benchmark's proof of solvability: TSR = PRR = 100 %, RC = 0 under every
    fault (undefined in NP, where nothing is exposed) but for the episodes of
    ``OVER_C_STAR``, and every fault instance really met its fault."""
    records = suite_run("oracle")
    over = {(r["task_id"], r["mode"]) for r in records}
    known = {k: v for k, v in OVER_C_STAR.items() if k in over}
    for name, cell in _cells(records).items():
        assert cell["TSR"] == 1.0, name
        if name.endswith("/P0"):
            assert cell["exposed"] == 0 and cell["PRR"] is None and cell["RC"] is None, name
        else:
            assert cell["exposed"] == 100 and cell["PRR"] == 1.0, name
            cells = {f"{t.split('-')[2].upper()}/{m}" for t, m in known}
            assert cell["RC"] == 0.0 or name in cells, name
    for r in records:
        g, key = r["grade"], (r["task_id"], r["mode"])
        extra = 1 if key in known else 0
        assert g["c"] == g["c_star"] + extra and not g["harmful"], key
        if extra:
            calls = [s["action"].get("name") for s in r["steps"]]
            assert calls.count(known[key]) == 1, key
        assert "over_trust" not in g["labels"] and "retry_loop" not in g["labels"]
    assert table(records)["composite"] == 1.0 or known  # RC of the known pair only


def test_naive_solves_np_and_fails_every_fault(suite_run):
    records = suite_run("naive")
    for name, cell in _cells(records).items():
        if name.endswith("/P0"):
            assert cell["TSR"] == 1.0 and cell["RC"] is None, name  # nothing exposed
        elif name.endswith(("/P1", "/P2")):  # follows s* into the error, never recovers
            assert cell["exposed"] == 100, name
            assert (cell["TSR"], cell["PRR"], cell["RC"]) == (0.0, 0.0, 1.0), name
        else:
            # Trusting an implicit fault fails, except where a v2 profile corrupts a
            # redundant field no later call reads, or a step the agent could derive
            # (grading v4 judges the outcome): a few per cent, gone in toolmaze-v3.
            assert cell["exposed"] == 100, name
            assert cell["TSR"] <= 0.08 and cell["PRR"] <= 0.08, (name, cell)
    p3 = _in(records, "P3")
    # It trusts the corrupted value: over-trust wherever that value is read on.
    assert sum("over_trust" in r["grade"]["labels"] for r in p3) > len(p3) / 2
    # It finishes at the error, claiming done: a required Action left out, not a give-up.
    assert all("missing_action" in r["grade"]["labels"] for r in _in(records, "P1"))


def test_retry_recovers_explicit_transient_but_not_implicit(suite_run):
    records = suite_run("retry")
    cells = _cells(records)
    for lv in LEVELS:
        assert (cells[f"{lv}/P0"]["TSR"], cells[f"{lv}/P0"]["RC"]) == (1.0, None), lv
        p1, p3 = cells[f"{lv}/P1"], cells[f"{lv}/P3"]
        assert (p1["TSR"], p1["PRR"], p1["RC"]) == (1.0, 1.0, 0.0), lv  # one retry = optimal
        assert p3["exposed"] == 100 and p3["PRR"] <= 0.1, lv  # see the naive test
        # It succeeds only where a later tool rejects the corrupted value (a 422 on a
        # negative amount) and it reroutes by luck: never a recovery, rarely a success.
        assert p3["TSR"] <= 0.15 and p3["RC"] >= 0.85, lv
    # C1 under P2: retries three times, then stops gracefully (recovered, but costly).
    c1p2 = [r["grade"] for r in records if r["level"] == "C1" and r["mode"] == "P2"]
    assert all(g["success"] and g["recovered"] and g["c"] == 4 and g["c_star"] == 1
               and g["labels"] == ["retry_loop", "graceful_stop"] for g in c1p2)
    assert cells["C1/P2"]["RC"] == pytest.approx(0.75)
    # C2/C3 under P2: retries, then switches to the alternative.
    for lv in ("C2", "C3"):
        assert cells[f"{lv}/P2"]["TSR"] == cells[f"{lv}/P2"]["PRR"] == 1.0, lv
    assert all("path_switch" in r["grade"]["labels"] for r in records
               if r["mode"] == "P2" and r["level"] != "C1")


def test_validator_recovers_implicit_faults_its_docs_reveal(suite_run, sim):
    """Wherever the corrupted response breaks a documented invariant (the witness,
    re-derived here from the body the agent saw), the validator recovers."""
    records = suite_run("validator")
    checkable = 0
    for r in _in(records, "P3"):
        first = next(s for s in r["steps"] if s["fault"])
        body = flat_form(json.loads(first["observation"]))  # nested objects: dotted names
        spec = sim.corpus[first["action"]["name"]]
        found = [w.to_dict() for w in violations(spec, first["action"]["arguments"], body,
                                                 sim.world)]
        assert first["fault"]["witness"] in found, (r["task_id"], r["mode"])
        checkable += 1
        g = r["grade"]
        assert g["success"] and g["recovered"], r["task_id"]
        assert "over_trust" not in g["labels"]
    assert checkable == 400
    cells = _cells(records)
    for lv in LEVELS:
        assert (cells[f"{lv}/P3"]["TSR"], cells[f"{lv}/P3"]["PRR"]) == (1.0, 1.0), lv
        assert cells[f"{lv}/P1"]["PRR"] == 1.0, lv
    # Implicit-permanent behaves like explicit-permanent once detected.
    for lv in ("C1", "C2", "C3"):
        assert cells[f"{lv}/P4"]["TSR"] == cells[f"{lv}/P4"]["PRR"] == 1.0, lv


def test_implicit_explicit_gap_separates_retry_from_validator(suite_run):
    retry, validator = table(suite_run("retry"))["gaps"], table(suite_run("validator"))["gaps"]
    assert retry["PRR(P1)-PRR(P3)"] >= 0.9  # harmless v2 faults: see the naive test
    assert validator["PRR(P1)-PRR(P3)"] == 0.0
    # Within two episodes of 400: the validator's own retry budget can run a long C4
    # draw with several permanent victims to the step limit (tmz-v3-c4-0041 at P2;
    # toolmaze-v15's c4-0075 and c4-0092 at P2, four tries of each faulted tool).
    assert retry["PRR(P2)-PRR(P4)"] > 0.9 and abs(validator["PRR(P2)-PRR(P4)"]) <= 0.005 + 1e-9


def test_composite_orders_the_baselines(suite_run):
    score = {a: table(suite_run(a))["composite"] for a in ("oracle", "validator", "retry",
                                                           "naive")}
    assert score["oracle"] > 0.999  # 1.0 but for the RC of OVER_C_STAR's two episodes
    assert score["oracle"] > score["validator"] > score["retry"] > score["naive"]


def test_records_carry_what_the_issue_lists(suite_run):
    r = next(r for r in suite_run("validator") if r["mode"] == "P3")
    assert {"task_id", "level", "mode", "agent", "prompt", "steps", "truncated", "grade",
            "grading_version"} <= set(r)
    assert r["agent"] == "validator" and r["prompt"] == "standard"
    step = next(s for s in r["steps"] if s["fault"])
    assert {"raw", "action", "status", "observation", "fault"} == set(step)
    assert step["fault"]["kind"] == "implicit" and step["fault"]["witness"]
    assert r["grade"]["version"] == r["grading_version"]
