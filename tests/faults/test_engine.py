"""The fault engine's activation rules (docs/faults.md), one test per rule, on suite tasks."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import EpisodeState
from toolmaze_gym.corpus.corruption import apply_recipe
from toolmaze_gym.faults import FaultEngine
from toolmaze_gym.faults.profiles import expected_call
from toolmaze_gym.faults.store import shipped_profiles, suite_with_profiles
from toolmaze_gym.tasks.suite import load_suite


def _tasks(level, where=lambda t: True):
    return (t for t in load_suite() if t.level == level and where(t))


def _call_of(task, tool):
    """The expected call of ``tool`` and the episode state just before it (the
    calls before it on a path that uses it, made cleanly)."""
    path = next(p for p in task.solutions if any(c.tool == tool for c in p.calls))
    return path, next(c for c in path.calls if c.tool == tool)


def _state_before(sim, path, tool):
    state = EpisodeState()
    for c in path.calls:
        if c.tool == tool:
            break
        assert sim.call(c.tool, c.args, state).ok
    return state


class _Run:
    """Calls straight into one engine, each with the state its path needs."""

    def __init__(self, task, mode, sim):
        self.task, self.sim = task, sim
        self.profile = shipped_profiles()[(task.id, mode)]
        self.engine = FaultEngine(self.profile, sim)

    def __call__(self, tool, **override):
        path, c = _call_of(self.task, tool)
        resp, event = self.engine.call(tool, {**c.args, **override},
                                       _state_before(self.sim, path, tool))
        return resp, event, c


def _c2_single_sides():
    return next(_tasks("C2", lambda t: all(len(side) == 1 for s in t.branch_slots()
                                           for side in s.alternatives)))


def _group(run):
    victim = run.profile.victims[0]
    star = next(c.tool for c in run.task.default_path.calls if c.slot == victim.slot)
    other = next(t for t in victim.tools if t != star)
    return star, other


def test_group_first_invoked_takes_a_transient_fault_once(sim):
    """C2 under P1: whichever member is invoked first takes the fault, once; the
    other members stay clean."""
    run = _Run(_c2_single_sides(), "P1", sim)
    star, other = _group(run)
    resp, event, _ = run(other)  # the agent starts with the non-default member
    assert event is not None and event.tool == other and resp.status == event.status >= 429
    assert resp.body == run.profile.victims[0].error
    assert run(other)[1] is None  # transient: the retry is clean
    assert run(star)[1] is None  # the group's fault is spent
    assert [e.tool for e in run.engine.events] == [other]


def test_permanent_fault_stays_on_the_tool_that_took_it(sim):
    """C2 under P2: the first member invoked fails for the rest of the episode."""
    run = _Run(_c2_single_sides(), "P2", sim)
    star, other = _group(run)
    for _ in range(3):
        resp, event, _ = run(star)
        assert event is not None and resp.status in (403, 404, 410, 501)
    resp, event, c = run(other)
    assert event is None and resp.ok and resp.body == c.response
    assert [e.tool for e in run.engine.events] == [star] * 3


def test_implicit_transient_corrupts_the_first_invocation_only(sim):
    """P3: the first invocation returns the profile's corrupted body, with witness."""
    task = next(_tasks("C1"))
    run = _Run(task, "P3", sim)
    v = run.profile.victims[0]
    tool = v.tools[0]
    resp, event, c = run(tool)
    assert resp.status == 200 and event.kind == "implicit"
    assert resp.body == apply_recipe(sim.corpus[tool], v.recipes[tool], c.args, c.response,
                                     sim.world, f"{task.id}/P3/{v.slot}/{tool}",
                                     expected_call(sim, task, tool)[1])
    assert event.witness == v.witnesses[tool]
    assert event.corrupted and all(resp.body[k] == x for k, x in event.corrupted.items())
    assert all(c.response[k] == x for k, x in event.clean.items())
    resp, event, c = run(tool)
    assert event is None and resp.body == c.response


