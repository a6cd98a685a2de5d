"""The grade explained: every reason a person needs is named (which call, which argument,
expected vs sent, which fault at which step, recovery, costs, labels)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grading.test_played import played_text
from toolmaze_gym.call_checks import show
from toolmaze_gym.episode import Episode
from toolmaze_gym.explain import LABEL_MEANINGS, downstream_tools, explain, reveal
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.grading import LABELS, grade, no_alternative
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import V3_NAME, get_task, load_suite

# Tasks of a given shape come from toolmaze-v3 (load only: its tasks never change); an
# episode of one takes v3's shipped faults (its id names the suite).
PINNED = V3_NAME
HEATING = {"list_room_devices", "get_thermostat_state", "nest_set_heat_setpoint"}
# The pinned suite's first C2 heating task (list the room's devices, read the
# thermostat, ..., set the heat) whose faults all strike the thermostat read.
TASK = next(t.id for t in load_suite(PINNED) if t.level == "C2"
            and {c.tool for c in t.default_path.calls} >= HEATING
            and all("get_thermostat_state" in shipped_profiles(PINNED)[(t.id, m)].victims[0].tools
                    for m in ("P1", "P2", "P3", "P4")))
CALLS = get_task(TASK).default_path.calls
READ = next(k for k, c in enumerate(CALLS) if c.tool == "get_thermostat_state")
READ_STEP = get_task(TASK).meta["steps"][CALLS[READ].slot]
READ_TOOLS = " | ".join(get_task(TASK).slot_by_id[CALLS[READ].slot].tools)


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
    _, faulted = _played(sim, "P3", [*_reference()[:READ + 1], _call("finish", answer="Done.")])
    assert "cost: c = 1: your steps after the first faulty response" in faulted
    assert "c* = " in faulted and "C_rec = 1.0" in faulted


def test_a_silent_fault_names_the_field_the_true_value_and_the_clue(sim):
    task = get_task(TASK)
    ep = Episode(task, "P4", sim)
    for a in _reference()[:READ + 1]:
        ep.step(a)
    fault = ep.steps[READ].fault
    g, text = _played(sim, "P4", [*_reference()[:READ + 1], _call("finish", answer="Done.")])
    assert g["exposed"] and fault["corrupted"] and fault["witness"]["detail"]
    assert (f"step {READ + 1}: get_thermostat_state returned wrong data with status 200 (a "
            "silent fault, permanent: that tool keeps failing)") in text
    for k, v in fault["corrupted"].items():
        assert f"{k} = {show(v)} (true value {show(fault['clean'][k])})" in text
    assert f"the clue: {fault['witness']['detail']}" in text
    assert f"recovered: no: the faulted step '{READ_STEP}' ({READ_TOOLS}) was not " \
        "completed cleanly after the fault" in text


def test_over_trust_is_named_as_the_reason_recovery_failed(sim):
    task = get_task(TASK)
    ep = Episode(task, "P4", sim)
    for a in _reference()[:READ + 1]:
        ep.step(a)
    fault = ep.steps[READ].fault
    # A later call whose free text tells a corrupted field's true value, sent with the
    # corrupted value instead.
    def said(v) -> str:  # a reading as the texts write it (19.0 as "19")
        return f"{v:g} C" if isinstance(v, float) else f"{v} C"

    k, name, field = next((k, n, f) for k, c in enumerate(CALLS) if k > READ
                          for n, v in c.args.items() if isinstance(v, str)
                          for f in fault["corrupted"] if said(fault["clean"][f]) in v)
    text = CALLS[k].args[name]
    sent = _call(CALLS[k].tool, **{**CALLS[k].args, name: text.replace(
        said(fault["clean"][field]), said(fault["corrupted"][field]))})
    g, text = _played(sim, "P4", [*_reference()[:k], sent, *_reference()[k + 1:],
                                  _call("finish", answer="Done.")])
    assert "over_trust" in g["labels"]
    assert "recovered: no: a corrupted value from the faulty response reached a later call" \
        in text


def test_a_call_the_env_refused_is_named_with_its_error(sim):
    # The pinned suite's first task that switches a light.
    task = next(t for t in load_suite(PINNED)
                if any(c.tool == "set_light_state" for c in t.default_path.calls))
    calls = task.default_path.calls
    ref = _reference(task.id)
    k = next(k for k, c in enumerate(calls) if c.tool == "set_light_state")
    step = task.meta["steps"][calls[k].slot]
    no_on = _call("set_light_state", light_id=calls[k].args["light_id"])
    _, text = _played(sim, "P0", [*ref[:k], no_on, *ref[k + 1:], _call("finish", answer="Done.")],
                      task.id)
    assert f"Action set_light_state (step '{step}') was not done right: step {k + 1}: it " \
        "failed with status 400: missing required parameter 'on'" in text


def test_a_wrong_value_says_where_the_expected_one_comes_from(sim):
    ref = _reference()
    k = next(k for k, c in enumerate(CALLS) if c.tool == "nest_set_heat_setpoint")
    own = CALLS[k].args["device"]
    # Another room's thermostat, as another task's device listing shows it.
    other = next(c.response["thermostat_id"] for t in load_suite(PINNED)
                 for c in t.default_path.calls if c.tool == "list_room_devices"
                 and c.response.get("thermostat_id") not in (None, own))
    wrong = _call("nest_set_heat_setpoint", **{**CALLS[k].args, "device": other})
    _, text = _played(sim, "P0", [*ref[:k], wrong, *ref[k + 1:], _call("finish", answer="Done.")])
    step = get_task(TASK).meta["steps"][CALLS[k].slot]
    listing = 1 + max(j for j, c in enumerate(CALLS[:k]) if c.tool == "list_room_devices")
    assert f"Action nest_set_heat_setpoint (step '{step}') was not done right: step {k + 1}: " \
        f'argument device: expected "{own}" (from the response of list_room_devices (this ' \
        f'episode last called it cleanly at step {listing})), sent "{other}"' in text


def test_an_argument_the_request_did_not_ask_for_is_named(sim):
    """Grading v4: an optional text the request left open (a push title) may be sent
    with any words, so it is no reason; an argument the tool does not have is named."""
    # The pinned suite's first push notification sent without a title.
    task_id, push = next((t.id, c) for t in load_suite(PINNED) for c in t.default_path.calls
                         if c.tool == "send_push_notification" and "title" not in c.args)
    calls = get_task(task_id).default_path.calls

    def played(**extra):
        lines = [_call(c.tool, **c.args, **(extra if c is push else {})) for c in calls]
        return _played(sim, "P0", [*lines, _call("finish", answer="Done.")], task_id)

    g, text = played(title="Order update")
    assert g["success"] and "was not asked for" not in text
    g, text = played(priority="high")
    assert not g["success"]
    k = calls.index(push)
    reason = next(x for x in text.splitlines() if "Action send_push_notification (step '" in x)
    assert f"was not done right: step {k + 1}: it failed with status 400" in reason
    assert "priority" in reason  # the env's own message names the argument


def test_nothing_done_lists_the_reads_once_and_each_action(sim):
    """Grading v4: lookups are means, never a reason, and are not named unless the
    reference is shown; each required Action is named once as never called."""
    g, text = _played(sim, "P0", [_call("finish", answer="Done.")])
    assert not g["success"]
    task = get_task(TASK)
    ep = Episode(task, "P0", sim)
    actions = [c.tool for c in CALLS if sim.corpus[c.tool].category == "Action"]
    lookups = [c.tool for c in CALLS if sim.corpus[c.tool].category != "Action"]
    assert len(actions) >= 2 and lookups
    for tool in actions:
        assert f"  - Action {tool} (step '" in text and f"[NOT DONE] Action {tool}" in text
    assert text.count("was never called") == len(actions)
    assert "calls of the path never made" not in text
    for tool in lookups:
        assert tool not in text, tool
    shown = "\n".join(explain(g, task, ep.profile, ep.steps, sim.corpus, show_reference=True))
    for tool in lookups:
        assert f"] Source {tool}" in shown or f"] Processor {tool}" in shown
        assert f"[optional] Source {tool}" in shown or f"[optional] Processor {tool}" in shown
    assert shown.count("was never called") == len(actions)


def test_the_hint_for_the_lookups_names_a_command_that_lists_them(sim, capsys):
    """The v23 play-test's players ran ``toolmaze show TASK --reveal`` as the hint then
    said ("--reveal lists them"): refused. The hint names a command the CLI runs, and it
    prints the lookups the hint leaves out."""
    from toolmaze_gym.cli.app import main

    _, text = _played(sim, "P0", [_call("finish", answer="Done.")])
    hint = next(line for line in text.splitlines() if "how you get the data is up to you" in line)
    command = hint.split("lists them: toolmaze ", 1)[1].split(",")[0].split()
    assert command == ["show", TASK]
    assert main(command) == 0
    shown = capsys.readouterr().out
    for c in CALLS:
        if sim.corpus[c.tool].category != "Action":
            assert c.tool in shown and c.tool not in text


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


def _own_ids(sim, in_text: bool):
    """The pinned suite's first C1 task where an id an Action created is passed on to a
    later Action (inside its free text with ``in_text``, else as an argument), played
    by a competent agent whose own run created other ids: (grade, explanation, the
    reference id, the episode's own one)."""
    from toolmaze_gym.mentions import FREE_TEXT

    for task in load_suite(PINNED):
        if task.level != "C1":
            continue
        calls = task.default_path.calls
        found = set()
        for k, c in enumerate(calls):
            if sim.corpus[c.tool].category != "Action":
                continue
            made = {v for v in c.response.values() if isinstance(v, str) and len(v) > 6}
            for later in calls[k + 1:]:
                spec = sim.corpus[later.tool]
                for name, v in later.args.items():
                    text = spec.param(name).type == FREE_TEXT
                    if spec.category == "Action" and text == in_text and isinstance(v, str):
                        found |= {i for i in made if (i in v if text else i == v)}
        if not found:
            continue
        g, text, own = _own_wording(sim, task.id)
        ref = next((i for i in sorted(found) if i in own), None)
        if ref is not None:
            return g, text, ref, own[ref]
    raise AssertionError("no task passes a created id on")


def test_an_id_the_episode_created_is_the_one_expected_downstream(sim):
    """Grading v4: an id comes from the episode (a sheet created, then a row added to
    it), so passing on the episode's own id succeeds and the reference run's id is
    never asked for (under grading v3 the explanation had to point it out)."""
    g, text, ref, mine = _own_ids(sim, in_text=False)
    assert ref != mine
    assert g["success"] and text.startswith("grade: SUCCESS"), text
    assert ref not in text and "reference run" not in text and "NOT DONE" not in text


def test_a_mention_of_the_episodes_own_id_in_free_text_is_accepted(sim):
    """Grading v4: a text naming the id this episode created (a to-do naming the
    review just posted) is right; the reference run's id is never expected."""
    g, text, ref, mine = _own_ids(sim, in_text=True)
    assert ref != mine
    assert g["success"] and text.startswith("grade: SUCCESS"), text
    assert ref not in text and "reference run" not in text and "NOT DONE" not in text


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


def _blocked_with_a_probe():
    """The pinned suite's first C1 task whose permanent P2 fault leaves no valid path
    and whose reference calls a tool downstream of the victim right after it: (task,
    the victim's call index)."""
    profiles = shipped_profiles(PINNED)
    for task in load_suite(PINNED):
        profile = profiles.get((task.id, "P2"))
        if task.level != "C1" or profile is None or not no_alternative(task, profile):
            continue
        calls = task.default_path.calls
        victim = profile.victims[0]
        at = next(k for k, c in enumerate(calls) if c.slot == victim.slot)
        if at + 1 < len(calls) and calls[at + 1].tool in downstream_tools(task, {victim.slot}):
            return task, at
    raise AssertionError("no blocked task with a downstream call")


def test_a_stop_after_probing_downstream_of_a_blocking_fault_names_the_probe(sim):
    task, compose = _blocked_with_a_probe()
    calls = task.default_path.calls
    lines = [_call(c.tool, **c.args) for c in calls]
    reason = "The service is not implemented, so I couldn't complete the request."
    g, text = _played(sim, "P2", [*lines[: compose + 1], lines[compose + 1],
                                  _call("abort", reason=reason)], task.id)
    assert not g["success"]
    assert f"step {compose + 2} called {calls[compose + 1].tool}, a tool of a step after " \
        "the faulted one" in text
    assert "was never called" not in text  # with no path left, missing calls are no reason
    g, text = _played(sim, "P2", [*lines[: compose + 1], _call("abort", reason=reason)],
                      task.id)
    assert g["success"] and "grade: SUCCESS: a fault left no valid path" in text


def test_a_text_lists_as_missing_only_what_the_grader_misses():
    """Round 8 (c2-0050-P0): the SMS wrote the current value as whole yen (62,936,919),
    which the grader reads as 62936918.88; it is never said to be missing. The one miss
    is the projection's: the grader projects the JPY value, the agent projected the USD
    one and texted what its own projection gave (issue 27 item 5: said once, at the
    projection, naming its input; the verdict is the task's, issue 28)."""
    from pathlib import Path

    from tests.grading.test_played import _replay
    path = Path(__file__).parent / "data" / "played" / "v3-round8" / "tmz-v3-c2-0050-P0.actions"
    grade, text = _replay(path, "tmz-v3-c2-0050-P0")
    reasons = text.split("the required Actions")[0]
    assert not grade["success"]
    assert "step 4 (future_value_calculator" in reasons
    assert "argument present_value: expected 62936918.88" in reasons
    assert "sent 417974.59" in reasons
    assert "mention 62936918.88" not in reasons and "mention 62936919" not in reasons


def test_a_chain_s_value_is_said_to_come_from_the_tool_that_returns_it():
    """toolmaze-v4 c4-0031 P2: the payload must carry track_shipment's parcel status;
    the grade said it came "from the response of get_order_status or track_shipment
    (this episode last called it cleanly at step 9)", get_order_status's step, whose
    ``status`` is the order's own. It names the one tool whose response carries it."""
    text = _v4_played_closing("tmz-v4-c4-0031-P2")
    assert '"in transit" (shipment_status, from the response of track_shipment, a tool this ' \
           "episode never called before this step)" in text
    assert "get_order_status or track_shipment" not in text


def _v4_played_closing(episode: str) -> str:
    """The grade explained for a v4 play-test episode replayed as played."""
    from pathlib import Path

    from toolmaze_gym.play import PlaySession

    task_id, mode = episode.rsplit("-", 1)
    played = Path(__file__).parent / "data" / "played" / "v4" / f"{episode}.actions"
    s = PlaySession(get_task(task_id), mode, prompt="failure_aware")
    for line in played.read_text(encoding="utf-8").splitlines():
        if not s.done:
            s.handle(line)
    return s.closing()


def test_an_action_done_through_another_shown_tool_names_that_tool():
    """toolmaze-v4 c4-0043 P0: the office thermostat set by room with adjust_temperature
    does the office step's nest_set_heat_setpoint; the grade says which tool did it."""
    text = _v4_played_closing("tmz-v4-c4-0043-P0")
    assert "grade: SUCCESS" in text
    assert "[done at step 7 through adjust_temperature] Action nest_set_heat_setpoint" in text
    assert "duplicate" not in text


# ---------------------------------------------------------------- v5 play-test (issue 27 item 6)
# Episodes whose explanation the v5 play-test (grading version 12) found untrue, replayed
# from tests/data/explained/: each grade stays a failure, and its explanation must say
# the true reason and not the false one.
EXPLAINED = Path(__file__).parent / "data" / "explained"


def _replayed(name: str, folder: Path = EXPLAINED) -> tuple[dict, str]:
    task_id, mode = name.split("-P")[0], "P" + name.split("-P")[1][0]
    s = PlaySession(get_task(task_id), mode, prompt="failure_aware")
    for line in played_text(folder / f"{name}.actions").splitlines():
        if not s.done:
            s.handle(line)
    assert s.done
    return s.env.record()["grade"], s.closing()


G23_SLIPS = Path(__file__).parent / "data" / "played" / "v10-g23" / "slips"  # its play-test's


def test_a_sentence_asked_in_another_language_is_carried_by_what_it_says():
    """c4-0013: an English post asked in German is told to carry what the weather line
    says, not the English sentence with its °F (a German post without it passes)."""
    g, text = _replayed("tmz-v10-c4-0013-P0.english-post", G23_SLIPS)
    assert not g["success"]
    assert "which is not in German (de)" in text
    assert 'and carry what "Light rain, 20.2 °C (68.4 °F)." says (text, ' in text
    assert 'carry "Light rain' not in text


def test_a_text_the_agent_may_word_itself_is_not_named_as_the_only_one():
    """c3-0072: a payload summing up the wrong story names the summary of the right one
    and says the agent's own summary counts the same (the player's passing run summed
    up the description, not the title the reference run summarised)."""
    g, text = _replayed("tmz-v10-c3-0072-P3.usedwrongstory", G23_SLIPS)
    assert not g["success"]
    assert 'does not mention "Telescope near Paris spots a comet visible next month" (text, ' \
        in text
    assert "at step 2)) or the same in your own words" in text


def test_finishing_without_a_required_action_is_no_give_up():
    """c4-0092: the door was found locked and the lock call left out; the episode was
    finished with a report, so it did not give up: a required Action is missing."""
    g, text = _replayed("tmz-v5-c4-0092-P0")
    assert g["success"] is False
    assert g["labels"] == ["missing_action"]
    assert "premature_give_up" not in text
    assert "Action august_lock (step 'lock') was never called" in text


def test_a_required_action_through_another_tool_of_its_step_names_the_missing_value():
    """c3-0096: the SMS was sent with send_sms (the closest path has
    create_twilio_message) without the booking reference: that is the required Action
    with a wrong value, naming XLPNNP; no collateral damage, no give-up, not 'never
    called'."""
    g, text = _replayed("tmz-v5-c3-0096-P2-noref")
    assert g["success"] is False
    assert g["labels"] == ["wrong_arguments"]
    assert "collateral damage" not in text and "did not ask for" not in text
    assert "premature_give_up" not in text and "was never called" not in text
    # named under the tool the agent used, not the path's (v9, v10, v23 play-tests)
    assert "Action send_sms (step 'sms'), which you used instead of create_twilio_message, " \
        "was not done right: step " in text
    assert "[NOT DONE: tried through send_sms] Action create_twilio_message" in text
    assert "not done through" not in text
    assert 'leaves out "XLPNNP" (flight_booking_ref, from the response of book_flight_offer' \
        in text


def test_a_translated_text_is_explained_by_the_facts_it_lacks():
    """c3-0064: a Spanish e-mail with the wrong temperature is told the missing values,
    not the translator's whole sentence (a tool the episode never called)."""
    g, text = _replayed("tmz-v5-c3-0064-P0-wrongtemp")
    assert g["success"] is False and g["labels"] == ["wrong_arguments"]
    assert "leaves out 28.7 (temperature_c" in text and "83.7 (temperature_f" in text
    assert "translate_text" not in text and "¡Bienvenido a Mumbai" not in text


@pytest.mark.parametrize("name", ["tmz-v5-c2-0079-P0", "tmz-v5-c2-0079-P0-shipto"])
def test_a_text_is_told_its_own_episodes_values_never_the_reference_runs(name):
    """c2-0079: the webhook names the player's own order SO-QJSRXL2Z and tax 86133.75;
    the explanation says those are there and why they do not count, and never calls
    the reference run's SO-BUGDUNPM or 95.76 the expected value."""
    g, text = _replayed(name)
    assert g["success"] is False
    log = next(line for line in text.splitlines() if "post_webhook (step 'log') was not" in line)
    assert "expected \"SO-BUGDUNPM\"" not in log and "95.76" not in log
    assert ("it does say 86133.75, this episode's calculate_sales_tax tax_amount (step 5), "
            "but step 5 is not the calculate_sales_tax call this task asks for (amount is "
            "410160.7, expected 455.98)") in log
    if name == "tmz-v5-c2-0079-P0":
        # The webhook's check reads the player's own order SO-QJSRXL2Z, and counts it: the
        # order's own miss is its own line, not a value of the payload that "does not
        # count" (issue 27 item 6: an explanation names what the grade found missing).
        assert "SO-QJSRXL2Z" not in log.partition("which does not mention")[2]
        assert "order_by_sku order_id" not in log
        assert ("Action order_by_sku (step 'order') was not done right: step 3: argument "
                'ship_to_city is missing: expected "Buenos Aires"') in text
