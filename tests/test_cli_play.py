"""``toolmaze play``: a person plays one episode as the agent, from a file or the terminal,
sees only what the agent sees, and gets the grade explained."""

from __future__ import annotations

import io
import json

import pytest
from toolmaze_gym.envs.env import ToolMazeEnv

from toolmaze_gym.cli import main
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.tasks.suite import SUITE_NAME, get_task, load_suite

TASK = "tmz-v2-c2-0003"  # guest room: list devices, read thermostat, heat, light, lock, notify


def _line(call) -> str:
    return f"{call.tool} {json.dumps(call.args, ensure_ascii=False)}"


def _reference(task_id: str, retry: frozenset[str] = frozenset()) -> list[str]:
    """The reference path as play lines (calls of ``retry`` tools made twice), then finish."""
    lines = []
    for c in get_task(task_id).default_path.calls:
        lines += [_line(c)] * (2 if c.tool in retry else 1)
    return [*lines, "finish Done: all of it is done."]


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
    victim = shipped_profiles()[(TASK, "P1")].victims[0]
    code, out, _ = _play(tmp_path, capsys, _reference(TASK, frozenset(victim.tools)),
                         "--task", TASK, "--mode", "P1")
    assert code == 0
    grade = _grade_part(out)
    status = victim.error["error"]["code"]
    assert f"step 2: get_thermostat_state answered {status} (an explicit fault, transient" \
        in grade
    assert "recovered: yes" in grade and "c = 7" in grade and "c* = 7" in grade
    assert "C_rec = 0.0" in grade


def test_a_wrong_call_fails_and_the_explanation_names_argument_and_values(tmp_path, capsys):
    lines = _reference(TASK)
    lines[2] = 'nest_set_heat_setpoint device=TH-T48YZ6MA heatCelsius=21'  # asked: 20 °C
    code, out, _ = _play(tmp_path, capsys, lines, "--task", TASK)
    assert code == 1
    grade = _grade_part(out)
    assert "grade: FAILURE" in grade
    assert "Action nest_set_heat_setpoint (step 'heat') was not done right: step 3: argument " \
        "heatCelsius: expected 20 (stated in the request), sent 21" in grade
    assert "step 3 (nest_set_heat_setpoint" in grade and "collateral damage" in grade
    assert "[NOT DONE] Action nest_set_heat_setpoint" in grade


def test_a_text_missing_an_asked_value_is_named(tmp_path, capsys):
    lines = _reference(TASK)
    lines[6] = 'notify_household site=Oslo message="Guest room heated to 20 C, light on."'
    code, out, _ = _play(tmp_path, capsys, lines, "--task", TASK)
    assert code == 1
    assert 'argument message does not mention 20.4 (temperature_c), "completed" ' \
        '(iot_command_status), "back door" (door_name), "locked"' in _grade_part(out)


def test_bad_input_lines_are_reported_and_cost_no_step(tmp_path, capsys):
    lines = _reference(TASK)
    bad = ["get_thermostat_stat thermostat_id=TH-T48YZ6MA", "set_light_state light_id",
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
    lines = ["help", "tools", "doc lock_door", "history", "lock_dor lock_id=LK-1",
             *_reference(TASK)[:3], "history", *_reference(TASK)[3:]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "--task", TASK]) == 0
    out, err = capsys.readouterr()
    assert "TOOL KEY=VALUE" in out  # help
    assert "  lock_door: Bolt a smart lock by its registry id;" in out  # tools
    assert "## lock_door\n" in out  # doc
    assert "no steps yet" in out
    assert "did you mean lock_door?" in err and "(not a step)" in err
    assert '  3. nest_set_heat_setpoint {"device": "TH-T48YZ6MA", "heatCelsius": 20} -> 200' \
        in out
    assert "[step 8] finish: Done: all of it is done." in out
    assert "grade: SUCCESS" in out


