"""The serving core plays the env's own episode: same observations, faults, errors,
grade; many sessions at once; idle ones expire; records read like eval runs."""

from __future__ import annotations

import json

import pytest

from tests.serving._episodes import comparable, in_process, oracle_calls
from toolmaze_gym.serving import EpisodeChoice, ServeError, ServeRecorder, Session, SessionStore
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX


def _play(store: SessionStore, sid: str, calls) -> list[dict]:
    return [store.call(sid, name, json.loads(args)) for name, args in calls]


def test_opening_gives_request_clock_and_only_the_tasks_tools():
    s = Session(EpisodeChoice(level="C2", mode="P2", seed=3))
    names = [t["function"]["name"] for t in s.tools]
    task = s.env.episode.task
    assert names == [*sorted(task.tools), "finish", "abort"]
    assert s.opening["request"] == task.query
    assert s.opening["clock"] == "2026-08-18T09:00:00Z"
    assert s.opening["clock"] in s.opening["system_prompt"].replace(" (UTC)", "")


def test_a_served_episode_is_the_envs_episode(tmp_path):
    calls = oracle_calls("C2", "P2", 3)
    store = SessionStore(ServeRecorder(tmp_path / "run"))
    sid, _ = store.open({"level": "C2", "mode": "P2", "seed": 3})
    results = _play(store, sid, calls)
    assert any(r["status"] and r["status"] >= 400 for r in results)  # the fault came back
    assert results[-1]["done"] and results[-1]["grade"]["success"]
    store.recorder.flush()
    rec = json.loads((tmp_path / "run" / "records.jsonl").read_text())
    ref = in_process("C2", "P2", 3, [(n, json.loads(a)) for n, a in calls])
    assert comparable(rec) == comparable(ref)
    assert results[-1]["grade"] == ref["grade"]


def test_unknown_tool_and_bad_arguments_are_the_envs_errors():
    store = SessionStore()
    sid, s = store.open({"level": "C1", "mode": "P0", "seed": 0})
    unknown = store.call(sid, "launch_rocket", {})
    assert unknown["status"] == 404 and "launch_rocket" in unknown["content"]
    tool = s.tools[0]["function"]["name"]
    assert store.call(sid, tool, {"nonsense_field": 1})["status"] in (400, 422)
    assert store.call(sid, tool, "not an object")["status"] == 400
    assert len(s.env.episode.steps) == 3  # every mistake is a recorded step, as in the env


def test_call_after_the_end_and_unknown_session_are_clear_errors():
    store = SessionStore()
    sid, _ = store.open({})
    store.call(sid, "abort", {"reason": "cannot"})
    with pytest.raises(ServeError, match="episode has ended") as info:
        store.call(sid, "finish", {"answer": "x"})
    assert info.value.body()["error"]["code"] == 409
    with pytest.raises(ServeError, match="unknown session") as info:
        store.call("f" * 32, "finish", {"answer": "x"})
    assert info.value.body()["error"]["code"] == 404


@pytest.mark.parametrize("given, words", [
    ({"level": "C9"}, "unknown level"), ({"mode": "P7"}, "P7"),
    ({"seed": -1}, "non-negative"), ({"task_id": "no-such-task"}, "no task"),
    ({"split": "test"}, "unknown split"), ({"colour": "red"}, "unknown episode option"),
    ({"prompt": "shouty"}, "unknown prompt")])
def test_bad_choices_get_one_line_errors(given, words):
    with pytest.raises(ServeError, match=words) as info:
        SessionStore().open(given)
    assert "\n" not in str(info.value)


def test_values_fixed_by_the_server_cannot_be_changed():
    store = SessionStore(base=EpisodeChoice(level="C3", mode="P4"),
                         fixed=frozenset({"mode"}))
    with pytest.raises(ServeError, match="fixes mode"):
        store.open({"mode": "P0"})
    _, s = store.open({"seed": 2})
    assert (s.opening["level"], s.opening["mode"]) == ("C3", "P4")


