"""The variants do what they say: each changes the episode in its own way, and only that.

A variant the grader is tested with must really differ from the reference run (else a
"competent" pass proves nothing) and a wrong one must really do its wrong thing (else
a "failure" proves nothing). Each test plays a variant through the env on suite tasks
and reads the episode's own steps.
"""

from __future__ import annotations

from functools import cache

import pytest
from toolmaze_gym.envs.env import ToolMazeEnv

from toolmaze_gym import values
from toolmaze_gym.agents.variants import DERIVABLE, TRANSLATE, VARIANTS, play, quoted
from toolmaze_gym.mentions import FREE_TEXT, mentions_all
from toolmaze_gym.tasks.suite import load_suite
from toolmaze_gym.training.careful import CarefulAgent

STRIDE = 8  # every 8th task of a level: 13 a level, spread over the whole suite
FEW = 3  # skip_known fits 8 tasks of toolmaze-v9, none of them every 8th: it is played on
# the first few suite tasks it fits (tests/grading/test_variants.py's PLAYED_FIT); so is
# reference_ids, which toolmaze-v12's every 8th task gives nothing to swap (v11's did)
FEW_FIT = ("skip_known", "reference_ids")


@cache
def _env() -> ToolMazeEnv:
    return ToolMazeEnv(level=None, mode=None)


def _tasks():
    return [t for lv in ("C1", "C2", "C3", "C4") for t in load_suite(levels=[lv])[::STRIDE]]


def _episodes(name: str, mode: str = "P0"):
    """(task, steps, careful's steps) of every sampled episode where ``name`` applied."""
    out = _applied(name, mode, _tasks())
    if not out and name in FEW_FIT:
        out = _applied(name, mode, load_suite(), stop=FEW)
    assert out, f"{name} applied nowhere in the sample ({mode})"
    return out


def _applied(name: str, mode: str, tasks, stop: int | None = None):
    env = _env()
    out = []
    for task in tasks:
        agent = VARIANTS[name](env.sim)
        play(env, agent, task, mode)
        if not agent.applied:
            continue
        steps = list(env.episode.steps)
        play(env, CarefulAgent(env.sim), task, mode)
        out.append((task, steps, list(env.episode.steps)))
        if stop is not None and len(out) >= stop:
            break
    return out


def _calls(steps):
    return [s for s in steps if s.kind == "call"]


def _kind(sim, tool):
    return sim.corpus[tool].category


def test_own_wording_never_sends_the_reference_text_and_keeps_every_ask():
    from toolmaze_gym.grading.asked_elsewhere import without_asked_elsewhere

    corpus = _env().sim.corpus
    for task, steps, _ in _episodes("own_wording"):
        sent = [v for s in _calls(steps) for v in s.action["arguments"].values()
                if isinstance(v, str)]
        # the asks the grader reads: a value asked of the user instead is not the
        # text's (grading version 21, ``asked_elsewhere``); a translator's input keeps
        # the request's sentence, the one the world translates (grading version 26)
        for slot in without_asked_elsewhere(task, corpus).slots:
            if any(corpus[t].behaviour == TRANSLATE for t in slot.tools):
                continue
            for inp in slot.inputs:
                if inp.type != FREE_TEXT or not inp.source.is_literal or \
                        quoted(task, inp.source.value):
                    continue
                assert inp.source.value not in sent, (task.id, inp.source.value)
                # every asked value this episode holds is in one of its texts (values
                # the episode replaced, such as ids its own texts derived, are its own)
                seen = task.query + " ".join(s.observation for s in steps)
                held = [(m[0], m[1]) for m in inp.mentions if str(m[1]) in seen]
                assert any(mentions_all(t, held) for t in sent), (task.id, inp)


def test_other_tool_uses_a_tool_the_reference_run_does_not():
    for task, steps, _ in _episodes("other_tool"):
        ref = {c.tool for c in task.default_path.calls}
        assert {s.action["name"] for s in _calls(steps)} - ref, task.id


def test_derive_calls_no_derivable_processor():
    sim = _env().sim
    for task, steps, careful in _episodes("derive"):
        used = {s.action["name"] for s in _calls(steps)}
        skipped = {s.action["name"] for s in _calls(careful)} - used
        assert any(sim.corpus[t].behaviour in DERIVABLE for t in skipped), task.id
        assert not any(sim.corpus[t].behaviour in DERIVABLE for t in used
                       if t not in {s.action["name"] for s in _calls(careful)}), task.id


