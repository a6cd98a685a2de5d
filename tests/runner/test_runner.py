"""The runner: selection, shards, resume after a hard kill, and the guards that cut
episodes (loop, context overflow, policy errors) without stopping the run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.runner._policies import (
    Failing,
    FailingNamed,
    Greedy,
    Looping,
    Overflowing,
    Slow,
)
from toolmaze_gym.runner import (
    RunConfig,
    RunError,
    Selection,
    cycling,
    read_records,
    record_key,
    run,
    select,
    shard,
)

ROOT = Path(__file__).resolve().parents[2]
SMALL = Selection(levels=["C1", "C2"], limit=3)  # 2 levels x 3 tasks x 5 modes = 30


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def _comparable(records: list[dict]) -> dict[str, dict]:
    """Records by key, without the wall time (the only field that varies between runs)."""
    return {record_key(r): {k: v for k, v in r.items() if k != "wall_s"} for r in records}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("ref")
    run(RunConfig("oracle", selection=SMALL), out, progress=False)
    return _comparable(_lines(out / "records.jsonl"))


# ---------------------------------------------------------------- selection


def test_limit_samples_the_same_tasks_in_every_mode_and_covers_every_cell():
    specs = select(Selection(limit=2, prompts=["standard", "failure_aware"]))
    cells = {(s.level, s.mode) for s in specs}
    assert len(cells) == 20
    for level in ("C1", "C2", "C3", "C4"):
        per_mode = {m: {s.task_id for s in specs if s.level == level and s.mode == m}
                    for m in ("P0", "P1", "P2", "P3", "P4")}
        assert all(len(v) == 2 for v in per_mode.values())
        assert len({frozenset(v) for v in per_mode.values()}) == 1


def test_np_runs_once_with_the_standard_prompt_whatever_the_prompts():
    specs = select(Selection(levels=["C1"], limit=1, prompts=["standard", "failure_aware"]))
    assert [s.prompt for s in specs if s.mode == "P0"] == ["standard"]
    assert sorted(s.prompt for s in specs if s.mode == "P3") == ["failure_aware", "standard"]
    only_hint = select(Selection(levels=["C1"], limit=1, prompts=["failure_aware"]))
    assert {s.prompt for s in only_hint if s.mode == "P0"} == {"standard"}
    assert {s.prompt for s in only_hint if s.mode != "P0"} == {"failure_aware"}


def test_sample_seed_changes_the_sample_and_repeats_multiply_it():
    a = {s.task_id for s in select(Selection(levels=["C3"], limit=3, sample_seed=0))}
    b = {s.task_id for s in select(Selection(levels=["C3"], limit=3, sample_seed=1))}
    assert a != b
    rep = select(Selection(levels=["C3"], limit=3, repeats=3))
    assert {s.repeat for s in rep} == {0, 1, 2} and len(rep) == 3 * 3 * 5


def test_shards_are_disjoint_and_cover_the_selection():
    specs = select(SMALL)
    parts = [shard(specs, i, 4) for i in range(4)]
    keys = [s.key for p in parts for s in p]
    assert sorted(keys) == sorted(s.key for s in specs) and len(set(keys)) == len(keys)


@pytest.mark.parametrize("sel, message", [
    (Selection(levels=["C9"]), "unknown level 'C9'"),
    (Selection(modes=["P7"]), "P7"),
    (Selection(prompts=["clever"]), "unknown prompt 'clever'"),
    (Selection(limit=0), "--limit"),
    (Selection(repeats=0), "--repeats"),
    (Selection(task_ids=["nope"]), "no task 'nope'"),
])
def test_bad_selections_are_refused_with_the_reason(sel, message):
    with pytest.raises(RunError, match=message):
        select(sel)


# ---------------------------------------------------------------- records, resume, shards


def test_a_run_killed_mid_way_and_resumed_equals_an_uninterrupted_run(tmp_path, reference):
    out = tmp_path / "run"
    script = ("import sys\nfrom tests.runner._policies import Slow\n"
              "from toolmaze_gym.runner import RunConfig, Selection, run\n"
              "run(RunConfig('oracle', selection=Selection(levels=['C1','C2'], limit=3)), "
              "sys.argv[1], progress=False, policy=Slow(0.02))\n")
    proc = subprocess.Popen([sys.executable, "-c", script, str(out)], cwd=ROOT)
    path = out / "records.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= 6:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = path.read_bytes().count(b"\n")
    assert 6 <= before < len(reference)

    summary = run(RunConfig("oracle", selection=SMALL), out, resume=True, progress=False)
    assert summary.skipped == before and summary.episodes == len(reference) - before
    lines = _lines(path)
    assert len(lines) == len(reference)  # nothing lost, nothing repeated
    assert _comparable(lines) == reference


def test_a_line_cut_short_by_a_kill_is_dropped_and_its_episode_rerun(tmp_path, reference):
    out = tmp_path / "run"
    run(RunConfig("oracle", selection=SMALL), out, progress=False)
    path = out / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:10]) + lines[10][:57])  # a torn write
    summary = run(RunConfig("oracle", selection=SMALL), out, resume=True, progress=False)
    assert summary.skipped == 10
    assert _comparable(_lines(path)) == reference


def test_shards_from_several_machines_fill_one_run_directory(tmp_path, reference):
    out = tmp_path / "run"
    for i in range(3):
        run(RunConfig("oracle", selection=SMALL, shard=(i, 3)), out, progress=False)
    assert sorted(p.name for p in out.glob("records*.jsonl")) == [
        f"records.shard-{i}-of-3.jsonl" for i in range(3)]
    assert _comparable(read_records(out)) == reference


def test_batched_episodes_give_the_same_records(tmp_path, reference):
    run(RunConfig("oracle", selection=SMALL, batch=7), tmp_path, progress=False)
    assert _comparable(read_records(tmp_path)) == reference


def test_records_carry_the_runner_fields(tmp_path):
    cfg = RunConfig("oracle", label="my-oracle", selection=Selection(levels=["C1"], limit=1,
                                                                      modes=["P1"]))
    run(cfg, tmp_path, progress=False)
    (rec,) = _lines(tmp_path / "records.jsonl")
    assert rec["agent"] == "my-oracle" and rec["prompt"] == "standard" and rec["repeat"] == 0
    assert rec["key"] == record_key(rec) and rec["usage"]["turns"] == len(rec["steps"])
    assert "raw" not in rec  # the raw texts live in the steps, once
    assert rec["wall_s"] >= 0 and rec["truncated"] is False and "success" in rec["grade"]
    config = json.loads((tmp_path / "run.json").read_text())
    assert config["agent"] == "oracle" and config["limit"] == 1 and config["episodes"] == 1


def test_a_directory_with_records_needs_resume_and_the_same_configuration(tmp_path):
    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    run(RunConfig("oracle", selection=sel), tmp_path, progress=False)
    with pytest.raises(RunError, match="--resume"):
        run(RunConfig("oracle", selection=sel), tmp_path, progress=False)
    with pytest.raises(RunError, match="another agent"):
        run(RunConfig("naive", selection=sel), tmp_path, resume=True, progress=False)
    with pytest.raises(RunError, match="another limit"):
        run(RunConfig("oracle", selection=Selection(levels=["C1"], limit=2, modes=["P0"])),
            tmp_path, resume=True, progress=False)


def test_greedy_policies_answer_a_repeated_conversation_once(tmp_path):
    sel = Selection(levels=["C2"], limit=1)  # one task in five modes
    shared, plain = Greedy(), Greedy()
    run(RunConfig("oracle", selection=sel), tmp_path / "shared", progress=False, policy=shared)
    run(RunConfig("oracle", selection=sel, share_turns=False), tmp_path / "plain",
        progress=False, policy=plain)
    a, b = read_records(tmp_path / "shared"), read_records(tmp_path / "plain")
    assert sum(r["usage"]["shared_turns"] for r in a) >= 4 * 5  # until the faults differ
    assert shared.answered + sum(r["usage"]["shared_turns"] for r in a) == plain.answered
    for rec in a:
        rec["usage"]["shared_turns"] = 0
    assert _comparable(a) == _comparable(b)
    assert all("raw" not in r for r in a)  # the raw texts live in the steps, once


def _by_repeat(records: list[dict]) -> dict[tuple[str, str], dict[int, list[str]]]:
    out: dict[tuple[str, str], dict[int, list[str]]] = {}
    for r in records:
        out.setdefault((r["task_id"], r["mode"]), {})[r["repeat"]] = [s["raw"] for s in r["steps"]]
    return out


def test_repeats_of_a_sampling_agent_differ_and_a_rerun_reproduces_them(tmp_path):
    """pass^k needs k real tries: each repeat of the random agent plays its own
    trajectory, and the same seed gives the same k trajectories again."""
    sel = Selection(levels=["C2"], limit=3, modes=["P0", "P3"], repeats=2)
    cfg = RunConfig("random", agent_options={"seed": 11}, selection=sel)
    run(cfg, tmp_path / "a", progress=False)
    run(cfg, tmp_path / "b", progress=False)
    a = read_records(tmp_path / "a")
    assert len(a) == 3 * 2 * 2
    assert all(raws[0] != raws[1] for raws in _by_repeat(a).values())
    assert _comparable(a) == _comparable(read_records(tmp_path / "b"))
    greedy = RunConfig("oracle", selection=sel)  # a greedy agent repeats itself exactly
    run(greedy, tmp_path / "oracle", progress=False)
    assert all(raws[0] == raws[1]
               for raws in _by_repeat(read_records(tmp_path / "oracle")).values())


# ---------------------------------------------------------------- guards


def _plain_run(out: Path, sel: Selection) -> dict[str, dict]:
    run(RunConfig("oracle", selection=sel), out, progress=False)
    return {r["task_id"]: r for r in read_records(out)}


def test_a_looping_agent_is_cut_after_the_guard(tmp_path):
    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    run(RunConfig("oracle", selection=sel, loop_guard=3), tmp_path, progress=False,
        policy=Looping())
    (rec,) = read_records(tmp_path)
    assert rec["cut"] == "loop" and len(rec["steps"]) == 3
    assert rec["grade"]["success"] is False


def test_context_overflow_cuts_only_the_episodes_named(tmp_path):
    sel = Selection(levels=["C1"], limit=2, modes=["P0"])
    victim = select(sel)[0].task_id
    run(RunConfig("oracle", selection=sel, batch=2), tmp_path, progress=False,
        policy=Overflowing(victim))
    by_task = {r["task_id"]: r for r in read_records(tmp_path)}
    assert by_task[victim]["cut"] == "context" and "8192" in by_task[victim]["cut_detail"]
    assert len(by_task[victim]["steps"]) == 1  # cut before its second action
    plain = _plain_run(tmp_path / "plain", sel)
    assert {t: _comparable([r]) for t, r in by_task.items() if t != victim} == \
        {t: _comparable([r]) for t, r in plain.items() if t != victim}


def test_a_policy_error_cuts_its_episode_and_the_run_goes_on(tmp_path):
    sel = Selection(levels=["C1"], limit=3, modes=["P0"])
    victim = select(sel)[1].task_id
    summary = run(RunConfig("oracle", selection=sel, batch=3), tmp_path, progress=False,
                  policy=Failing(victim))
    by_task = {r["task_id"]: r for r in read_records(tmp_path)}
    assert by_task[victim]["cut"] == "error"
    assert "endpoint exploded" in by_task[victim]["cut_detail"]
    assert by_task[victim]["steps"] == [] and by_task[victim]["grade"]["success"] is False
    plain = _plain_run(tmp_path / "plain", sel)
    assert {t: _comparable([r]) for t, r in by_task.items() if t != victim} == \
        {t: _comparable([r]) for t, r in plain.items() if t != victim}
    assert summary.cuts == {"error": 1}


def test_a_failure_naming_its_turns_cuts_only_those(tmp_path):
    sel = Selection(levels=["C1"], limit=3, modes=["P0"])
    victim = select(sel)[2].task_id
    policy = FailingNamed(victim)
    run(RunConfig("oracle", selection=sel, batch=3), tmp_path, progress=False, policy=policy)
    recs = {r["task_id"]: r for r in read_records(tmp_path)}
    assert recs[victim]["cut"] == "error" and "no reply for" in recs[victim]["cut_detail"]
    assert [t for t, r in recs.items() if r.get("cut")] == [victim]
    longest = max(len(r["steps"]) for t, r in recs.items() if t != victim)
    assert policy.calls == longest + 1  # one retry of the batch, never turn by turn


def test_a_policy_that_keeps_failing_stops_the_run_and_resume_retries(tmp_path):
    sel = Selection(levels=["C1"], limit=4, modes=["P0", "P1"])
    with pytest.raises(RunError, match="5 episodes in a row"):
        run(RunConfig("oracle", selection=sel), tmp_path, progress=False,
            policy=Failing(None))
    assert len(read_records(tmp_path)) == 5
    summary = run(RunConfig("oracle", selection=sel), tmp_path, resume=True, progress=False,
                  policy=Slow(0))
    assert summary.skipped == 0 and summary.episodes == 8
    recs = read_records(tmp_path)
    assert len(recs) == 8 and not any(r.get("cut") for r in recs)


class Alternating(Looping):
    """Goes round two failing calls, A, B, A, B, ... (what a fine-tuned model did)."""

    def act_many(self, turns):
        return [f'{{"name": "no_such_tool_{len(msgs) % 4 // 2}", "arguments": {{}}}}'
                for _, msgs in turns]


def test_an_agent_alternating_two_calls_is_cut_as_a_loop(tmp_path):
    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    run(RunConfig("oracle", selection=sel, loop_guard=4), tmp_path, progress=False,
        policy=Alternating())
    (rec,) = read_records(tmp_path)
    assert rec["cut"] == "loop" and len(rec["steps"]) == 4


@pytest.mark.parametrize(("turns", "window", "loop"), [
    (list("AAAA"), 4, True), (list("ABAB"), 4, True), (list("xABCABCAB"), 8, True),
    (list("ABCD"), 4, False), (list("AAAB"), 4, False), (list("ABA"), 4, False),
    (list("ABCABCAB"), 4, False),  # a cycle of 3 needs a window of 6 or more
    (list("AAAA"), 0, False), (list("ABCDABCD"), 8, True), (list("ABCDEABCDE"), 8, False),
])
def test_cycling_rule(turns, window, loop):
    assert cycling(turns, window) is loop


def test_a_retry_whose_answer_changes_is_not_a_loop():
    call = '{"name": "get_ticket", "arguments": {"id": "T1"}}'
    assert not cycling([(call, "503"), (call, "503"), (call, "{}")], 3)
    assert cycling([(call, "{}")] * 3, 3)