def test_end_of_input_before_an_ending_is_graded_as_cut(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(_reference(TASK)[0] + "\n"))
    assert main(["play", "--task", TASK]) == 1
    out, err = capsys.readouterr()
    assert "the input ended before the episode did" in err
    assert "the episode was stopped before it ended (stopped)" in out


def test_ctrl_c_ends_cleanly_with_the_grade(monkeypatch, capsys):
    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    assert main(["play", "--task", TASK]) == 130
    assert "the episode was stopped before it ended (interrupted)" in capsys.readouterr().out


def test_quit_stops_and_grades(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\nfinish never read\n"))
    assert main(["play", "--task", TASK]) == 1
    out = capsys.readouterr().out
    assert "stopped before it ended (quit)" in out and "[step 1] finish" not in out


def test_the_agent_sees_prompt_clock_request_and_docs_and_nothing_hidden(tmp_path, capsys):
    task = get_task(TASK)
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--mode", "P2")
    opening = out.split("[step 1]")[0].split("[grade]")[0]
    env = ToolMazeEnv(level="C2", mode="P2")
    env.reset(options={"task_id": TASK})
    for m in env.messages:  # the system prompt (with the clock) and the request, verbatim
        assert m["content"] in opening
    assert "The current date and time is" in opening
    for tool in [*task.tools, "finish", "abort"]:
        assert f"## {tool}\n" in opening
    hidden = [task.meta["goal"], "TH-T48YZ6MA", "LK-ATRZ8Y2W", "20.4",
              shipped_profiles()[(TASK, "P2")].victims[0].error["error"]["message"],
              "reference path", "victim"]
    for secret in hidden:
        assert secret not in opening, secret


def test_reveal_shows_the_reference_path_and_the_fault_profile(tmp_path, capsys):
    _, plain, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--mode", "P1")
    _, shown, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--mode", "P1", "--reveal")
    assert "[revealed]" not in plain and "victim" not in plain
    revealed = shown.split("[revealed]", 1)[1]
    assert '3. nest_set_heat_setpoint (step \'heat\') {"device": "TH-T48YZ6MA", ' \
        '"heatCelsius": 20}' in revealed
    assert "fault profile (P1):" in revealed and "error body:" in revealed


def test_full_docs_show_the_json_schemas(tmp_path, capsys):
    _, out, _ = _play(tmp_path, capsys, ["quit"], "--task", TASK, "--full-docs")
    assert '"name": "lock_door"' in out and '"parameters": {' in out
    assert "## lock_door" not in out


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
    assert '[step 2] list_room_devices {"room": "guest room", "site": "Oslo"} -> 200' in out
    assert "[step 3] no_such_tool {} -> 404" in out and '"type": "unknown_tool"' in out
    assert "[step 4] plain answer: I could not finish the job." in out


def test_a_graceful_stop_at_c1_under_a_permanent_fault_succeeds(tmp_path, capsys):
    task = next(t for t in load_suite() if t.level == "C1")
    victim = shipped_profiles()[(task.id, "P2")].victims[0]
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
    assert main(["eval", "--agent", "oracle", "--task-id", TASK, "--mode", "NP", "--out",
                 str(run), "--no-report", "--quiet"]) == 0
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


@pytest.mark.parametrize("argv, message", [
    (["--task", "tmz-v2-c9-0000"], "no task 'tmz-v2-c9-0000' in toolmaze-v2"),
    (["--level", "C1", "--index", "100"], "--index 100: toolmaze-v2 has 100 C1 tasks (0..99)"),
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
    assert "episode: tmz-v2-c2-0003 (C2, P0 NP" in out
    assert "the episode is over: the step limit (2) is reached" in out
    assert "[step 3]" not in out
    assert "the episode reached the step limit (2 steps) without finish or abort" in out


def test_an_actions_file_that_is_not_text_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "actions.bin"
    path.write_bytes(b"\xff\xfe\x00bad")
    assert main(["play", "--task", TASK, "--actions", str(path)]) == 2
    out = capsys.readouterr()
    assert "is not UTF-8 text" in out.err and out.out == ""  # refused before the episode
