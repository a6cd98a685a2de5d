"""ToolMazeEnv behaviour a user sees: reset/step contract, endings, truncation, wrapper."""

from __future__ import annotations

import dataclasses
import json
import math

import gymnasium as gym
import pytest
from gymnasium.error import ResetNeeded
from toolmaze_gym.envs import PerturbationWrapper, ToolMazeEnv
from toolmaze_gym.envs.env import MAX_ECHO_CHARS

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.envs._helpers import play
from toolmaze_gym.faults.store import shipped_profiles
from toolmaze_gym.prompts import FAILURE_AWARE, STANDARD, clock_line
from toolmaze_gym.tasks.suite import SUITE_NAME, get_task, load_suite
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX
from toolmaze_gym.world.edition import LATEST

FINISH = json.dumps({"name": "finish", "arguments": {"answer": "done"}})
ABORT = json.dumps({"name": "abort", "arguments": {"reason": "cannot"}})


def test_reset_gives_opening_messages_and_info():
    env = gym.make("ToolMaze-C2P3-v0")
    obs, info = env.reset(seed=3)
    msgs = json.loads(obs)
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert msgs[0]["content"] == f"{STANDARD}\n\n{clock_line(env.unwrapped.sim.world.now)}"
    task = env.unwrapped.episode.task
    assert msgs[1]["content"] == task.query
    assert info["task_id"] == task.id and info["level"] == "C2" and info["mode"] == "P3"
    names = [t["function"]["name"] for t in info["tools"]]
    assert names == [*task.tools, "finish", "abort"]
    assert all(t["type"] == "function" and "parameters" in t["function"] for t in info["tools"])
    assert env.unwrapped.messages == msgs
    assert env.unwrapped.tools == info["tools"]


def test_failure_aware_prompt_and_task_id_option():
    env = gym.make("ToolMaze-C1P2-v0", prompt="failure_aware")
    task = load_suite(levels=["C4"])[7]
    obs, info = env.reset(seed=0, options={"task_id": task.id})
    assert json.loads(obs)[0]["content"].startswith(FAILURE_AWARE)
    assert info["task_id"] == task.id and info["level"] == "C4" and info["mode"] == "P2"


@pytest.mark.parametrize("action,ended_by", [(FINISH, "finish"), (ABORT, "abort"),
                                             ("I think the answer is 42.", "answer")])
def test_endings_terminate_with_grade(action, ended_by):
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=1)
    obs, r, te, tr, info = env.step(action)
    assert te and not tr
    assert info["grade"]["ended_by"] == ended_by and info["grade"]["success"] is False
    assert json.loads(obs) == [{"role": "assistant", "content": action}]
    assert r == 0.0


def test_tool_call_dialects_reach_the_simulator():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=2)
    call = env.unwrapped.episode.task.default_path.calls[0]
    args = json.dumps(call.args)
    forms = [json.dumps({"name": call.tool, "arguments": call.args}),
             f"Let me check.\n<tool_call>{{\"name\": \"{call.tool}\", \"arguments\": {args}}}"
             "</tool_call>",
             json.dumps({"tool_calls": [{"id": "c1", "type": "function", "function": {
                 "name": call.tool, "arguments": args}}]}),
             f"```json\n{{\"name\": \"{call.tool}\", \"arguments\": {args}}}\n```"]
    for form in forms:
        env.reset(seed=2)
        obs, _, te, _, info = env.step(form)
        msgs = json.loads(obs)
        assert not te and info["status"] == 200, form
        assert msgs[0]["tool_calls"][0]["function"]["name"] == call.tool
        assert msgs[1]["role"] == "tool" and json.loads(msgs[1]["content"]) == call.response


def test_errors_are_observations():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=0)
    tool = env.unwrapped.tools[0]["function"]["name"]
    cases = {'{"name": "no_such_tool", "arguments": {}}': 404,
             '<tool_call>{"name": "x", "arguments": {': 400,
             json.dumps({"name": tool, "arguments": {"bogus_param": 1}}): 400,
             json.dumps({"name": tool, "arguments": [1, 2]}): 400}
    for action, status in cases.items():
        obs, _, te, _, info = env.step(action)
        tool_msg = json.loads(obs)[-1]
        assert tool_msg["role"] == "tool" and not te
        assert info["status"] == status
        assert json.loads(tool_msg["content"])["error"]["code"] == status


