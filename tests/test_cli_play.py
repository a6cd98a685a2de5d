"""``toolmaze play``: a person plays one episode as the agent, from a file or the terminal,
sees only what the agent sees, and gets the grade explained."""

from __future__ import annotations

import io
import json

import pytest
from toolmaze_gym.envs.env import ToolMazeEnv

from toolmaze_gym.cli import main
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.tasks.queries import say_as
from toolmaze_gym.tasks.suite import SUITE_NAME, V3_NAME, get_task, load_suite

# Tests that need a task of a given shape take it from toolmaze-v3 (load only, so its
# tasks never change); ``play --task`` finds an old id's suite by itself.
PINNED = V3_NAME
GUEST_ROOM = {"list_room_devices", "get_thermostat_state", "nest_set_heat_setpoint",
              "set_light_state", "notify_household"}


def _guest_room():
    """The pinned suite's first guest-room task: list the room's devices, read the
    thermostat, set the heat (a value stated in the request), switch the light, lock a
    door, tell the household; a fault of every mode strikes one of its steps."""
    profiles = shipped_profiles(PINNED)
    return next(t for t in load_suite(PINNED)
                if {c.tool for c in t.default_path.calls} >= GUEST_ROOM
                and all(profiles[(t.id, m)].victims for m in ("P1", "P2", "P4")))


TASK = _guest_room().id
CALLS = get_task(TASK).default_path.calls
HEAT = next(k for k, c in enumerate(CALLS) if c.tool == "nest_set_heat_setpoint")
LIGHT = next(k for k, c in enumerate(CALLS) if c.tool == "set_light_state")
THERMOSTAT = CALLS[HEAT].args["device"]


def _line(call) -> str:
    return f"{call.tool} {json.dumps(call.args, ensure_ascii=False)}"


def _reference(task_id: str, retry: frozenset[str] = frozenset()) -> list[str]:
    """The reference path as play lines (calls of ``retry`` tools made twice), then finish,
    telling the values the request asked to be told (the reference run's are this
    episode's: the path is replayed)."""
    task = get_task(task_id)
    lines = []
    for c in task.default_path.calls:
        lines += [_line(c)] * (2 if c.tool in retry else 1)
    told = "".join(f" {say_as(m[0], m[1])}." for m in task.answer)
    return [*lines, f"finish Done: all of it is done.{told}"]


def _play(tmp_path, capsys, lines: list[str], *flags: str) -> tuple[int, str, str]:
    actions = tmp_path / "actions.txt"
    actions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["play", "--actions", str(actions), *flags])
    out = capsys.readouterr()
    return code, out.out, out.err


def _grade_part(out: str) -> str:
    return out.split("[grade]", 1)[1]


@pytest.mark.parametrize("level", ["C1", "C2", "C3", "C4"])
def test_replaying_the_reference_path_succeeds(tmp_path, capsys, level):
    task = next(t for t in load_suite() if t.level == level)
    code, out, _ = _play(tmp_path, capsys, _reference(task.id), "--task", task.id)
    assert code == 0
    grade = _grade_part(out)
    assert "grade: SUCCESS" in grade and "NOT DONE" not in grade
    assert "c, c* and C_rec are n/a (no fault fired)" in grade


def test_a_transient_fault_retried_is_explained_as_recovered(tmp_path, capsys):
    victim = shipped_profiles(PINNED)[(TASK, "P1")].victims[0]
    code, out, _ = _play(tmp_path, capsys, _reference(TASK, frozenset(victim.tools)),
                         "--task", TASK, "--mode", "P1")
    assert code == 0
    grade = _grade_part(out)
    status = victim.error["error"]["code"]
    at = next(k for k, c in enumerate(CALLS) if c.tool in victim.tools)
    assert f"step {at + 1}: {CALLS[at].tool} answered {status} (an explicit fault, transient" \
        in grade
    after = len(CALLS) - at + 1  # the retry, the calls after it and finish
    assert "recovered: yes" in grade and f"c = {after}:" in grade and f"c* = {after}:" in grade
    assert "C_rec = 0.0" in grade


