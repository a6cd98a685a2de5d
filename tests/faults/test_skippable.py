"""Faults where a careful agent must go (issue 28, item 3).

The victim of every (task, P1–P4) must be a call every careful way of doing the
task makes. toolmaze-v3 shipped four kinds of counter-example, loaded here as
fixtures with their shipped profiles: an identity conversion (c3-0009: USD->USD,
"faults: none fired"), a lookup the request answers (c1-0015: the airport code
KIX), a step a careful agent derives (c3-0074: a price line formatted and
translated) and a step it may skip (c1-0063: a dividend of 0 converted).
toolmaze-v4's play-test met faults in 19 of 21 episodes; its two misses are kept
too: a lookup whose read values another step returns (c1-0076: place_stock_order
gives the fill price the quote gave; c3-0008: lookup_contact_by_email gave the
phone number find_contact looks up). toolmaze-v8's play-test missed one more: an
implicit fault on a summarizer a careful player writes itself before posting the
message (c4-0069 P4: generate_tldr / summarize_key_points, then send_teams_message).
"""

from __future__ import annotations

from functools import cache

import pytest

from tests.faults.grading_moves import moved_by_grading
from tests.faults.v8_misses import V8_SUMMARIZER_VICTIMS
from tests.grading.test_played import FAULT_AVOIDABLE
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults import FAULT_MODES, ProfileError, build_profile
from toolmaze_gym.faults.skippable import (
    AT_HAND,
    DERIVABLE,
    ELSEWHERE,
    misplaced_victims,
    skip_reasons,
)
from toolmaze_gym.faults.store import playable_profile, profiles_buildable, shipped_profiles
from toolmaze_gym.tasks.files import load_tasks
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.tasks.suites import generate_split

# v3 task -> (its shipped victim slot, why a careful agent may skip it)
COUNTER_EXAMPLES = {
    "tmz-v3-c3-0009": ("s3", AT_HAND),  # convert 789.99 USD into the budget's USD
    "tmz-v3-c1-0015": ("s1", DERIVABLE),  # get_airport_info for KIX: Osaka, Japan
    "tmz-v3-c3-0074": ("s4", DERIVABLE),  # format a price line, translate it
    "tmz-v3-c1-0063": ("s3", AT_HAND),  # convert a dividend of 0 into JPY
}

# v4 task -> (its shipped victim slot, the modes a careful player skips it in)
V4_MISSES = {
    "tmz-v4-c1-0076": ("s1", ("P1", "P2", "P3", "P4")),  # get_stock_quote
    # find_contact: an implicit fault corrupts it alone; an explicit one falls on
    # whichever tool of the step comes first, so send_sms meets it in P1/P2.
    "tmz-v4-c3-0008": ("s5", ("P3", "P4")),
}

# v8 task -> (its shipped victim slot, the modes a careful player skips it in): an
# implicit fault corrupts the summarizer alone; an explicit one falls on the first tool
# of the step the agent calls, so the post meets it in P1/P2.
V8_MISSES = {"tmz-v8-c4-0069": ("s9", ("P3", "P4"))}


@cache
def sim() -> Simulator:
    return Simulator()


def _shipped(task_id: str) -> list:
    profiles = shipped_profiles(task_id.split("-c")[0].replace("tmz-", "toolmaze-"))
    return [profiles[(task_id, m)] for m in FAULT_MODES]


@pytest.mark.parametrize("task_id", sorted(COUNTER_EXAMPLES))
def test_the_check_finds_the_v3_counter_examples_in_their_shipped_profiles(task_id):
    slot, why = COUNTER_EXAMPLES[task_id]
    task = get_task(task_id)
    lines = misplaced_victims(task, _shipped(task_id), sim())
    assert lines, task_id
    assert all(f"victim {slot} " in ln and ln.endswith(why) for ln in lines), lines
    assert skip_reasons(task, sim())[slot] == why


@pytest.mark.parametrize("task_id", sorted(V4_MISSES))
def test_the_check_finds_the_victims_the_v4_play_test_skipped(task_id):
    slot, modes = V4_MISSES[task_id]
    task = get_task(task_id)
    lines = misplaced_victims(task, _shipped(task_id), sim())
    assert sorted(ln.split(":")[0].split()[-1] for ln in lines) == list(modes), lines
    assert all(f"victim {slot} " in ln and ln.endswith(ELSEWHERE) for ln in lines), lines


@pytest.mark.parametrize("task_id", sorted(V8_MISSES))
def test_the_check_finds_the_summarizer_the_v8_play_test_skipped(task_id):
    """c4-0069's P4 fault sat on the summarizer before the post; a careful player who
    wrote its own summary never met it. The check names it (and P3, laid alike), and
    not P1/P2, whose explicit fault the post meets."""
    slot, modes = V8_MISSES[task_id]
    task = get_task(task_id)
    lines = misplaced_victims(task, _shipped(task_id), sim())
    assert sorted(ln.split(":")[0].split()[-1] for ln in lines) == list(modes), lines
    assert all(f"victim {slot} " in ln and ln.endswith(DERIVABLE) for ln in lines), lines
    assert skip_reasons(task, sim(), implicit=True)[slot] == DERIVABLE
    assert slot not in skip_reasons(task, sim(), implicit=False)


@pytest.mark.parametrize("episode", sorted(FAULT_AVOIDABLE))
def test_the_check_flags_every_fault_a_careful_player_never_met(episode):
    """Each played episode whose fault a careful player finished without meeting
    (``FAULT_AVOIDABLE``, from the v4 and v8 play-tests) is one the check names in its
    shipped profiles: the static check sees what the players found."""
    task_id, mode = episode.rsplit("-", 1)
    task = get_task(task_id)
    profile = shipped_profiles(task_id.split("-c")[0].replace("tmz-", "toolmaze-"))
    assert any(ln.startswith(f"{task_id} {mode}:")
               for ln in misplaced_victims(task, [profile[(task_id, mode)]], sim()))