def test_truncation_at_25_steps_is_graded():
    env = gym.make("ToolMaze-C3P1-v0")
    env.reset(seed=0)
    for k in range(25):
        _, _, te, tr, info = env.step('{"name": "nothing_here", "arguments": {}}')
        assert not te
        assert tr == (k == 24)
    assert info["grade"]["success"] is False and info["grade"]["ended_by"] == ""
    assert env.unwrapped.episode.truncated


def test_env_own_max_steps():
    env = ToolMazeEnv("C1", "P0", max_steps=3)
    env.reset(seed=0)
    flags = [env.step("{\"name\": \"x\"}")[3] for _ in range(3)]
    assert flags == [False, False, True]


def test_step_after_end_and_before_reset():
    env = ToolMazeEnv("C1", "P0")
    with pytest.raises(ResetNeeded):
        env.step(FINISH)
    env.reset(seed=0)
    env.step(FINISH)
    obs, r, te, tr, info = env.step(FINISH)
    assert (obs, r, te, tr) == ("[]", 0.0, True, False) and "warning" in info
    assert len(env.episode.steps) == 1


def test_oversized_action_is_rejected_and_echo_cut():
    env = ToolMazeEnv("C1", "P0")
    env.reset(seed=0)
    obs, _, te, _, info = env.step("{" + "x" * 500_000)
    msgs = json.loads(obs)
    assert info["status"] == 400 and not te
    assert len(msgs[0]["content"]) < MAX_ECHO_CHARS + 100
    assert len(obs) < 20_000
    assert "characters cut" in env.messages[-2]["content"]


def test_nan_arguments_and_surrogates_do_not_break_observations():
    env = ToolMazeEnv("C1", "P0")
    env.reset(seed=0)
    tool = env.tools[0]["function"]["name"]
    for action in ('{"name": "' + tool + '", "arguments": {"x": NaN}}',
                   '{"name": "' + tool + '", "arguments": {"x": 1e999}}',
                   "\ud800 lone surrogate", '{"name": "\udfff", "arguments": {}}'):
        env.reset(seed=0)
        obs, *_ = env.step(action)
        obs.encode("utf-8")  # valid UTF-8 text
        assert isinstance(json.loads(obs), list)


def test_render_ansi():
    env = gym.make("ToolMaze-C1P0-v0", render_mode="ansi")
    env.reset(seed=0)
    env.step("hello")
    text = env.render()
    assert text.splitlines()[0].startswith("[system] ") and text.endswith("[assistant] hello")
    plain = gym.make("ToolMaze-C1P0-v0")
    plain.reset(seed=0)
    assert plain.render() is None


def test_perturbation_wrapper_sets_the_mode_on_any_env():
    base = ToolMazeEnv("C2", "P0")
    env = PerturbationWrapper(base, "P4")
    _, info = env.reset(seed=0)
    assert info["mode"] == "P4" and base.episode.mode == "P4"
    _, info = env.reset(seed=0, options={"mode": "P1"})  # the outermost choice wins
    assert info["mode"] == "P1" and base.episode.mode == "P1"
    assert env.spec is None and PerturbationWrapper(ToolMazeEnv(), "NP").mode == "P0"
    # the registered factory composes it
    env = gym.make("ToolMaze-C2P4-v0")
    assert any(isinstance(w, PerturbationWrapper) for w in _chain(env))


def _chain(env):
    while isinstance(env, gym.Wrapper):
        yield env
        env = env.env


def test_mixed_env_samples_cells_and_curriculum():
    env = gym.make("ToolMaze-v0")
    cells = {(i["level"], i["mode"]) for i in (env.reset(seed=s)[1] for s in range(200))}
    assert len(cells) >= 18
    env = gym.make("ToolMaze-v0", curriculum={"C1P0": 1.0, "C4P4": 3.0})
    seen = [(i["level"], i["mode"]) for i in (env.reset(seed=s)[1] for s in range(400))]
    assert set(seen) == {("C1", "P0"), ("C4", "P4")}
    assert 0.65 < seen.count(("C4", "P4")) / len(seen) < 0.85
    with pytest.raises(ValueError):
        gym.make("ToolMaze-C1P0-v0", curriculum={"C2P0": 1.0})


