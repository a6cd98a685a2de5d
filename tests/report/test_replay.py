"""``toolmaze grade`` and ``toolmaze report`` replay each record's actions against
its task and mode: a record whose statuses or fault events the replay does not give
back is named, counted and scored a failure, and honest records of every mode pass.

Issue 29 item 3: clean P0 records relabelled P2/P4 graded "success, not exposed" with
no warning, and fault events naming a victim that does not exist were accepted.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from toolmaze_gym.cli import main
from toolmaze_gym.report import build_report, load_graded
from toolmaze_gym.report.replay import replay_mismatch

REPLAY = "records disagreed with a replay of their actions"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture()
def run_copy(run_dirs, tmp_path) -> Path:
    """A private copy of the validator run (C1 and C3, every mode, both prompts)."""
    return Path(shutil.copytree(run_dirs["validator"], tmp_path / "validator"))


def _grade(capsys, path: Path, tmp_path: Path) -> tuple[str, list[dict[str, Any]]]:
    """``toolmaze grade``'s last line and the records it wrote with ``--out``."""
    out = tmp_path / "graded.jsonl"
    assert main(["grade", str(path), "--json", "--out", str(out)]) == 0
    return capsys.readouterr().err, _lines(out)


def test_honest_records_of_every_mode_replay_as_recorded(run_dirs, capsys, tmp_path):
    for agent, path in run_dirs.items():
        modes = {r["mode"] for r in _lines(path / "records.jsonl")}
        assert modes == {"P0", "P1", "P2", "P3", "P4"}, agent
        err, graded = _grade(capsys, path, tmp_path)
        assert f"0 of {len(graded)} {REPLAY}" in err, err
        assert not any("replay" in r for r in graded)


@pytest.mark.parametrize("mode", ["P2", "P4"])
def test_a_clean_record_relabelled_as_a_fault_mode_is_flagged(run_copy, capsys, tmp_path,
                                                              mode):
    """A P0 success relabelled P2/P4 would grade "success, not exposed": a C1 episode
    of a permanent fault that never met it, which cannot happen."""
    path = run_copy / "records.jsonl"
    records = _lines(path)
    clean = [r for r in records if r["mode"] == "P0" and r["grade"]["success"]]
    assert clean
    for r in clean:
        r["mode"] = mode
        r["prompt"] = "standard"
        r["repeat"] = 7  # its own episode key beside the honest record of that mode
    _write(path, records)
    err, graded = _grade(capsys, path, tmp_path)
    assert f"{len(clean)} of {len(records)} {REPLAY}" in err, err
    assert f"{path}:" in err and ("on replay" in err or "replay fires one" in err)
    flagged = [r for r in graded if r.get("repeat") == 7]
    assert len(flagged) == len(clean)
    assert all("replay" in r and not r["grade"]["success"] for r in flagged)
    assert all(r["grade"]["exposed"] and not r["grade"]["recovered"] for r in flagged)


def test_a_fault_event_naming_an_invented_victim_is_flagged(run_copy, capsys, tmp_path):
    path = run_copy / "records.jsonl"
    records = _lines(path)
    rec = next(r for r in records if any(s["fault"] for s in r["steps"]))
    next(s for s in rec["steps"] if s["fault"])["fault"]["victim"] = 7
    _write(path, records)
    err, _ = _grade(capsys, path, tmp_path)
    assert f"1 of {len(records)} {REPLAY}" in err, err
    assert "naming victim 7" in err


def test_a_tampered_response_status_is_flagged(run_copy, capsys, tmp_path):
    """A P1 record whose explicit fault is rewritten as a clean 200 (status and event)."""
    path = run_copy / "records.jsonl"
    records = _lines(path)
    rec = next(r for r in records if r["mode"] == "P1"
               and any(s["fault"] for s in r["steps"]))
    step = next(s for s in rec["steps"] if s["fault"])
    step.update(status=200, fault=None)
    _write(path, records)
    err, _ = _grade(capsys, path, tmp_path)
    assert f"1 of {len(records)} {REPLAY}" in err, err
    assert "recorded, " in err and "on replay" in err


