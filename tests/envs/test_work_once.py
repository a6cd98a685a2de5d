"""Work the env does once instead of per step or per reset (issue 32), with the same
results: an episode is graded once however often its record is asked for, a reset
finds a task's suite without listing the suite folders, the clock line is formatted
once per clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from toolmaze_gym.envs import ToolMazeEnv

import toolmaze_gym.grading
from toolmaze_gym.agents import make_scripted
from toolmaze_gym.prompts import clock_line, system_prompt
from toolmaze_gym.tasks import suite as suite_mod
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite, shipped_suites, suite_of


@pytest.fixture
def grades(monkeypatch):
    """Counts the grader's runs (the real grader still grades)."""
    real = toolmaze_gym.grading.grade
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(toolmaze_gym.grading, "grade", counted)
    return calls


def _play_to_end(env: ToolMazeEnv, task_id: str, mode: str) -> dict:
    _, info = env.reset(options={"task_id": task_id, "mode": mode})
    agent = make_scripted("oracle", env.sim)
    agent.reset(env.episode.task, info["tools"], mode)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(agent.act(env.messages))
        done = terminated or truncated
    return info


def test_the_record_after_the_last_step_reuses_its_grade(grades):
    env = ToolMazeEnv("C3", "P4")
    task = load_suite(SUITE_NAME, ["C3"])[5]
    info = _play_to_end(env, task.id, "P4")
    assert len(grades) == 1  # the last step graded the episode
    # a trainer, a server session or a pool then asks for the record, more than once
    assert env.record()["grade"] == info["grade"] == env.record("oracle")["grade"]
    assert len(grades) == 1


def test_a_changed_episode_is_graded_again(grades):
    env = ToolMazeEnv("C1", "P0")
    task = load_suite(SUITE_NAME, ["C1"])[0]
    _, info = env.reset(options={"task_id": task.id})
    agent = make_scripted("oracle", env.sim)
    agent.reset(task, info["tools"], "P0")
    env.step(agent.act(env.messages))
    running = env.record()["grade"]
    assert len(grades) == 1 and env.record()["grade"] == running and len(grades) == 1
    env.step(agent.act(env.messages))  # one more step: another trajectory
    after_step = env.record()
    assert len(grades) == 2 and len(after_step["steps"]) == 2
    cut = env.cut("context")  # same steps, now truncated: graded as a truncation
    assert len(grades) == 3 and env.record()["truncated"] is True
    assert cut["grade"] == env.record()["grade"] and len(grades) == 3
    # a step replaced in place (same count) is another trajectory too
    ep = env.episode
    ep.steps[0] = type(ep.steps[0]).from_dict(ep.steps[0].to_dict())
    env.record()
    assert len(grades) == 4


def test_suite_of_names_the_shipped_suite_of_every_id():
    shipped = shipped_suites()
    for name in shipped:
        first = load_suite(name, ["C1"])[0].id
        assert suite_of(first) == name
    assert suite_of("tmz-v16-c1-0000") is None and suite_of("no id at all") is None


def test_a_reset_lists_no_suite_folder(monkeypatch):
    env = ToolMazeEnv("C2", "P1")
    task = load_suite(SUITE_NAME, ["C2"])[3]
    env.reset(options={"task_id": task.id})

    def listing(*_):
        raise AssertionError("a reset listed the suite folders")

    monkeypatch.setattr(suite_mod, "shipped_suites", listing)
    _, info = env.reset(options={"task_id": task.id})
    assert info["task_id"] == task.id


def test_a_suite_added_after_a_miss_is_found(monkeypatch, tmp_path):
    monkeypatch.setattr(suite_mod, "_suites_dir", lambda: tmp_path)
    monkeypatch.setattr(suite_mod, "_SHIPPED", set())
    assert suite_of("tmz-v77-c1-0000") is None
    (tmp_path / "toolmaze-v77").mkdir()
    assert suite_of("tmz-v77-c1-0000") is None  # no manifest yet: not a suite
    (tmp_path / "toolmaze-v77" / "manifest.json").write_text(json.dumps({"files": {}}))
    assert suite_of("tmz-v77-c1-0000") == "toolmaze-v77"
    assert shipped_suites() == ["toolmaze-v77"]


def test_the_clock_line_of_equal_instants_in_two_zones_is_each_zones_own():
    utc = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
    paris = utc.astimezone(timezone(timedelta(hours=2)))
    assert utc == paris  # equal instants, printed differently
    for now in (utc, paris, utc, paris):
        assert system_prompt("standard", now).endswith(clock_line(now))
    assert clock_line(utc) != clock_line(paris)


def test_a_step_reads_its_own_kind_after_a_change():
    """``Step.kind`` and ``clean_ok`` are read once per step (the grader asks for them
    many times per episode); a step changed with ``dataclasses.replace`` (the grader
    reads a shown Action as the expected call it does) is a new step with its own."""
    from dataclasses import replace

    from toolmaze_gym.episode import Step

    call = Step('{"name": "t", "arguments": {}}', {"kind": "call", "name": "t",
                                                   "arguments": {}}, 200, "{}", None)
    assert (call.kind, call.clean_ok) == ("call", True)
    assert (call.kind, call.clean_ok) == ("call", True)  # read again: the same
    faulted = replace(call, fault={"victim": 0})
    failed = replace(call, status=404)
    ended = replace(call, action={"kind": "finish", "text": "done"}, status=None)
    assert [s.clean_ok for s in (faulted, failed, ended)] == [False, False, False]
    assert ended.kind == "finish" and call.kind == "call"
    assert Step.from_dict(call.to_dict()) == call