def test_bad_constructor_arguments_fail_early():
    for kw in ({"level": "C9"}, {"mode": "P7"}, {"split": "test"}, {"prompt": "x"},
               {"render_mode": "human"}, {"max_steps": 0}):
        with pytest.raises(ValueError):
            ToolMazeEnv(**kw)


@pytest.mark.parametrize("level", ["C1", "C3"])
def test_procedural_split_is_disjoint_and_playable(level):
    env = gym.make(f"ToolMaze-{level}P2-v0", split="train")
    out = play(env, "oracle", seed=11)
    task = env.unwrapped.episode.task
    assert task.id.startswith("tmz-v2-train-") and task.level == level
    assert task.meta["scenario"] and task.meta["goal"]  # a v3 task, from the library
    assert task.meta["signature"] not in {t.meta["signature"] for t in load_suite()}
    assert out["grade"]["success"] is True


def test_procedural_reset_with_a_seed_plays_the_same_task_again():
    env = ToolMazeEnv(level="C2", mode="P3", split="train")
    first = env.reset(seed=5)
    again = env.reset(seed=5)
    other = env.reset(seed=6)
    assert first == again and first[1]["task_id"] != other[1]["task_id"]


def test_the_default_suite_is_v15_and_v1_to_v14_still_play_by_name():
    env = ToolMazeEnv(level="C1", mode="P0")
    assert env.suite == SUITE_NAME == "toolmaze-v15"
    assert env.reset(seed=0)[1]["task_id"] == load_suite(levels=["C1"])[0].id
    assert load_suite(levels=["C1"])[0].id.startswith(f"{ID_PREFIX}-c1-")
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v2")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v2-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v3")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v3-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v4")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v4-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v5")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v5-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v6")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v6-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v7")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v7-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v8")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v8-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v9")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v9-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v10")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v10-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v11")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v11-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v12")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v12-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v13")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v13-c1-0000"
    kept = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v14")
    assert kept.reset(seed=0)[1]["task_id"] == "tmz-v14-c1-0000"
    old = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v1")
    assert old.reset(seed=0)[1]["task_id"] == "tmz-v1-c1-0000"
    dev = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v1", split="dev")
    task = (dev.reset(seed=2), dev.episode.task)[1]
    assert task.id.startswith("tmz-dev-") and "scenario" not in task.meta


FORECAST = json.dumps({"name": "get_forecast_by_city",
                       "arguments": {"city": "Delhi", "date": "2026-08-20"}})


def _forecast_high(env: ToolMazeEnv, task) -> float:
    env.reset(options={"task": task})
    obs = json.loads(env.step(FORECAST)[0])
    return json.loads(obs[-1]["content"])["high_c"]


def test_a_task_plays_on_its_suites_world_edition():
    """A toolmaze-v4 task answers from the world v4 was played on (edition 1: Delhi's
    20 August high of 33.0 C its player typed); the same task in a file of its own (no
    shipped suite's) and a procedural dev task play on the latest world."""
    env = ToolMazeEnv(level="C4", mode="P0")
    old = get_task("tmz-v4-c4-0043")
    assert _forecast_high(env, old) == 33.0 and env.episode.sim.world.edition == 1
    custom = dataclasses.replace(old, id="my-c4-0043")
    assert _forecast_high(env, custom) == 32.5 and env.episode.sim.world.edition == LATEST
    # the tools are documented as the edition has them: no ship-to city before 2
    def params(info: dict, tool: str) -> set[str]:
        return next(set(t["function"]["parameters"]["properties"]) for t in info["tools"]
                    if t["function"]["name"] == tool)

    shop = next(t for t in load_suite("toolmaze-v4") if "place_order" in t.tools)
    _, info = env.reset(options={"task": shop})
    assert "ship_to_city" not in params(info, "place_order")
    _, info = env.reset(options={"task": dataclasses.replace(shop, id="my-shop")})
    assert "ship_to_city" in params(info, "place_order")
    dev = ToolMazeEnv(level="C1", mode="P0", suite="toolmaze-v1", split="dev")
    dev.reset(seed=2)
    assert dev.episode.task.id.startswith("tmz-dev-") and dev.episode.sim.world.edition == LATEST


