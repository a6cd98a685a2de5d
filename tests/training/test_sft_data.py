"""Expert SFT data: recovery without hidden knowledge, kept only when worth imitating,
stored so that every tool call and tool result round-trips unchanged."""

from __future__ import annotations

import json

import pytest
from toolmaze_gym.envs.env import ToolMazeEnv

from toolmaze_gym.training.careful import CarefulAgent
from toolmaze_gym.training.sft_data import episode_prompts, episode_row, keep, play

pytest.importorskip("datasets")


def _episode(task, mode, prompt="failure_aware"):
    env = ToolMazeEnv(level=None, mode=None, split="train", prompt=prompt)
    reward = play(env, CarefulAgent(env.sim), task, mode)
    return env, reward


def _calls(messages):
    return [(c["function"]["name"], c["function"]["arguments"])
            for m in messages for c in (m.get("tool_calls") or ())]


def test_rows_round_trip_through_disk_unchanged(train_tasks, tmp_path):
    from toolmaze_gym.training import sft_data

    env, reward = _episode(train_tasks[1], "P2")
    wire = env.messages  # the env's own transcript (arguments as JSON text)
    row = episode_row(env, reward)
    sft_data.save(sft_data.to_dataset([row]), tmp_path / "d", {"n": 1})
    back = sft_data.load(tmp_path / "d")[0]
    assert back["messages"] == row["messages"] and back["tools"] == env.tools
    # every call's arguments re-encode to the env's exact wire text, key order included
    wire_args = [c["function"]["arguments"] for m in wire for c in (m.get("tool_calls") or ())]
    assert sft_data.wire_arguments(back["messages"])[:len(wire_args)] == wire_args
    tool_results = [m["content"] for m in wire if m["role"] == "tool"]
    assert [m["content"] for m in back["messages"] if m["role"] == "tool"] == tool_results


def test_the_ending_is_a_structured_call_with_the_agents_words(train_tasks):
    env, reward = _episode(train_tasks[0], "P0", "standard")
    raw = json.loads(env.messages[-1]["content"])  # the env echoes the raw ending text
    row = episode_row(env, reward)
    assert row["messages"][-1]["tool_calls"][0]["function"] == raw
    assert row["messages"][:-1] == env.template_messages[:-1]


def test_transient_errors_are_retried_permanent_ones_rerouted_at_once(train_tasks):
    for task in train_tasks:
        env, _ = _episode(task, "P2")
        record = env.record()
        errors = [k for k, s in enumerate(record["steps"]) if s["status"] and s["status"] >= 400]
        if not errors or record["grade"]["ended_by"] != "finish":
            continue
        k = errors[0]
        # a 403/404/410/501 is not retried: the next call goes to another tool
        assert record["steps"][k + 1]["action"]["name"] != record["steps"][k]["action"]["name"]
        assert "retry_loop" not in record["grade"]["labels"] and record["grade"]["success"]
        break
    else:
        pytest.fail("no rerouted explicit-permanent episode among the tasks")
    env, _ = _episode(train_tasks[0], "P1")
    steps = env.record()["steps"]
    k = next(k for k, s in enumerate(steps) if s["status"] and s["status"] >= 400)
    assert steps[k + 1]["action"] == steps[k]["action"]  # 429/503/504: the same call again


def test_a_dead_end_is_an_honest_abort_naming_the_tool(train_tasks):
    for task in train_tasks:
        for mode in ("P2", "P4"):
            env, _ = _episode(task, mode)
            grade = env.record()["grade"]
            if grade["ended_by"] == "abort":
                reason = json.loads(env.messages[-1]["content"])["arguments"]["reason"]
                failed = env.record()["steps"][-2]["action"]["name"]
                assert reason.startswith(failed) and "no other available tool" in reason
                assert grade["success"] and "graceful_stop" in grade["labels"]
                return
    pytest.fail("no dead end among the tasks")


def test_only_clean_successes_are_kept(sim, train_tasks):
    from toolmaze_gym.agents import make_scripted
    from toolmaze_gym.rollout import rollout

    validator = rollout(train_tasks[1], "P2", make_scripted("validator", sim), sim)["grade"]
    assert validator["success"] and "retry_loop" in validator["labels"]
    assert not keep(validator)  # a success, but three retries of a 403 teach looping
    env, _ = _episode(train_tasks[1], "P2")
    assert keep(env.record()["grade"])
    assert not keep({**env.record()["grade"], "success": False})


def test_both_prompts_under_faults_the_standard_one_without():
    assert episode_prompts("P0") == ("standard",)
    assert episode_prompts("P3") == ("standard", "failure_aware")


def test_cli_writes_a_dataset_and_refuses_bad_input(tmp_path, capsys):
    from toolmaze_gym.cli import main
    from toolmaze_gym.training import sft_data

    out = tmp_path / "sft"
    assert main(["sft-data", "--n", "1", "--levels", "C1", "--modes", "P0,P1",
                 "--out", str(out)]) == 0
    ds = sft_data.load(out)
    assert len(ds) == 3 and set(ds["mode"]) == {"P0", "P1"}
    assert json.loads((out / "build.json").read_text())["kept"] == 3
    assert main(["sft-data", "--n", "1", "--out", str(out)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert main(["sft-data", "--n", "1", "--modes", "P7", "--out", str(tmp_path / "x")]) == 2
    assert "--modes 'P7'" in capsys.readouterr().err


def test_a_task_that_cannot_carry_a_modes_fault_is_skipped_and_counted(train_tasks,
                                                                      monkeypatch):
    """A generated task with no slot for an implicit fault is left out of that mode's
    data (and said so in build.json) instead of stopping the whole build."""
    from toolmaze_gym.faults import ProfileError
    from toolmaze_gym.training import sft_data

    real = sft_data.play

    def play_or_refuse(env, agent, task, mode):
        if mode == "P3":
            raise ProfileError(f"{task.id}: no node on s* can carry an implicit fault")
        return real(env, agent, task, mode)

    monkeypatch.setattr(sft_data, "play", play_or_refuse)
    stats = sft_data.BuildStats()
    rows = list(sft_data.expert_rows(train_tasks[:1], ["P0", "P3"], stats))
    assert rows and {r["mode"] for r in rows} == {"P0"}
    level = train_tasks[0].level
    assert stats.dropped == {f"{level}P3:no_fault_slot": 2}