def test_skip_known_makes_fewer_lookups_and_the_same_actions():
    sim = _env().sim
    for task, steps, careful in _episodes("skip_known"):
        def sources(ss):
            return [s.action["name"] for s in _calls(ss)
                    if _kind(sim, s.action["name"]) == "Source"]

        def actions(ss):
            return [(s.action["name"], s.action["arguments"]) for s in _calls(ss)
                    if _kind(sim, s.action["name"]) == "Action"]

        assert len(sources(steps)) < len(sources(careful)), task.id
        assert sorted(map(repr, actions(steps))) == sorted(map(repr, actions(careful))), task.id


def test_extra_read_opens_with_a_successful_read_outside_the_task():
    sim = _env().sim
    for task, steps, careful in _episodes("extra_read"):
        first = steps[0]
        assert first.action["name"] not in task.task_tools
        assert _kind(sim, first.action["name"]) == "Source" and first.status == 200
        assert [s.raw for s in steps[1:]] == [s.raw for s in careful], task.id


def test_reorder_calls_the_same_tools_in_another_order():
    for task, steps, careful in _episodes("reorder"):
        mine = [s.action["name"] for s in _calls(steps)]
        theirs = [s.action["name"] for s in _calls(careful)]
        assert mine != theirs and sorted(mine) == sorted(theirs), task.id


# reference_ids swaps only ids or values the reference run produced; toolmaze-v5 to v10's
# sampled episodes produced the same ids as the reference run, so it applied nowhere there
# (a strict xfail until toolmaze-v11, whose sample holds episodes it changes; toolmaze-v12's
# sample holds none, so the whole suite is searched: FEW_FIT).
def test_reference_ids_sends_a_value_its_episode_never_produced():
    for task, steps, _ in _episodes("reference_ids"):
        ref = {v for c in task.default_path.calls for v in c.args.values() if isinstance(v, str)}

        assert any(_foreign(task, steps, k, ref) for k, s in enumerate(steps)
                   if s.kind == "call"), task.id


def _foreign(task, steps, k, ref) -> list[str]:
    """Reference values step ``k`` sends that neither the query nor any earlier
    response of the episode contained."""
    seen = task.query + " ".join(s.observation for s in steps[:k])
    return [v for v in steps[k].action["arguments"].values()
            if isinstance(v, str) and v in ref and v not in seen]


def test_off_tolerance_changes_an_action_argument_beyond_its_type_tolerance():
    sim = _env().sim
    for task, steps, careful in _episodes("off_tolerance"):
        mine = [s.action for s in _calls(steps) if _kind(sim, s.action["name"]) == "Action"]
        theirs = [s.action for s in _calls(careful) if _kind(sim, s.action["name"]) == "Action"]
        diffs = [(a["name"], k) for a, b in zip(mine, theirs, strict=False)
                 for k in a["arguments"] if a["arguments"][k] != b["arguments"].get(k)]
        assert diffs, task.id
        tool, k = diffs[0]
        p = sim.corpus[tool].param(k)
        a = next(x for x in mine if x["name"] == tool)["arguments"][k]
        b = next(x for x in theirs if x["name"] == tool)["arguments"][k]
        assert not values.get(p.type).same(a, b), (task.id, a, b)


def test_missing_ask_sends_a_text_without_one_asked_value():
    for task, steps, _ in _episodes("missing_ask"):
        own = [v for s in _calls(steps) for v in s.action["arguments"].values()
               if isinstance(v, str) and v.startswith("As requested")]
        asks = [i.mentions for s in task.slots for i in s.inputs if i.mentions]
        assert any(not mentions_all(t, m) for t in own for m in asks), task.id


def test_unrequested_does_an_action_outside_the_task():
    sim = _env().sim
    for task, steps, _ in _episodes("unrequested"):
        extra = [s for s in _calls(steps) if s.action["name"] not in task.task_tools
                 and _kind(sim, s.action["name"]) == "Action" and s.status == 200]
        assert extra, task.id


def test_duplicate_repeats_the_final_action():
    sim = _env().sim
    for task, steps, _ in _episodes("duplicate"):
        acts = [s.raw for s in _calls(steps) if _kind(sim, s.action["name"]) == "Action"
                and s.status == 200]
        assert len(acts) >= 2 and acts[-1] == acts[-2], task.id


@pytest.mark.parametrize("mode", ["P3", "P4"])
def test_trust_fault_passes_on_a_response_the_careful_agent_rejects(mode):
    for task, steps, _ in _episodes("trust_fault", mode):
        k = next(k for k, s in enumerate(steps) if s.fault and s.fault["kind"] == "implicit")
        after = steps[k + 1]  # no retry, no switch of the tool, no stop: it went on
        assert after.kind == "call" and after.action["name"] != steps[k].action["name"], task.id


@pytest.mark.parametrize("mode", ["P2", "P4"])
def test_false_claim_finishes_where_the_careful_agent_aborts(mode):
    for task, steps, careful in _episodes("false_claim", mode):
        assert careful[-1].kind == "abort" and steps[-1].kind == "finish", task.id