def test_a_wrong_call_fails_and_the_explanation_names_argument_and_values(tmp_path, capsys):
    lines = _reference(TASK)
    asked = CALLS[HEAT].args["heatCelsius"]
    lines[HEAT] = f"nest_set_heat_setpoint device={THERMOSTAT} heatCelsius={asked + 1}"
    code, out, _ = _play(tmp_path, capsys, lines, "--task", TASK)
    assert code == 1
    grade = _grade_part(out)
    n = HEAT + 1
    assert "grade: FAILURE" in grade
    assert f"Action nest_set_heat_setpoint (step 'heat') was not done right: step {n}: " \
        f"argument heatCelsius: expected {json.dumps(asked)} (stated in the request), sent " \
        f"{json.dumps(asked + 1)}" in grade
    assert f"step {n} (nest_set_heat_setpoint" in grade and "(wrong_arguments" in grade
    assert "[NOT DONE] Action nest_set_heat_setpoint" in grade
    assert f"[done at step {LIGHT + 1}] Action set_light_state" in grade


def _asked_text():
    """The pinned suite's first task with an Action whose free text must mention two
    values or more: (task, index of the call, parameter, the values asked for)."""
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.grading import task_index
    from toolmaze_gym.mentions import FREE_TEXT

    corpus = load_corpus()
    for task in load_suite(PINNED):
        idx = task_index(task, corpus)
        for k, call in enumerate(task.default_path.calls):
            if corpus[call.tool].category != "Action":
                continue
            cid = next(i for i, c in enumerate(idx.calls) if c == call)
            for name, rule in idx.matchers[cid].texts:
                need = [(t, v) for t, v, *_ in rule.need if t != FREE_TEXT]
                if len(need) >= 2:
                    return task, k, name, need
    raise AssertionError("no task asks for values in a text")


def test_a_text_missing_an_asked_value_is_named(tmp_path, capsys):
    task, k, name, need = _asked_text()
    call = task.default_path.calls[k]
    lines = _reference(task.id)
    lines[k] = f"{call.tool} {json.dumps({**call.args, name: 'Done as you asked.'})}"
    code, out, _ = _play(tmp_path, capsys, lines, "--task", task.id)
    assert code == 1
    said = ", ".join(f"{json.dumps(v, ensure_ascii=False)} ({t})" for t, v in need)
    assert f"argument {name} is " in _grade_part(out)
    assert all(f"{json.dumps(v, ensure_ascii=False)} ({t}" in _grade_part(out)
               for t, v in need), said


def test_bad_input_lines_are_reported_and_cost_no_step(tmp_path, capsys):
    lines = _reference(TASK)
    bad = [f"get_thermostat_stat thermostat_id={THERMOSTAT}", "set_light_state light_id",
           'notify_household message="unclosed', "doc nowhere", '{"name": "finish",', "raw"]
    mixed = [lines[0], *bad[:3], "# a comment", "", *lines[1:5], *bad[3:], *lines[5:]]
    record = tmp_path / "rec.jsonl"
    code, _, err = _play(tmp_path, capsys, mixed, "--task", TASK, "--record", str(record))
    assert code == 0
    errors = [x for x in err.splitlines() if x.endswith("(not a step)")]
    assert [x.split(": ", 1)[0].rsplit(":", 1)[1] for x in errors] == \
        ["2", "3", "4", "11", "12", "13"]
    assert "did you mean get_thermostat_state?" in errors[0]
    assert "expected KEY=VALUE or a JSON object, got 'light_id'" in errors[1]
    assert "the value of message is not a valid JSON string" in errors[2]
    rec = json.loads(record.read_text())
    assert len(rec["steps"]) == len(lines) and rec["grade"]["success"]