def test_sessions_are_independent_and_prompt_follows_eval():
    store = SessionStore()
    a, sa = store.open({"level": "C1", "mode": "P1", "seed": 0, "prompt": "failure_aware"})
    _, sb = store.open({"level": "C1", "mode": "P0", "seed": 0, "prompt": "failure_aware"})
    first = sa.tools[0]["function"]["name"]
    store.call(a, first, {})
    assert len(sa.env.episode.steps) == 1 and len(sb.env.episode.steps) == 0
    assert sa.env.sim is sb.env.sim  # only the read-only simulator is shared
    assert sb.opening["prompt"] == "standard"  # the hint only under a fault, as in eval


def test_idle_sessions_expire_and_are_recorded_as_cut(tmp_path):
    now = [0.0]
    store = SessionStore(ServeRecorder(tmp_path / "run"), idle_timeout=10,
                         clock=lambda: now[0])
    sid, s = store.open({"seed": 1})
    keep, _ = store.open({"seed": 2})
    store.call(sid, s.tools[0]["function"]["name"], {})
    now[0] = 8.0
    store.get(keep)
    now[0] = 12.0
    assert store.expire() == [sid] and len(store) == 1
    store.recorder.flush()
    rec = json.loads((tmp_path / "run" / "records.jsonl").read_text())
    assert rec["cut"] == "idle" and rec["truncated"] and not rec["grade"]["success"]


def test_capacity_is_a_clear_error():
    store = SessionStore(max_sessions=1)
    store.open({})
    with pytest.raises(ServeError, match="holds 1 sessions"):
        store.open({})


def test_repeats_keep_every_episode_of_one_task_and_report_reads_the_run(tmp_path):
    from toolmaze_gym.report.runs import load_rows

    rec = ServeRecorder(tmp_path / "run", agent="my-agent")
    store = SessionStore(rec)
    for _ in range(3):
        sid, _ = store.open({"level": "C1", "mode": "P0", "seed": 5})
        store.call(sid, "abort", {"reason": "no"})
    rec.close()
    again = ServeRecorder(tmp_path / "run", agent="my-agent")  # a restarted server appends
    store = SessionStore(again)
    sid, _ = store.open({"level": "C1", "mode": "P0", "seed": 5})
    store.call(sid, "abort", {"reason": "no"})
    again.close()
    rows = load_rows([tmp_path / "run"])
    assert [r.agent for r in rows] == ["my-agent"] and len(rows[0].records) == 4
    assert sorted(r["repeat"] for r in rows[0].records) == [0, 1, 2, 3]
    with pytest.raises(ServeError, match="another label"):
        ServeRecorder(tmp_path / "run", agent="someone-else")


def test_a_clients_own_task_is_played_and_kept_for_reports(tmp_path):
    from toolmaze_gym.faults.store import profiles_buildable
    from toolmaze_gym.report.runs import load_rows
    from toolmaze_gym.tasks.suites import generate_split

    task = next(iter(generate_split("train", 1, seed=7, check=profiles_buildable)))
    rec = ServeRecorder(tmp_path / "run")
    store = SessionStore(rec)
    sid, s = store.open({"task": task.to_json(), "mode": "P1"})
    assert s.opening["task_id"] == task.id and s.opening["request"] == task.query
    store.call(sid, "abort", {"reason": "no"})
    rec.close()
    (row,) = load_rows([tmp_path / "run"])
    assert [r["task_id"] for r in row.records] == [task.id]
    with pytest.raises(ServeError, match="not a valid ToolMaze task"):
        store.open({"task": '{"id": "x"}'})


def test_a_plain_reply_ends_like_prose_and_a_cut_like_a_truncation():
    store = SessionStore()
    _, s = store.open({"seed": 0})
    out = s.reply("I could not do it, the service failed.")
    assert out["done"] and s.env.episode.steps[-1].kind == "answer"
    _, t = store.open({"seed": 0})
    cut = t.cut("tool budget")
    assert cut["done"] and t.env.episode.truncated and not cut["grade"]["success"]
    with pytest.raises(ServeError, match="ended"):
        t.cut("again")


