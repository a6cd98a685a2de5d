"""The grade explained: every reason a person needs is named (which call, which argument,
expected vs sent, which fault at which step, recovery, costs, labels)."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.episode import Episode
from toolmaze_gym.explain import LABEL_MEANINGS, explain, reveal
from toolmaze_gym.grading import LABELS, grade
from toolmaze_gym.tasks.suite import get_task

TASK = "tmz-v2-c2-0003"


def _call(tool: str, **args) -> str:
    return json.dumps({"name": tool, "arguments": args})


def _played(sim, mode: str, actions: list[str], task_id: str = TASK):
    task = get_task(task_id)
    ep = Episode(task, mode, sim)
    for a in actions:
        ep.step(a)
    g = grade(task, ep.profile, ep.steps, ep.truncated, sim).to_dict()
    return g, "\n".join(explain(g, task, ep.profile, ep.steps, sim.corpus, ep.truncated,
                                ep.cut_reason))


def _reference(task_id: str = TASK) -> list[str]:
    return [_call(c.tool, **c.args) for c in get_task(task_id).default_path.calls]


def test_every_label_the_grader_gives_has_a_meaning():
    assert set(LABELS) <= set(LABEL_MEANINGS)


def test_extra_grade_fields_are_tolerated_and_a_graders_note_is_shown(sim):
    g, _ = _played(sim, "P0", [*_reference(), _call("finish", answer="Done.")])
    task = get_task(TASK)
    ep = Episode(task, "P0", sim)
    g = {**g, "explanation": ["every Action matched"], "new_field": {"x": 1}}
    text = "\n".join(explain(g, task, ep.profile, [], sim.corpus))
    assert "grader's note:\n  every Action matched" in text


def test_costs_read_na_without_a_fault_and_are_explained_with_one(sim):
    _, plain = _played(sim, "P0", [*_reference(), _call("finish", answer="Done.")])
    assert "c, c* and C_rec are n/a (no fault fired)" in plain
    _, faulted = _played(sim, "P3", [*_reference()[:2], _call("finish", answer="Done.")])
    assert "cost: c = 1: your steps after the first faulty response" in faulted
    assert "c* = " in faulted and "C_rec = 1.0" in faulted


def test_a_silent_fault_names_the_field_the_true_value_and_the_clue(sim):
    g, text = _played(sim, "P4", [*_reference()[:2], _call("finish", answer="Done.")])
    assert g["exposed"]
    assert ("step 2: get_thermostat_state returned wrong data with status 200 (a silent "
            "fault, permanent: that tool keeps failing)") in text
    assert "updated_at = \"2026-07-16T09:00:00Z\" (true value \"2026-08-18T09:00:00Z\")" in text
    assert "the clue: timestamp 2026-07-16T09:00:00Z is 33 days away from now" in text
    assert "recovered: no: the faulted step 'thermostat' (get_thermostat_state | " \
        "honeywell_get_thermostat) was not completed cleanly after the fault" in text


def test_over_trust_is_named_as_the_reason_recovery_failed(sim):
    g, text = _played(sim, "P4", _reference()[:2])
    corrupted_temp = None
    task = get_task(TASK)
    ep = Episode(task, "P4", sim)
    for a in _reference()[:2]:
        ep.step(a)
    corrupted_temp = ep.steps[1].fault["corrupted"]["current_temperature_c"]
    notify = _call("notify_household", site="Oslo", message=f"Guest room: was {corrupted_temp} "
                   "C, now set to 20 C; light completed; back door locked.")
    g, text = _played(sim, "P4", [*_reference()[:6], notify, _call("finish", answer="Done.")])
    assert "over_trust" in g["labels"]
    assert "recovered: no: a corrupted value from the faulty response reached a later call" \
        in text


def test_a_call_the_env_refused_is_named_with_its_error(sim):
    ref = _reference()
    no_on = _call("set_light_state", light_id="LT-X72W8S2X")
    _, text = _played(sim, "P0", [*ref[:3], no_on, *ref[4:], _call("finish", answer="Done.")])
    assert "Action set_light_state (step 'light') was not done right: step 4: it failed " \
        "with status 400: missing required parameter 'on'" in text


def test_a_wrong_value_says_where_the_expected_one_comes_from(sim):
    ref = _reference()
    living_room = "TH-Q4L4NRXR"  # the Oslo living room's thermostat, not the guest room's
    wrong = _call("nest_set_heat_setpoint", device=living_room, heatCelsius=20)
    _, text = _played(sim, "P0", [*ref[:2], wrong, *ref[3:], _call("finish", answer="Done.")])
    assert "Action nest_set_heat_setpoint (step 'heat') was not done right: step 3: argument " \
        'device: expected "TH-T48YZ6MA" (from the response of list_room_devices), sent ' \
        f'"{living_room}"' in text


def test_an_argument_the_request_did_not_ask_for_is_named(sim):
    task_id = "tmz-v2-c1-0017"
    calls = get_task(task_id).default_path.calls
    push = next(c for c in calls if c.tool == "send_push_notification")
    lines = [_call(c.tool, **c.args, **({"title": "Order update"} if c is push else {}))
             for c in calls]
    _, text = _played(sim, "P0", [*lines, _call("finish", answer="Done.")], task_id)
    assert 'argument title="Order update" was not asked for (leave it out or send its ' \
        "default null)" in text


def test_nothing_done_lists_the_reads_once_and_each_action(sim):
    g, text = _played(sim, "P0", [_call("finish", answer="Done.")])
    assert not g["success"]
    assert "calls of the path never made: list_room_devices, get_thermostat_state, " \
        "find_lock" in text
    for tool in ("nest_set_heat_setpoint", "set_light_state", "lock_door", "notify_household"):
        assert f"Action {tool} (step '" in text
        assert text.count("was never called") == 4


@pytest.mark.parametrize("mode", ["P0", "P2", "P4"])
def test_reveal_names_the_reference_path_and_every_victim(sim, mode):
    task = get_task(TASK)
    ep = Episode(task, mode, sim)
    text = "\n".join(reveal(task, ep.profile))
    for c in task.default_path.calls:
        assert f"{c.tool} (step '{task.meta['steps'][c.slot]}') " \
               f"{json.dumps(c.args, ensure_ascii=False)}" in text
    assert (f"fault profile ({mode}): no victim" in text) == (mode == "P0")
    for v in ep.profile.victims:
        assert f"victim: step '{task.meta['steps'][v.slot]}' ({v.slot})" in text


def _own_wording(sim, task_id: str, mode: str = "P0"):
    """The reference path played with its own wording of every Action's free text, and
    the ids its own calls produced passed on (a competent agent, not a replay)."""
    from toolmaze_gym.mentions import FREE_TEXT

    task = get_task(task_id)
    ep = Episode(task, mode, sim)
    own: dict[str, str] = {}
    for c in task.default_path.calls:
        spec = sim.corpus[c.tool]
        args = {}
        for k, v in c.args.items():
            for ref, mine in own.items():
                v = v.replace(ref, mine) if isinstance(v, str) else v
            if spec.param(k).type == FREE_TEXT and spec.category == "Action":
                v = f"{v} (in my words)"
            args[k] = v
        step = ep.step(_call(c.tool, **args))
        body = json.loads(step.observation)
        own |= {v: body[k] for k, v in c.response.items()
                if isinstance(v, str) and len(v) > 6 and isinstance(body.get(k), str)
                and body[k] != v}
    ep.step(_call("finish", answer="Done."))
    g = grade(task, ep.profile, ep.steps, ep.truncated, sim).to_dict()
    return g, "\n".join(explain(g, task, ep.profile, ep.steps, sim.corpus)), own


def test_an_id_of_the_reference_run_the_episode_never_produced_is_pointed_out(sim):
    g, text, own = _own_wording(sim, "tmz-v2-c1-0022")  # a sheet created, then a row added
    if g["success"]:
        pytest.skip("the grader resolves ids against the episode: nothing to point out")
    ref, mine = "SHT-W6KAHXAUD7", own["SHT-W6KAHXAUD7"]
    assert f'argument spreadsheet_id: expected "{ref}" (from the response of ' in text
    assert f'sent "{mine}"; this episode\'s ' in text
    assert "you passed on your own episode's value, and the expected one is the reference " \
        "run's" in text


def test_a_mention_of_a_reference_id_in_free_text_is_pointed_out(sim):
    g, text, own = _own_wording(sim, "tmz-v2-c1-0008")  # a review, then a to-do naming it
    if g["success"]:
        pytest.skip("the grader resolves ids against the episode: nothing to point out")
    ref = "REV-JMRJKA96"
    assert f'argument name does not mention "{ref}" (review_id); "{ref}" is the reference ' \
        f"run's submit_product_rating rating_id; this episode's (step 2) is " \
        f'"{own[ref]}"' in text


def test_the_explanation_needs_neither_the_env_nor_the_agents():
    """Like the grader, the explanation is a function of the grade and the task data, so
    reports and the grader itself can use it without the Gymnasium layer or models."""
    import subprocess
    import sys

    probe = ("import sys, toolmaze_gym.explain; print('\\n'.join(m for m in sys.modules "
             "if m.startswith(('toolmaze_gym.envs.env', 'toolmaze_gym.envs.pool', "
             "'toolmaze_gym.agents'))))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.split()
    assert not loaded, loaded


def test_a_stop_after_probing_downstream_of_a_blocking_fault_names_the_probe(sim):
    task_id = "tmz-v2-c1-0003"  # close a ticket, look up the assignee, compose, mail
    calls = get_task(task_id).default_path.calls
    compose = next(k for k, c in enumerate(calls) if c.tool == "render_email_template")
    lines = [_call(c.tool, **c.args) for c in calls]
    reason = "The template service is not implemented, so I couldn't send the email."
    g, text = _played(sim, "P2", [*lines[: compose + 1], lines[compose + 1],
                                  _call("abort", reason=reason)], task_id)
    assert not g["success"]
    assert f"step {compose + 2} called send_mail_message, a tool of a step after the " \
        "faulted one" in text
    assert "was never called" not in text  # with no path left, missing calls are no reason
    g, text = _played(sim, "P2", [*lines[: compose + 1], _call("abort", reason=reason)],
                      task_id)
    assert g["success"] and "grade: SUCCESS: a fault left no valid path" in text