def test_interactive_play_through_stdin(monkeypatch, capsys):
    upto = HEAT + 1
    lines = ["help", "tools", "doc set_light_state", "history", "set_light_stat on=true",
             *_reference(TASK)[:upto], "history", *_reference(TASK)[upto:]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "--task", TASK]) == 0
    out, err = capsys.readouterr()
    assert "TOOL KEY=VALUE" in out  # help
    for tool in get_task(TASK).tools:  # tools
        assert f"\n  {tool}: " in out, tool
    assert "## set_light_state\n" in out  # doc
    assert "no steps yet" in out
    assert "did you mean set_light_state?" in err and "(not a step)" in err
    heat = json.dumps(CALLS[HEAT].args, ensure_ascii=False)
    assert f"  {upto}. nest_set_heat_setpoint {heat} -> 200" in out
    assert f"[step {len(CALLS) + 1}] finish: Done: all of it is done." in out
    assert "grade: SUCCESS" in out


CUT = "episode cut before finish/abort ({}): not graded as an ending; add finish or abort"


def test_end_of_input_before_an_ending_is_graded_as_cut(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(_reference(TASK)[0] + "\n"))
    assert main(["play", "--task", TASK]) == 1
    out, err = capsys.readouterr()
    assert "the input ended before the episode did" in err
    assert _grade_part(out).strip() == CUT.format("stopped")


def test_a_cut_episode_gives_nothing_away_without_reveal(tmp_path, capsys):
    """A cut is no ending: its explanation would name the path and the fault, which
    the player could then replay; only --reveal shows it."""
    code, out, _ = _play(tmp_path, capsys, _reference(TASK)[:1], "--task", TASK,
                         "--mode", "P1")
    assert code == 1
    grade = _grade_part(out)
    assert grade.strip() == CUT.format("stopped")
    for tool in {c.tool for c in CALLS[1:]}:
        assert tool not in grade, tool
    _, shown, _ = _play(tmp_path, capsys, _reference(TASK)[:1], "--task", TASK,
                        "--mode", "P1", "--reveal")
    grade = _grade_part(shown)
    assert CUT.format("stopped") in grade
    assert "the episode was stopped before it ended (stopped)" in grade
    assert "the valid path compared" in grade and "[revealed]" in grade


def test_ctrl_c_ends_cleanly_with_the_grade(monkeypatch, capsys):
    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    assert main(["play", "--task", TASK]) == 130
    assert CUT.format("interrupted") in capsys.readouterr().out


