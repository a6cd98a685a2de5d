"""The shipped perturbation profiles: regenerable, covered by the manifest, and
every implicit fault provably detectable (its witness re-checked here)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from tests.faults.grading_moves import moved_by_grading
from tests.faults.v8_misses import V8_SUMMARIZER_VICTIMS
from toolmaze_gym.corpus.corruption import (
    FAULT_KINDS,
    apply_recipe,
    changed_fields,
    recipe_kind,
    witness_for,
)
from toolmaze_gym.corpus.derivations import derivable
from toolmaze_gym.corpus.invariants import violations, visible_violations
from toolmaze_gym.faults import FAULT_MODES, MODE_NAMES, build_profile, get_mode
from toolmaze_gym.faults.census import blatant_share, kind_shares
from toolmaze_gym.faults.profiles import PROFILE_VERSION, expected_call, read_fields, recipe_for
from toolmaze_gym.faults.responses import PERMANENT_ERRORS, TRANSIENT_ERRORS
from toolmaze_gym.faults.skippable import skip_reasons
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


def test_every_instance_has_a_profile(suite):
    assert len(suite) == 400
    assert sum(len(ps) for _, ps in suite) == 2000
    for task, ps in suite:
        assert set(ps) == set(MODE_NAMES)
        assert ps["P0"].victims == ()
        for m in FAULT_MODES:
            assert ps[m].task_id == task.id and ps[m].mode == m and ps[m].victims




def test_profiles_regenerate_identically_and_match_the_manifest(sim):
    """Every shipped profile regenerates as shipped, but for what profile version 7
    moved: the version it records, and the P3/P4 victims of the toolmaze-v8 tasks whose
    stored victim is a summarizer before a post (``V8_SUMMARIZER_VICTIMS``), and the
    profiles grading version 23 would fault once more (``grading_moves``), which the
    suite keeps as played (the next suite is built with the new rule)."""
    shipped = (ROOT / PROFILES_FILE).read_bytes()
    manifest = json.loads((ROOT / "manifest.json").read_text())
    assert sha256(shipped) == manifest["files"][PROFILES_FILE]
    moved = ({(t, m) for t in V8_SUMMARIZER_VICTIMS for m in ("P3", "P4")}
             if SUITE_NAME == "toolmaze-v8" else set())
    moved |= set(moved_by_grading(SUITE_NAME))
    built = profile_lines(load_suite(), sim).decode("utf-8").splitlines()
    stored = shipped.decode("utf-8").splitlines()
    assert len(built) == len(stored)
    differ = set()
    for a, b in zip(built, stored, strict=True):
        new, old = json.loads(a), json.loads(b)
        if SUITE_NAME == "toolmaze-v8":
            assert new.pop("version") == PROFILE_VERSION and old.pop("version") == "6"
        if new != old:
            differ.add((old["task_id"], old["mode"]))
    assert differ == moved


def test_shipped_profiles_match_the_manifest():
    shipped = (ROOT / PROFILES_FILE).read_bytes()
    manifest = json.loads((ROOT / "manifest.json").read_text())
    assert sha256(shipped) == manifest["files"][PROFILES_FILE]


def test_victims_are_where_the_design_puts_them(suite, sim):
    for task, ps in suite:
        on_star = {c.slot for c in task.default_path.calls}
        branch = [s.id for s in task.branch_slots()]
        for m in FAULT_MODES:
            victims = ps[m].victims
            slots = [v.slot for v in victims]
            for v in victims:
                assert v.slot in on_star, (task.id, m)
                sides = task.slot_by_id[v.slot].alternatives
                if get_mode(m).explicit:
                    assert list(v.tools) == task.slot_by_id[v.slot].tools, (task.id, m)
                else:  # the first tool of every side: whichever the agent calls takes it
                    assert set(v.tools) == {side[0] for side in sides}, (task.id, m)
            if task.level == "C1" or not set(slots) & set(branch):
                # One node on s*: never the final Action, always read downstream.
                assert task.level == "C1" or not get_mode(m).explicit, (task.id, m)
                assert len(victims) == 1
                assert slots[0] != task.default_path.calls[-1].slot, task.id
                assert any(u == slots[0] for u, _, _ in task.edges()), task.id
            elif get_mode(m).explicit:  # one per branch slot every careful agent calls
                assert set(slots) <= set(branch), (task.id, m)
                missing = set(branch) - set(skip_reasons(task, sim)) - set(slots)
                assert missing <= {moved_by_grading(SUITE_NAME).get((task.id, m))}, (task.id, m)
            else:
                assert set(slots) <= set(branch), (task.id, m)


def test_implicit_modes_skip_only_branches_that_cannot_carry_a_plausible_fault(suite, sim):
    """A branch is left out of an implicit mode only when the first tool of some
    side is an Action, has nothing a later call reads, or no corruption of what is
    read carries a witness, or when the agent could derive the branch's result itself
    (then a fault there is no dead end: profile version 3), or when a careful agent may
    skip it (``faults.skippable``: since grading version 15 a tax at a known rate is the
    agent's own, so a tax branch may be skippable, tmz-v7-c4-0015)."""
    for task, ps in suite:
        if task.level == "C1":
            continue
        skipped = {s.id for s in task.branch_slots()} - {v.slot for v in ps["P4"].victims}
        skipped -= set(skip_reasons(task, sim, implicit=True))
        for slot_id in skipped:
            heads = [side[0] for side in task.slot_by_id[slot_id].alternatives]
            if all(derivable(sim.corpus[t]) for t in task.slot_by_id[slot_id].tools):
                continue
            assert any(
                sim.corpus[h].category == "Action" or not read_fields(task, h, sim)
                or any(recipe_for(sim, task, h, f"{task.id}/{m}/{slot_id}/{h}") is None
                       for m in ("P3", "P4")) for h in heads), (task.id, slot_id)


def test_the_same_victim_in_every_mode_of_a_kind(suite):
    for task, ps in suite:
        for modes in (("P1", "P2"), ("P3", "P4")):
            assert len({tuple(v.slot for v in ps[m].victims) for m in modes}) == 1, task.id
        if task.level == "C1":
            assert ps["P1"].victims[0].slot == ps["P3"].victims[0].slot, task.id


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


def _implicit(suite, sim):
    """(task, mode, victim, tool, expected call, corrupted body) of every planted fault."""
    for task, ps in suite:
        for m in ("P3", "P4"):
            for v in ps[m].victims:
                for tool in v.tools:
                    call, rerun = expected_call(sim, task, tool)
                    bad = apply_recipe(sim.corpus[tool], v.recipes[tool], call.args,
                                       call.response, sim.world,
                                       f"{task.id}/{m}/{v.slot}/{tool}", rerun)
                    yield task, m, v, tool, call, bad


@pytest.fixture(scope="module")
def implicit(suite, sim):
    return list(_implicit(suite, sim))


def test_every_implicit_fault_carries_a_witness_that_rechecks(implicit, sim):
    """Apply each recipe to the expected clean response: the documented invariants
    must report the recorded witness, and the corrupted body must differ from the
    clean one while keeping every field."""
    kinds = set()
    for task, m, v, tool, call, bad in implicit:
        spec = sim.corpus[tool]
        assert v.error is None
        assert set(v.recipes) == set(v.tools) == set(v.witnesses), (task.id, m)
        assert violations(spec, call.args, call.response, sim.world) == []
        assert bad is not None and bad != call.response, (task.id, m, tool)
        assert set(bad) == set(call.response)  # still well-formed
        w = witness_for(spec, call.args, bad, sim.world, v.recipes[tool])
        assert w is not None and w.to_dict() == v.witnesses[tool], (task.id, m, tool)
        assert w.to_dict() in [x.to_dict() for x in violations(spec, call.args, bad, sim.world)]
        kinds.add(recipe_kind(v.recipes[tool]))
    assert len(implicit) > 2 * 400  # every victim tool of every implicit instance
    assert set(FAULT_KINDS) <= kinds


def test_no_implicit_fault_on_an_action(suite, sim):
    """Recovering from a wrong confirmation would repeat the side effect."""
    for task, ps in suite:
        for m in ("P3", "P4"):
            for v in ps[m].victims:
                assert all(sim.corpus[t].category != "Action" for t in v.tools), (task.id, m)


def test_implicit_faults_fall_on_values_a_later_call_reads(implicit, sim):
    for task, m, _, tool, call, bad in implicit:
        read = read_fields(task, tool, sim)
        assert changed_fields(call.response, bad) & read, (task.id, m, tool)


def test_witness_is_derivable_from_what_the_agent_sees(implicit, sim):
    """The agent's own call, the corrupted response, the tool's documentation and
    the clock suffice to establish every witness: the invariant holds against a
    world that shows nothing but the time, and the docs state it."""
    for task, m, v, tool, call, bad in implicit:
        spec = sim.corpus[tool]
        w = v.witnesses[tool]
        seen = visible_violations(spec, call.args, bad, sim.world)
        if w["kind"] == "range" and not any(x.field == w["field"] for x in seen):
            # Known gap (issue 16 closing note): one blatant value (a low of 295.9 °C in
            # tmz-v3-c3-0046) carries a witness that cites the city's climate band, a
            # hidden fact; the builder should prefer visible witnesses (needs a rebuild).
            continue
        assert any(x.field == w["field"] and x.detail == w["detail"] for x in seen), \
            (task.id, m, tool, w)
        doc = spec.doc()
        assert w["field"] in doc, (task.id, tool)  # the docs describe the field it names
        if recipe_kind(v.recipes[tool]) == "entity":
            assert f"{w['field']} (" in doc and "equals the requested" in doc
        elif recipe_kind(v.recipes[tool]) == "stale":
            assert "24 h old" in doc
        # Every argument came from the query or a response, except free text the
        # agent writes itself (graded on the values it must mention, not verbatim).
        written = {i.source.value for s in task.slots for i in s.inputs
                   if i.type == "text" and i.source.is_literal}
        for arg in call.args.values():
            if isinstance(arg, str) and len(arg) > 2 and arg not in written:
                assert arg in task.query or any(
                    arg in map(str, c.response.values()) for p in task.solutions
                    for c in p.calls) or any(arg == e["value"] for e in task.entities)


def test_fault_kinds_are_plausible_and_mixed(suite):
    shares = kind_shares(p for _, ps in suite for p in ps.values())
    for m in ("P3", "P4"):
        assert blatant_share(shares[m]) <= 0.10, shares[m]
        # Each plausible kind keeps a real share; unit slips are the rarest since a
        # slip beside its clean twin (cents next to the amount) no longer counts
        # No kind takes much more than half (toolmaze-v7: unit 4.9 % of P3 and 5.0 % of
        # P4, wrong entity 49.4 % and 50.1 %; toolmaze-v9: wrong entity 52.4 % and 53.0 %,
        # after faults left the summaries an agent may write itself: profile version 7).
        assert all(shares[m][k] >= 0.045 for k in FAULT_KINDS), shares[m]
        assert max(shares[m][k] for k in FAULT_KINDS) <= 0.55, shares[m]


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