def test_sessions_that_choose_no_task_walk_the_level_in_order():
    store = SessionStore(base=EpisodeChoice(level="C3"))
    ids = [store.open({})[1].opening["task_id"] for _ in range(3)]
    assert ids == [f"{ID_PREFIX}-c3-000{k}" for k in range(3)]
    assert store.open({"seed": 0})[1].opening["task_id"] == ids[0]  # a choice is kept


def test_reward_inputs_price_a_repeated_call_as_a_local_run_does():
    """A remote trainer must not be paid for a loop that a local GRPO run penalises:
    the served reward inputs count the repeat and drop it from both call shares."""
    from toolmaze_gym.training.environment import named_share, reward_inputs, valid_share

    calls = oracle_calls("C1", "P0", 0)
    store = SessionStore()
    sid, s = store.open({"level": "C1", "mode": "P0", "seed": 0})
    name, args = calls[0]
    _play(store, sid, [(name, args), (name, args)])  # the same clean call twice
    store.call(sid, "abort", {"reason": "stopping"})
    inputs = s.reward_inputs()
    rec = s.env.record()
    assert inputs == reward_inputs(s.env) and inputs["repeats"] == 1
    assert inputs["valid_share"] == inputs["named_share"] == pytest.approx(1 / 3)
    assert valid_share(rec) == named_share(rec) == pytest.approx(2 / 3)  # unpriced


@pytest.mark.parametrize("field, value", [("query", None), ("slots", ""), ("solutions", [])])
def test_a_clients_task_the_grader_cannot_read_is_refused_as_it_opens(tmp_path, field, value):
    """Before: it opened, its calls were answered, and its grade raised (a TypeError at
    finish; at the server's shutdown, leaving the sessions after it unrecorded)."""
    from toolmaze_gym.tasks.suite import load_suite

    task = load_suite("toolmaze-v5", ["C2"])[0].to_dict() | {field: value}
    store = SessionStore(ServeRecorder(tmp_path / "run"))
    with pytest.raises(ServeError, match="cannot play this episode") as refused:
        store.open({"task": task, "mode": "P2"})
    assert refused.value.kind == "bad_request" and len(store) == 0


def test_an_episode_that_cannot_end_costs_no_other_its_record(tmp_path, monkeypatch, caplog):
    """Before: shutdown raised at the first such episode and the sessions after it were
    never recorded."""
    store = SessionStore(ServeRecorder(tmp_path / "run"))
    sessions = []
    for seed in (1, 2, 3):
        _, s = store.open({"level": "C1", "seed": seed})
        s.call("no_such_tool", {})
        sessions.append(s)

    def broken(reason):
        raise TypeError("a grade that cannot be computed")

    monkeypatch.setattr(sessions[0], "expire", broken)
    assert len(store.shutdown()) == 3
    store.recorder.close()
    lines = (tmp_path / "run" / "records.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["task_id"][-4:] for line in lines) == ["0002", "0003"]
    assert "could not be ended and recorded" in caplog.text


def test_a_server_remembers_only_its_latest_ended_ids(monkeypatch):
    """A late call on a recently ended id is told it expired; the oldest ids are
    forgotten (before: every id ever ended was kept, memory growing for the server's
    whole life)."""
    from toolmaze_gym.serving import store as store_module

    monkeypatch.setattr(store_module, "GONE_KEPT", 2)
    store = SessionStore()
    for sid in ("a", "b", "c"):
        store.get_or_open(sid, {"level": "C1", "seed": 0})
        store.end(sid, "closed")
    for sid in ("b", "c"):
        with pytest.raises(ServeError, match="unknown session") as told:
            store.get_or_open(sid, {})
        assert told.value.kind == "unknown_session"
    assert store.get_or_open("a", {"level": "C1", "seed": 0}).opening  # forgotten: anew