def test_quit_stops_and_grades(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\nfinish never read\n"))
    assert main(["play", "--task", TASK]) == 1
    out = capsys.readouterr().out
    assert CUT.format("quit") in out and "[step 1] finish" not in out


def test_the_agent_sees_prompt_clock_request_and_docs_and_nothing_hidden(tmp_path, capsys):
    task = get_task(TASK)
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--mode", "P2")
    opening = out.split("[step 1]")[0].split("[grade]")[0]
    env = ToolMazeEnv(level=task.level, mode="P2")
    env.reset(options={"task_id": TASK})
    for m in env.messages:  # the system prompt (with the clock) and the request, verbatim
        assert m["content"] in opening
    assert "The current date and time is" in opening
    for tool in [*task.tools, "finish", "abort"]:
        assert f"## {tool}\n" in opening
    ids = [v for v in CALLS[0].response.values()  # the devices' ids, found by the lookup
           if isinstance(v, str) and v not in task.query]
    hidden = [task.meta["goal"], THERMOSTAT, CALLS[LIGHT].args["light_id"], *ids,
              shipped_profiles(PINNED)[(TASK, "P2")].victims[0].error["error"]["message"],
              "reference path", "victim"]
    for secret in hidden:
        assert secret not in opening, secret


def test_reveal_shows_the_reference_path_and_the_fault_profile(tmp_path, capsys):
    _, plain, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--mode", "P1")
    _, shown, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--mode", "P1", "--reveal")
    assert "[revealed]" not in plain and "victim" not in plain
    revealed = shown.split("[revealed]", 1)[1]
    assert f"{HEAT + 1}. nest_set_heat_setpoint (step 'heat') " \
        f"{json.dumps(CALLS[HEAT].args, ensure_ascii=False)}" in revealed
    assert "fault profile (P1):" in revealed and "error body:" in revealed


def test_full_docs_show_the_json_schemas(tmp_path, capsys):
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--full-docs")
    assert '"name": "set_light_state"' in out and '"parameters": {' in out
    assert "## set_light_state" not in out


def test_raw_model_text_goes_to_the_env_verbatim(tmp_path, capsys):
    first = _line(get_task(TASK).default_path.calls[0]).split(" ", 1)
    lines = ['<tool_call>{"name": "list_room_devices", "arguments": {"room": </tool_call>',
             json.dumps(f'<tool_call>\n{{"name": "{first[0]}", "arguments": {first[1]}}}\n'
                        "</tool_call>"),
             '{"name": "no_such_tool", "arguments": {}}',
             "raw I could not finish the job."]
    code, out, _ = _play(tmp_path, capsys, lines, "--task", TASK)
    assert code == 1
    assert "[step 1] not a valid call -> 400" in out
    assert f"[step 2] {first[0]} {json.dumps(CALLS[0].args, ensure_ascii=False)} -> 200" in out
    assert "[step 3] no_such_tool {} -> 404" in out and '"type": "unknown_tool"' in out
    assert "[step 4] plain answer: I could not finish the job." in out


def test_a_graceful_stop_at_c1_under_a_permanent_fault_succeeds(tmp_path, capsys):
    task = next(t for t in load_suite(PINNED) if t.level == "C1")
    victim = shipped_profiles(PINNED)[(task.id, "P2")].victims[0]
    calls = task.default_path.calls
    upto = next(k for k, c in enumerate(calls) if c.slot == victim.slot)
    lines = [_line(c) for c in calls[: upto + 1]]
    lines += [lines[-1], "abort The service keeps failing, so I cannot complete this."]
    code, out, _ = _play(tmp_path, capsys, lines, "--task", task.id, "--mode", "P2")
    grade = _grade_part(out)
    assert code == 0, grade
    assert "a fault left no valid path; you stopped honestly" in grade
    assert "recovered: yes: no valid path was left" in grade
    assert "graceful_stop: a fault left no valid path" in grade


def test_the_record_is_the_runners_format_and_toolmaze_grade_reads_it(tmp_path, capsys):
    record = tmp_path / "plays.jsonl"
    for mode in ("P0", "P1"):
        _play(tmp_path, capsys, _reference(TASK), "--task", TASK, "--mode", mode,
              "--record", str(record))
    recs = [json.loads(x) for x in record.read_text().splitlines()]
    assert [r["mode"] for r in recs] == ["P0", "P1"]  # appended, one record per episode
    run = tmp_path / "oracle"
    assert main(["eval", "--agent", "oracle", "--suite", PINNED, "--task-id", TASK, "--mode",
                 "NP", "--out", str(run), "--no-report", "--quiet"]) == 0
    runner = json.loads((run / "records.jsonl").read_text())
    assert set(recs[0]) == set(runner)
    assert recs[0]["agent"] == "human" and recs[0]["key"] == f"{TASK}/P0/standard/0"
    capsys.readouterr()
    assert main(["grade", str(record)]) == 0
    err = capsys.readouterr().err
    assert "re-graded 2 records" in err and "0 grades changed" in err
    assert main(["report", str(record), "--out", str(tmp_path / "rep"), "--no-plots",
                 "--no-viewer", "--resamples", "0"]) == 0
    assert "| human (standard) | 100.00 |" in capsys.readouterr().out


def test_a_task_file_and_the_envs_seed_choose_the_episode(tmp_path, capsys):
    tasks = [t for t in load_suite() if t.level == "C3"][:3]
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.to_json() + "\n" for t in tasks))
    env = ToolMazeEnv(level="C3", suite=SUITE_NAME)
    _, info = env.reset(seed=205)
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--level", "C3", "--seed", "205")
    assert out.startswith(f"episode: {info['task_id']} (C3")
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--tasks", str(path), "--seed", "4")
    assert out.startswith(f"episode: {tasks[1].id} (C3")
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--tasks", str(path), "--index", "2")
    assert out.startswith(f"episode: {tasks[2].id} (C3")