def test_a_tampered_response_body_is_flagged(run_copy):
    path = run_copy / "records.jsonl"
    records = _lines(path)
    # the first clean response that holds a "0" (one without would not change)
    step = next(s for r in records for s in r["steps"]
                if s["status"] == 200 and "0" in s["observation"])
    tampered = step["observation"].replace("0", "1", 1)
    assert tampered != step["observation"]
    step["observation"] = tampered
    _write(path, records)
    _, graded = load_graded([run_copy])
    assert len(graded.unreplayable) == 1
    assert "the recorded response differs" in graded.unreplayable[0][1]


def test_a_step_after_the_ending_is_flagged(run_copy):
    path = run_copy / "records.jsonl"
    records = _lines(path)
    rec = records[0]
    rec["steps"].append(dict(rec["steps"][-1]))
    _write(path, records)
    _, graded = load_graded([run_copy])
    assert [what for _, what in graded.unreplayable] == \
        [f"step {len(rec['steps'])}: recorded after the episode ended"]


def test_flagged_records_cannot_raise_a_figure(run_copy, tmp_path, capsys):
    """Relabelled successes are scored failures in the report: TSR of the fault modes
    can only go down, and the header warns with the count."""
    honest = build_report([run_copy], tmp_path / "honest", resamples=0, plots=False,
                          viewer=False)
    path = run_copy / "records.jsonl"
    records = _lines(path)
    for r in records:
        if r["mode"] == "P0":
            records.append({**r, "mode": "P2", "prompt": "standard", "repeat": 5})
    _write(path, records)
    argv = ["report", str(run_copy), "--out", str(tmp_path / "rep"), "--quiet",
            "--no-plots", "--no-viewer", "--resamples", "0"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"warning: {sum(r.get('repeat') == 5 for r in records)} of {len(records)} " \
        f"{REPLAY}" in err, err
    text = (tmp_path / "rep" / "results.md").read_text()
    assert "**Warning:**" in text and REPLAY in text
    _, graded = load_graded([run_copy])
    p2 = [r for r in graded.records if r["mode"] == "P2" and r.get("repeat") == 5]
    assert p2 and not any(r["grade"]["success"] for r in p2)
    assert honest.regrade.unreplayable == []


def test_the_replay_is_the_env_s_own_rules(records, sim):
    """``replay_mismatch`` over every honest record of the shared runs: none differ
    (an unshown tool's 404 and a broken call's 400 included)."""
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.tasks.suite import get_task

    n = 0
    for recs in records.values():
        for r in recs:
            task = get_task(r["task_id"])
            assert replay_mismatch(task, profile_for(task, r["mode"], sim), r["steps"],
                                   sim) is None, (r["task_id"], r["mode"])
            n += 1
    assert n > 0


def test_text_a_run_cleaned_on_writing_still_replays(sim):
    """Runs write a lone surrogate as U+FFFD and a token-shaped secret as [REDACTED]:
    an honest record whose first call held both (the env refused it with a 422) is
    not flagged, though its stored arguments are no longer what the agent sent."""
    from toolmaze_gym.agents.scripted import OracleAgent
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.redact import Redactor
    from toolmaze_gym.rollout import rollout
    from toolmaze_gym.runner import to_json
    from toolmaze_gym.tasks.suite import load_suite

    class Garbled(OracleAgent):
        sent = 0

        def act(self, messages: list[dict[str, Any]]) -> str:
            call = json.loads(super().act(messages))
            self.sent += 1
            if self.sent == 1:
                call["arguments"] = {k: f"{v}\ud800 sk-abcdefghijklmnopqrstuvwx"
                                     if isinstance(v, str) else v
                                     for k, v in call["arguments"].items()}
            return json.dumps(call)

    for task in load_suite()[::80]:
        rec = rollout(task, "P3", Garbled(sim), sim)
        assert rec["steps"][0]["status"] == 422
        stored = json.loads(to_json(rec, Redactor()))
        assert "\ufffd" in json.dumps(stored["steps"][0]["action"], ensure_ascii=False)
        assert replay_mismatch(task, profile_for(task, "P3", sim), stored["steps"],
                               sim) is None, task.id