@pytest.mark.parametrize("by", ["task_id", "task"])
def test_an_old_suites_task_plays_with_its_own_suites_faults(by):
    """A stored id (tmz-v3-...) plays its v3 task under the fault v3 shipped for it,
    not one laid afresh, on an env of the default suite: old episodes replay as played."""
    task = get_task("tmz-v3-c1-0000")
    env = ToolMazeEnv(level="C1", mode="P2")
    env.reset(options={by: task.id if by == "task_id" else task})
    assert env.episode.task == task
    assert env.episode.profile == shipped_profiles("toolmaze-v3")[(task.id, "P2")]


def test_procedural_tasks_can_always_carry_the_episodes_fault():
    """Some v3 tasks have no node an implicit fault can fall on, or a victim with no
    alternative: the env skips them instead of failing in reset."""
    env = ToolMazeEnv(level="C2", mode="P3", split="train")
    for seed in range(6):  # about a third of C2 draws fall on an unplayable task
        env.reset(seed=seed)
        ep = env.episode
        assert ep.profile.victims
        assert all(ep.task.slot_by_id[v.slot].is_branch for v in ep.profile.victims)


def test_a_procedural_split_of_a_suite_without_a_generator_is_refused():
    with pytest.raises(ValueError, match="no generator for suite 'mine'"):
        ToolMazeEnv(split="train", suite="mine")


def test_rewards_are_finite_floats():
    env = gym.make("ToolMaze-C2P1-v0")
    out = play(env, "validator", seed=4)
    assert all(isinstance(r, float) and math.isfinite(r) for r in out["rewards"])
    assert out["rewards"][:-1] == [0.0] * (len(out["rewards"]) - 1)


@pytest.mark.parametrize("env_id,max_steps", [("ToolMaze-C2P0-v0", 4),
                                               ("ToolMaze-C2P0-v0", 40),
                                               ("ToolMaze-v0", 30)])
def test_max_steps_sets_the_length_and_the_last_step_is_graded(env_id, max_steps):
    env = gym.make(env_id, max_steps=max_steps)
    env.reset(seed=0)
    flags, infos = [], []
    for _ in range(max_steps):
        _, _, te, tr, info = env.step('{"name": "x"}')
        flags.append((te, tr))
        infos.append(info)
    assert flags == [(False, False)] * (max_steps - 1) + [(False, True)]
    assert "grade" in infos[-1] and "grade" not in infos[-2]
    assert env.unwrapped.episode.truncated


def test_shorter_limits():
    # Gymnasium's max_episode_steps cuts in TimeLimit, outside the env: no grade in info,
    # but the env's record() grades the episode as it stands
    env = gym.make("ToolMaze-C2P0-v0", max_episode_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        _, _, te, tr, info = env.step('{"name": "x"}')
    assert tr and not te and "grade" not in info
    rec = env.unwrapped.record()
    assert rec["grade"]["success"] is False and len(rec["steps"]) == 3


def _walk_default_path(env) -> list:
    """Send the task's default-path calls in order; the steps taken."""
    base = env.unwrapped
    for c in base.episode.task.default_path.calls:
        env.step(json.dumps({"name": c.tool, "arguments": c.args}))
    return base.episode.steps


@pytest.mark.parametrize("mode,explicit", [("P2", True), ("P4", False)])
def test_perturbation_wrapper_on_a_registered_id_wins(mode, explicit):
    env = PerturbationWrapper(gym.make("ToolMaze-C1P0-v0"), mode)
    _, info = env.reset(seed=5)
    assert info["mode"] == mode and env.unwrapped.episode.mode == mode
    fired = [s for s in _walk_default_path(env) if s.fault]
    assert fired and (fired[0].status >= 400) == explicit


def test_reset_mode_option_on_a_registered_id():
    env = gym.make("ToolMaze-C1P0-v0")
    _, info = env.reset(seed=5, options={"mode": "P3"})
    assert info["mode"] == "P3"
    assert any(s.fault for s in _walk_default_path(env))
    _, info = env.reset(seed=5)  # the option holds for that episode only
    assert info["mode"] == "P0"
    assert not any(s.fault for s in _walk_default_path(env))


def test_actions_may_be_openai_dicts():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=2)
    call = env.unwrapped.episode.task.default_path.calls[0]
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": call.tool, "arguments": json.dumps(call.args)}}]}
    for action in (message, message["tool_calls"], {"name": call.tool, "arguments": call.args}):
        env.reset(seed=2)
        obs, _, te, _, info = env.step(action)
        assert not te and info["status"] == 200
        assert json.loads(json.loads(obs)[1]["content"]) == call.response
    _, _, te, _, info = env.step({"role": "assistant", "content": "All done."})
    assert te and info["grade"]["ended_by"] == "answer"
    env.reset(seed=2)
    _, _, te, _, info = env.step({"role": "assistant", "content": None, "tool_calls": [
        {"type": "function", "function": {"name": "abort", "arguments": '{"reason": "x"}'}}]})
    assert te and info["grade"]["ended_by"] == "abort"
    env.reset(seed=2)
    obs, _, te, _, info = env.step({"name": call.tool, "arguments": {"x": float("nan")}})
    assert not te and info["status"] == 400 and "finite" in json.loads(obs)[-1]["content"]