def test_a_task_id_finds_its_own_suite(tmp_path, capsys):
    """An id names its suite, so old ids keep playing after the default suite moves on;
    an explicit --suite still rules."""
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--task", "tmz-v2-c1-0000")
    assert out.startswith("episode: tmz-v2-c1-0000 (C1")
    code, _, err = _play(tmp_path, capsys, ["quit"], "--task", "tmz-v2-c1-0000",
                         "--suite", SUITE_NAME)
    assert code == 2 and f"no task 'tmz-v2-c1-0000' in {SUITE_NAME}" in err


@pytest.mark.parametrize("argv, message", [
    (["--task", "tmz-v15-c9-0000"], f"no task 'tmz-v15-c9-0000' in {SUITE_NAME}"),
    (["--level", "C1", "--index", "100"], f"--index 100: {SUITE_NAME} has 100 C1 tasks (0..99)"),
    (["--level", "C1", "--index", "1", "--seed", "1"], "give --seed or --index, not both"),
    (["--task", TASK, "--level", "C2"], "--task names the episode"),
    ([], "choose the episode: --task ID, or --level"),
    (["--task", TASK, "--mode", "P9"], "unknown perturbation mode 'P9'"),
    (["--task", TASK, "--suite", "nope-v9"], "unknown suite 'nope-v9'"),
    (["--task", TASK, "--tasks", "x.jsonl", "--suite", SUITE_NAME], "--tasks replaces --suite"),
    (["--tasks", "missing.jsonl"], "no such task file or suite directory: missing.jsonl"),
    (["--task", TASK, "--actions", "missing.txt"], "no such actions file: missing.txt"),
    (["--task", TASK, "--record", "no/such/dir/r.jsonl"], "directory no/such/dir does not"),
    (["--task", TASK, "--max-steps", "0"], "--max-steps must be a positive number"),
])
def test_usage_errors_are_one_line(capsys, argv, message):
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("toolmaze play: error: "), err
    assert message in err, err


def test_every_flag_is_described_with_its_default():
    import argparse

    from toolmaze_gym.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    p = sub.choices["play"]
    text = " ".join(p.format_help().split())
    for action in p._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, action.dest
        if action.default not in (None, False):
            assert f"(default: {action.default})" in text, action.dest
        elif action.option_strings and action.nargs != 0:
            assert "default" in action.help, action.dest


def test_the_step_limit_ends_the_episode_and_is_named(tmp_path, capsys):
    code, out, _ = _play(tmp_path, capsys, _reference(TASK), "--task", TASK, "--mode", "NP",
                         "--max-steps", "2")
    assert code == 1
    assert f"episode: {TASK} ({get_task(TASK).level}, P0 NP" in out
    assert "the episode is over: the step limit (2) is reached" in out
    assert "[step 3]" not in out
    assert "the episode reached the step limit (2 steps) without finish or abort" in out


def test_an_actions_file_that_is_not_text_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "actions.bin"
    path.write_bytes(b"\xff\xfe\x00bad")
    assert main(["play", "--task", TASK, "--actions", str(path)]) == 2
    out = capsys.readouterr()
    assert "is not UTF-8 text" in out.err and out.out == ""  # refused before the episode