def test_a_value_only_the_victim_gives_keeps_it_a_victim():
    """The rule wants every read value elsewhere, of the same type: c1-0076's quote
    stays skippable while place_stock_order returns the fill price, and is a victim
    again once the order's response carries no price (the agent then needs the quote)."""
    task = get_task("tmz-v4-c1-0076")
    assert skip_reasons(task, sim()).get("s1") == ELSEWHERE
    import dataclasses

    calls = tuple(dataclasses.replace(c, response={k: v for k, v in c.response.items()
                                                   if k != "fill_price"})
                  if c.tool == "place_stock_order" else c for c in task.default_path.calls)
    paths = [dataclasses.replace(p, calls=calls) for p in task.solutions]
    bare = dataclasses.replace(task, solutions=paths)
    assert "s1" not in skip_reasons(bare, sim())


@pytest.mark.parametrize("task_id",
                         sorted(COUNTER_EXAMPLES) + sorted(V4_MISSES) + sorted(V8_MISSES))
def test_victim_choice_leaves_the_counter_examples_no_skippable_victim(task_id):
    """Built anew, each counter-example gets a victim every careful agent calls, or the
    builder rejects it (no such victim, or none with an alternative above C1)."""
    task = get_task(task_id)
    for mode in FAULT_MODES:
        try:
            profile = build_profile(task, mode, sim())
        except ProfileError:
            assert profiles_buildable(task), task_id
            continue
        assert misplaced_victims(task, [profile], sim()) == [], (task_id, mode)
        if playable_profile(task, mode, sim()) is None:
            assert profiles_buildable(task), task_id


def test_with_the_rule_off_the_old_victims_come_back(monkeypatch):
    """The check can fail: a victim choice that ignores ``faults.skippable`` puts the
    P1 fault of c3-0009 back on the USD->USD conversion, and the check says so."""
    monkeypatch.setattr("toolmaze_gym.faults.profiles.skip_reasons",
                        lambda task, sim, implicit=False: {})
    task = get_task("tmz-v3-c3-0009")
    profile = build_profile(task, "P1", sim())
    assert [v.slot for v in profile.victims] == ["s3"]
    assert misplaced_victims(task, [profile], sim())


@pytest.fixture(scope="module")
def generated():
    """Tasks the generator builds as the suite builder keeps them (the fault engine's
    acceptance test), two per level, with every fault mode's profile."""
    tasks = list(generate_split("dev", 8, seed=28, check=profiles_buildable))
    return [(t, [build_profile(t, m, sim()) for m in FAULT_MODES]) for t in tasks]


def test_generated_tasks_fill_every_level(generated):
    assert sorted({t.level for t, _ in generated}) == ["C1", "C2", "C3", "C4"]


def test_no_fault_of_a_generated_task_falls_where_a_careful_agent_may_skip(generated):
    for task, profiles in generated:
        assert all(p.victims for p in profiles), task.id
        assert misplaced_victims(task, profiles, sim()) == [], task.id


def test_an_action_is_never_called_skippable(generated):
    """The grader requires every Action: leaving one out is never accepted."""
    corpus = sim().corpus
    for task, _ in generated:
        reasons = skip_reasons(task, sim())
        for slot in task.slots:
            if any(corpus[t].category == "Action" for t in slot.tools):
                assert slot.id not in reasons, (task.id, slot.id)


def test_the_suite_check_runs_over_a_suite_directory_and_finds_them_all(tmp_path):
    """What the lead runs over a built suite (here toolmaze-v3, copied as a
    ``build-suite --out`` directory): every counter-example is among its lines."""
    import shutil
    from importlib import resources

    from toolmaze_gym.faults.skippable import suite_misplaced

    shipped = resources.files("toolmaze_gym") / "data" / "suites" / "toolmaze-v3"
    root = tmp_path / "v3"
    shutil.copytree(str(shipped), root)
    lines = suite_misplaced(str(root), sim())
    for task_id, (slot, _) in COUNTER_EXAMPLES.items():
        assert any(ln.startswith(f"{task_id} P1: victim {slot} ") for ln in lines), task_id


@pytest.mark.slow
def test_v8_rebuilt_puts_no_fault_where_a_careful_agent_may_skip():
    """Over all of toolmaze-v8 (400 tasks, 1,600 fault profiles; about 30 s on one
    core): the stored profiles' avoidable victims are exactly the summarizers before a
    post, in P3 and P4; rebuilt in memory with today's victim choice, no profile has
    one, and only those 22 profiles change (the stored suite stays as shipped), besides
    the two grading version 23 faults once more (``grading_moves``)."""
    stored = shipped_profiles("toolmaze-v8")
    flagged, rebuilt_flagged, changed = set(), [], set()
    for task in load_tasks("toolmaze-v8"):
        mine = [stored[(task.id, m)] for m in FAULT_MODES]
        flagged |= {(task.id, ln.split(":")[0].split()[-1], ln.split("victim ")[1].split()[0])
                    for ln in misplaced_victims(task, mine, sim())}
        built = [build_profile(task, m, sim()) for m in FAULT_MODES]
        rebuilt_flagged += misplaced_victims(task, built, sim())
        changed |= {(task.id, b.mode) for a, b in zip(mine, built, strict=True)
                    if a.victims != b.victims}
    assert flagged == {(t, m, s) for t, s in V8_SUMMARIZER_VICTIMS.items()
                       for m in ("P3", "P4")}
    assert rebuilt_flagged == []
    assert changed == {(t, m) for t, m, _ in flagged} | set(moved_by_grading("toolmaze-v8"))
