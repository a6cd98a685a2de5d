"""``toolmaze play``, the grader and a record's replay see a task's own world edition:
an old suite's episode, typed from the old world's responses, is graded on them; the
same actions on a task of no shipped suite meet the latest world and fail."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from toolmaze_gym.cli import main
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.report.replay import replay_mismatch
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.world.edition import LATEST

# A careful v4 player's episode: Delhi's forecast high of 33.0 C (edition 1) typed into
# the eco setpoint, the notification and the closing summary.
PLAYED = Path(__file__).parent.parent / "data" / "played" / "v4" / "tmz-v4-c4-0043-P0.actions"
TASK = "tmz-v4-c4-0043"


def _play(capsys, *flags: str) -> tuple[int, str]:
    code = main(["play", "--actions", str(PLAYED), *flags])
    return code, capsys.readouterr().out


def test_an_old_suites_episode_is_played_and_graded_on_its_world(capsys, tmp_path):
    record = tmp_path / "r.jsonl"
    code, out = _play(capsys, "--task", TASK, "--record", str(record))
    assert '"high_c": 33.0' in out and '"high_c": 32.5' not in out
    assert code == 0 and "grade: SUCCESS" in out.split("[grade]", 1)[1]
    # the record replays as played (what regrade and the runs' checks ask)
    rec = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    task = get_task(TASK)
    sim = Simulator()
    assert replay_mismatch(task, profile_for(task, "P0", sim), rec["steps"], sim) is None


def test_the_same_actions_on_a_task_of_no_shipped_suite_meet_the_latest_world(capsys,
                                                                               tmp_path):
    custom = dataclasses.replace(get_task(TASK), id="my-c4-0043")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(custom.to_json() + "\n", encoding="utf-8")
    code, out = _play(capsys, "--tasks", str(tasks), "--task", custom.id)
    assert '"high_c": 32.5' in out and '"high_c": 33.0' not in out
    assert code == 1 and "grade: FAILURE" in out.split("[grade]", 1)[1]


def test_a_scripted_agent_checks_what_it_reads_against_its_tasks_world():
    """The validator reads each response against the world (a forecast within the
    city's band) and the variant sweep dry-runs calls: both on the task's edition, the
    one its episode answers from, whichever task it played before."""
    from toolmaze_gym.envs import ToolMazeEnv

    from toolmaze_gym.agents import make_scripted

    old = get_task(TASK)
    custom = dataclasses.replace(old, id="my-c4-0043")
    env = ToolMazeEnv(level="C4", mode="P0")
    agent = make_scripted("validator", env.sim)
    for task, edition in ((old, 1), (custom, LATEST), (old, 1)):
        _, info = env.reset(options={"task": task})
        agent.reset(task, info["tools"], "P0")
        assert agent.sim.world.edition == env.episode.sim.world.edition == edition
        assert agent.sim is env.episode.sim