def _nested(n: int) -> dict:
    d: dict = {"a": 1}
    for _ in range(n):
        d = {"a": d}
    return d


@pytest.mark.parametrize("env_id", ["ToolMaze-C1P0-v0", "ToolMaze-C4P4-v0"])
def test_hostile_nesting_gets_an_error_naming_the_limit_and_grades(env_id):
    # the three crashes of issue 17: a Python dict ~1,000 deep, and a text call ~985 deep
    # whose episode then reached grading
    env = gym.make(env_id)
    tool = None
    for action in ({"name": "x", "arguments": _nested(1000)}, _nested(1000),
                   '{"name": "@", "arguments": ' + '{"a": ' * 985 + "1" + "}" * 986):
        env.reset(seed=0)
        tool = tool or env.unwrapped.tools[0]["function"]["name"]
        if isinstance(action, str):
            action = action.replace("@", tool)
        obs, _, te, _, info = env.step(action)
        body = json.loads(json.loads(obs)[-1]["content"])
        assert info["status"] == 400 and not te
        assert "nested deeper than 64 levels (MAX_ACTION_DEPTH)" in body["error"]["message"]
        _, _, te, _, info = env.step(FINISH)
        assert te and info["grade"]["success"] is False
        assert env.unwrapped.record()["steps"][0]["status"] == 400


def test_several_calls_in_one_action_tell_the_agent_which_one_ran():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=2)
    calls = [c for c in env.unwrapped.episode.task.default_path.calls][:1] * 3
    action = json.dumps({"tool_calls": [
        {"id": f"c{k}", "type": "function",
         "function": {"name": c.tool, "arguments": json.dumps(c.args)}}
        for k, c in enumerate(calls)]})
    obs, _, te, _, info = env.step(action)
    assistant, tool = json.loads(obs)
    body = json.loads(tool["content"])
    assert info["status"] == 200 and not te
    assert body["warning"] == (f"3 tool calls in one action: only the first (`{calls[0].tool}`)"
                               " ran; send one call per action")
    assert {k: v for k, v in body.items() if k != "warning"} == calls[0].response
    assert len(assistant["tool_calls"]) == 1
    step = env.unwrapped.record()["steps"][0]
    assert step["action"]["calls"] == 3 and "warning" not in json.loads(step["observation"])
    # one call: no warning
    obs, *_ = env.step(json.dumps({"name": calls[0].tool, "arguments": calls[0].args}))
    assert "warning" not in json.loads(json.loads(obs)[-1]["content"])


def test_several_calls_whose_first_is_broken_say_so():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=2)
    obs, _, _, _, info = env.step('[{"name": "a", "arguments": "{broken"}, '
                                  '{"name": "b", "arguments": {}}]')
    body = json.loads(json.loads(obs)[-1]["content"])
    assert info["status"] == 400 and "2 tool calls in one action" in body["warning"]