def test_implicit_permanent_stays_corrupt(sim):
    run = _Run(next(_tasks("C2")), "P4", sim)
    star, other = _group(run)
    bodies = [run(star)[0].body for _ in range(3)]
    assert all(e.tool == star for e in run.engine.events) and len(run.engine.events) == 3
    assert bodies[0] == bodies[1] == bodies[2] != _call_of(run.task, star)[1].response
    assert run(other)[1] is None


@pytest.mark.parametrize("mode", ["P1", "P2"])
def test_c4_faults_are_independent_per_branch_slot(sim, mode):
    """C4: each branch slot takes its own fault; spending one leaves the others armed."""
    task = next(_tasks("C4", lambda t: len(t.branch_slots()) >= 2))
    run = _Run(task, mode, sim)
    victims = run.profile.victims
    assert [v.slot for v in victims] == [s.id for s in task.branch_slots()
                                         if s.id in {v.slot for v in victims}]
    firsts = [next(c.tool for c in task.default_path.calls if c.slot == v.slot)
              for v in victims]
    for k, tool in enumerate(firsts):
        event = run(tool)[1]
        assert event is not None and event.victim == k and event.slot == victims[k].slot
    again = [run(tool)[1] for tool in firsts]
    if mode == "P1":
        assert again == [None] * len(firsts)
    else:
        assert all(e is not None for e in again)
    assert len({e.slot for e in run.engine.events}) == len(victims)


def test_no_fault_on_calls_the_agent_did_not_make(sim):
    """Faults fire only on the victim, only when called, and not on a call that
    fails anyway (bad arguments): exposure is what the agent actually met."""
    task = next(_tasks("C1"))
    run = _Run(task, "P2", sim)
    victim = run.profile.victims[0].tools[0]
    for c in task.default_path.calls:
        if c.tool == victim:
            break
        assert run(c.tool)[1] is None
    assert run.engine.events == []
    path, c = _call_of(task, victim)
    bad = {k: v for k, v in list(c.args.items())[1:]}  # a required argument missing
    resp, event = run.engine.call(victim, bad, _state_before(sim, path, victim))
    assert 400 <= resp.status < 500 and event is None and run.engine.events == []
    assert run(victim)[1] is not None and len(run.engine.events) == 1


def test_no_fault_without_a_perturbation(sim):
    task = next(_tasks("C4"))
    engine = FaultEngine(shipped_profiles()[(task.id, "P0")], sim)
    state = EpisodeState()
    for c in task.default_path.calls:
        resp, event = engine.call(c.tool, c.args, state)
        assert event is None and resp.body == c.response
    assert engine.events == []


def test_every_suite_fault_serves_the_profile_response(sim):
    """On the expected call, every instance's victim gets exactly the profile's
    synthetic response: the error body (P1/P2), or the recipe's corrupted body
    and the recorded witness (P3/P4)."""
    n = drifted = 0
    instances = set()  # (task, mode) whose every victim tool was served
    suite = suite_with_profiles()
    for task, ps in suite:
        for m in ("P1", "P2", "P3", "P4"):
            instances.add((task.id, m))
            for v in ps[m].victims:
                for tool in v.tools:
                    path, c = _call_of(task, tool)
                    resp, event = FaultEngine(ps[m], sim).call(
                        tool, c.args, _state_before(sim, path, tool))
                    assert event is not None, (task.id, m, tool)
                    if m in ("P1", "P2"):
                        assert resp.body == v.error and resp.status == v.error["error"]["code"]
                    else:
                        # The clean answer the world gives now (a shipped suite's stored
                        # responses may predate a world rule, e.g. whole won in toolmaze-v3).
                        clean = sim.call(tool, c.args, _state_before(sim, path, tool)).body
                        assert resp.body == apply_recipe(
                            sim.corpus[tool], v.recipes[tool], c.args, clean, sim.world,
                            f"{task.id}/{m}/{v.slot}/{tool}",
                            expected_call(sim, task, tool)[1]), (task.id, m, tool)
                        if clean == c.response:  # a drifted answer has another witness
                            assert event.witness == v.witnesses[tool], (task.id, m, tool)
                        else:
                            drifted += 1
                    n += 1
    # every faulted instance of the suite, each with a victim tool or more
    assert len(instances) == 4 * len(suite) == 1600 and n >= len(instances), n
    assert drifted < n // 100, (n, drifted)
