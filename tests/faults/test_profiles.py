"""The shipped perturbation profiles: regenerable, covered by the manifest, and
every implicit fault provably detectable (its witness re-checked here)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from toolmaze_gym.corpus.corruption import apply_recipe
from toolmaze_gym.corpus.invariants import violations
from toolmaze_gym.faults import FAULT_MODES, MODE_NAMES, build_profile, get_mode
from toolmaze_gym.faults.responses import PERMANENT_ERRORS, TRANSIENT_ERRORS
from toolmaze_gym.faults.store import (
    PROFILES_FILE,
    profile_for,
    profile_lines,
    shipped_profiles,
    suite_with_profiles,
)
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite, sha256

ROOT = resources.files("toolmaze_gym") / "data" / "suites" / SUITE_NAME


@pytest.fixture(scope="module")
def suite():
    return suite_with_profiles()


def _expected_call(task, tool):
    return next(c for p in task.solutions for c in p.calls if c.tool == tool)


def test_every_instance_has_a_profile(suite):
    assert len(suite) == 400
    assert sum(len(ps) for _, ps in suite) == 2000
    for task, ps in suite:
        assert set(ps) == set(MODE_NAMES)
        assert ps["P0"].victims == ()
        for m in FAULT_MODES:
            assert ps[m].task_id == task.id and ps[m].mode == m and ps[m].victims


def test_profiles_regenerate_identically_and_match_the_manifest(sim):
    shipped = (ROOT / PROFILES_FILE).read_bytes()
    manifest = json.loads((ROOT / "manifest.json").read_text())
    assert sha256(shipped) == manifest["files"][PROFILES_FILE]
    assert profile_lines(load_suite(), sim) == shipped


def test_victims_are_where_the_design_puts_them(suite):
    for task, ps in suite:
        on_star = {c.slot for c in task.default_path.calls}
        branch = [s.id for s in task.branch_slots()]
        for m in FAULT_MODES:
            victims = ps[m].victims
            slots = [v.slot for v in victims]
            for v in victims:
                assert v.slot in on_star, (task.id, m)
                assert list(v.tools) == task.slot_by_id[v.slot].tools, (task.id, m)
            if task.level == "C1":
                assert len(victims) == 1
                # Never the final Action, and always something read downstream.
                assert slots[0] != task.default_path.calls[-1].slot, task.id
                assert any(u == slots[0] for u, _, _ in task.edges()), task.id
            elif task.level in ("C2", "C3"):
                assert slots == branch and len(branch) == 1, task.id
            else:
                assert slots == branch and len(branch) >= 2, task.id  # one per branch slot


def test_the_same_victim_in_every_mode(suite):
    for task, ps in suite:
        assert len({tuple(v.slot for v in ps[m].victims) for m in FAULT_MODES}) == 1, task.id


def test_explicit_error_bodies(suite):
    transient = {json.dumps(e, sort_keys=True) for e in TRANSIENT_ERRORS}
    permanent = {json.dumps(e, sort_keys=True) for e in PERMANENT_ERRORS}
    seen = {"P1": set(), "P2": set()}
    for _, ps in suite:
        for m, pool in (("P1", transient), ("P2", permanent)):
            for v in ps[m].victims:
                body = v.error["error"]
                assert json.dumps(body, sort_keys=True) in pool
                assert body["message"] and body["status"] and body["type"]
                assert not v.recipes and not v.witnesses
                seen[m].add(body["code"])
    assert seen == {"P1": {429, 503, 504}, "P2": {404, 410, 403, 501}}
    assert next(e for e in TRANSIENT_ERRORS if e["code"] == 429)["retry_after"] > 0


def test_every_implicit_fault_carries_a_witness_that_rechecks(suite, sim):
    """Apply each recipe to the expected clean response: the documented invariants
    must report exactly the recorded witness (first violation), and the corrupted
    body must differ from the clean one in a field the tool returns."""
    checked = 0
    kinds = set()
    for task, ps in suite:
        for m in ("P3", "P4"):
            for v in ps[m].victims:
                assert v.error is None
                assert set(v.recipes) == set(v.tools) == set(v.witnesses), (task.id, m)
                for tool in v.tools:
                    spec = sim.corpus[tool]
                    call = _expected_call(task, tool)
                    assert violations(spec, call.args, call.response, sim.world) == []
                    bad = apply_recipe(spec, v.recipes[tool], call.args, call.response,
                                       sim.world, f"{task.id}/{m}/{v.slot}/{tool}")
                    assert bad is not None and bad != call.response, (task.id, m, tool)
                    assert set(bad) == set(call.response)  # still well-formed
                    found = [w.to_dict() for w in violations(spec, call.args, bad, sim.world)]
                    assert found and found[0] == v.witnesses[tool], (task.id, m, tool)
                    kinds.add(v.witnesses[tool]["kind"])
                    checked += 1
    assert checked > 2 * 400  # every victim tool of every implicit instance
    assert {"range", "consistency", "entity"} <= kinds


def test_profile_for_uses_the_shipped_profile_only_for_suite_tasks(sim, monkeypatch):
    task = load_suite()[0]
    assert profile_for(task, "P3", sim) == shipped_profiles()[(task.id, "P3")]
    # A task that is not the suite's (another signature) gets a profile built for it.
    built = []
    monkeypatch.setattr("toolmaze_gym.faults.store.build_profile",
                        lambda t, m, s: built.append((t.id, m)) or build_profile(t, m, s))
    changed = type(task).from_dict({**task.to_dict(), "meta": {**task.meta, "signature": "x"}})
    assert profile_for(changed, "P3", sim) == build_profile(changed, "P3", sim)
    assert built == [(task.id, "P3")]
    profile_for(task, "P3", sim)
    assert built == [(task.id, "P3")]


def test_mode_names():
    assert get_mode("np").name == "P0" and get_mode("p4").permanent
    with pytest.raises(ValueError, match="unknown perturbation mode"):
        get_mode("P5")
