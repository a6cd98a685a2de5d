"""The runner survives anything a model returns: text with lone surrogates is played
and recorded as valid UTF-8 JSON, a reply that is not text cuts only its episode (with
the reason), and a policy whose bookkeeping raises does not stop the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner._policies import FinishRaises, OddUsage, Replying, StartRaises
from toolmaze_gym.runner import RunConfig, Selection, read_records, run, select

SEL = Selection(levels=["C1"], limit=3, modes=["P0"])


def _strict_records(path: Path) -> list[dict]:
    """The records of a file read as strict UTF-8, each string encodable again."""
    recs = [json.loads(line) for line in path.read_bytes().decode("utf-8").splitlines()]
    for rec in recs:
        json.dumps(rec, ensure_ascii=False).encode("utf-8")  # no lone surrogate inside
    return recs


@pytest.mark.parametrize("reply", [
    "\ud800",
    '{"name": "finish", "arguments": {"answer": "\udfff"}}',
    '{"name": "finish", "arguments": {"answer": "\\ud800"}}',  # a JSON escape of one
    "<tool_call>\ud83d\ude00</tool_call>",  # a pair kept apart: joined, not replaced
])
def test_a_reply_with_lone_surrogates_is_played_and_recorded_as_valid_utf8(tmp_path, reply):
    victim = select(SEL)[1].task_id
    summary = run(RunConfig("oracle", selection=SEL, batch=3), tmp_path, progress=False,
                  policy=Replying(reply, victim))
    assert summary.episodes == 3
    recs = {r["task_id"]: r for r in _strict_records(tmp_path / "records.jsonl")}
    assert len(recs[victim]["steps"]) >= 1  # the env answered it: an episode, not a crash
    assert "cut" not in recs[victim] or recs[victim]["cut"] == "loop"
    assert all(r["grade"]["success"] for t, r in recs.items() if t != victim)


def test_a_surrogate_pair_is_recorded_as_the_character_it_encodes(tmp_path):
    run(RunConfig("oracle", selection=Selection(levels=["C1"], limit=1, modes=["P0"])),
        tmp_path, progress=False, policy=Replying("I am done \ud83d\ude00"))
    (rec,) = _strict_records(tmp_path / "records.jsonl")
    assert rec["steps"][-1]["raw"] == "I am done \U0001f600"


@pytest.mark.parametrize("reply", [None, 42, {"name": "finish"}, b"bytes"])
def test_a_reply_that_is_not_text_cuts_its_episode_and_the_run_goes_on(tmp_path, reply):
    victim = select(SEL)[0].task_id
    # loop guard off: a reply the pool takes for "no action" must not spin for ever
    summary = run(RunConfig("oracle", selection=SEL, loop_guard=0), tmp_path, progress=False,
                  policy=Replying(reply, victim))
    recs = {r["task_id"]: r for r in read_records(tmp_path)}
    assert recs[victim]["cut"] == "error"
    assert f"returned {type(reply).__name__}, not text" in recs[victim]["cut_detail"]
    assert summary.episodes == 3 and summary.cuts == {"error": 1}
    assert all(r["grade"]["success"] for t, r in recs.items() if t != victim)


@pytest.mark.parametrize("policy", [FinishRaises, OddUsage])
def test_a_policy_whose_bookkeeping_fails_does_not_stop_the_run(tmp_path, policy):
    summary = run(RunConfig("oracle", selection=SEL), tmp_path, progress=False,
                  policy=policy())
    recs = read_records(tmp_path)
    assert summary.episodes == 3 and len(recs) == 3
    assert all(r["grade"]["success"] for r in recs)  # the episodes themselves were fine
    assert all(r["usage"]["prompt_tokens"] == 0 for r in recs)  # only the usage is lost


def test_a_policy_that_cannot_start_an_episode_cuts_only_that_one(tmp_path):
    victim = select(SEL)[2].task_id
    summary = run(RunConfig("oracle", selection=SEL, batch=2), tmp_path, progress=False,
                  policy=StartRaises(victim))
    recs = {r["task_id"]: r for r in read_records(tmp_path)}
    assert recs[victim]["cut"] == "error" and recs[victim]["steps"] == []
    assert "ValueError: cannot render these tools" in recs[victim]["cut_detail"]
    assert summary.episodes == 3
    assert all(r["grade"]["success"] for t, r in recs.items() if t != victim)
