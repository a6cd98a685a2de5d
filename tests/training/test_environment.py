"""The TRL environment adapter: tools as methods, the env's results, the env's reward."""

from __future__ import annotations

import inspect
import itertools
import json

import pytest
from toolmaze_gym.reward import partial_reward, path_progress, terminal_reward

from toolmaze_gym.rollout import rollout
from toolmaze_gym.training.careful import CarefulAgent
from toolmaze_gym.training.environment import (
    ENDED,
    NOT_STARTED,
    close_episodes,
    configured,
    environment_class,
    episode_tools_of,
    grpo_dataset,
    named_share,
    valid_share,
)

pytest.importorskip("datasets")


def _play(env, row):
    """Drive the adapter's tool methods with the careful agent, as TRL would."""
    query = env.reset(**row)
    base = env._env
    agent = CarefulAgent(base.sim)
    agent.reset(base.episode.task, base.tools, row["mode"])
    while not base.episode.done:
        action = json.loads(agent.act(base.messages))
        getattr(env, action["name"])(**action["arguments"])
    return query


@pytest.mark.parametrize("mode", ["P0", "P1", "P2", "P4"])
def test_reward_equals_the_reward_module_on_the_same_trajectory(sim, train_tasks, mode):
    ds, factories = grpo_dataset(train_tasks[1:2], [mode], ["failure_aware"])
    row = ds[0]
    env = configured(factories, partial_credit=None)[row["environment"]]()
    query = _play(env, row)
    assert query == train_tasks[1].query
    direct = rollout(train_tasks[1], mode, CarefulAgent(sim), sim, prompt="failure_aware")
    assert env.trajectory["steps"] == direct["steps"]
    assert env.get_reward() == terminal_reward(direct["grade"])
    assert env.get_reward() == terminal_reward(env.trajectory["grade"])
    partial = factories[row["environment"]]()  # the default: partial credit
    _play(partial, row)
    ep = partial._env.episode
    assert partial.get_reward() == pytest.approx(partial_reward(
        direct["grade"], valid_share(direct),
        path_progress(sim.corpus, ep.task, ep.profile, ep.steps), named=named_share(direct)))


def _reward_after(factories, row, actions):
    """The default (partial-credit) reward of an episode of ``actions`` then prose."""
    env = factories[row["environment"]]()
    env.reset(**row)
    for name, arguments in actions:
        getattr(env, name)(**arguments)
    close_episodes([[{"role": "assistant", "content": "That is all I can do."}]], [env])
    return env.get_reward()


def test_partial_credit_ranks_good_above_partial_above_bad(train_tasks):
    """GRPO needs rewards that differ within a group: the expert beats an agent that
    made one correct call and stopped, which beats prose, an invented tool or
    finishing at once (all 0)."""
    ds, factories = grpo_dataset(train_tasks[:1], ["P0"], ["standard"])
    row = ds[0]
    expert = factories[row["environment"]]()
    _play(expert, row)
    calls = [(s["action"]["name"], s["action"]["arguments"])
             for s in expert.trajectory["steps"] if s["action"]["kind"] == "call"]
    good = expert.get_reward()
    one_step = _reward_after(factories, row, calls[:1])
    prose = _reward_after(factories, row, [])
    invented = _reward_after(factories, row, [("finish", {"answer": "done"})])
    name = calls[0][0]
    wrong_args = _reward_after(factories, row, [(name, {"zzz_unknown": 1})])
    assert good > 1.0 > one_step > wrong_args > prose == invented == 0.0
    assert one_step >= (0.1 + 0.2) / 2  # a valid call in two actions, plus progress
    assert wrong_args == pytest.approx(0.1 / 2)  # a shown tool named, in two actions


def test_compact_rows_show_the_tools_exactly_as_evaluation(train_tasks):
    """Train == test prompt: system + query of a compact row equal the messages the
    hf agent renders with --compact-tools (same tools, order, descriptions)."""
    from toolmaze_gym.envs.env import ToolMazeEnv

    from toolmaze_gym.agents.compact_tools import system_with_tools

    for task in train_tasks:
        ds, factories = grpo_dataset([task], ["P2"], ["failure_aware"], compact_tools=True)
        row = ds[0]
        query = factories[row["environment"]]().reset(**row)
        trained = [{"role": m["role"], "content": m["content"]} for m in row["prompt"]]
        trained[-1]["content"] += query
        env = ToolMazeEnv(level=None, mode=None, split="train", prompt="failure_aware")
        env.reset(options={"task": task, "mode": "P2"})
        evaluated = system_with_tools(env.messages, env.tools)
        assert trained == [{"role": m["role"], "content": m["content"]} for m in evaluated]
        names = [t["function"]["name"] for t in env.tools]
        assert names[:-2] == sorted(names[:-2]) and names[-2:] == ["finish", "abort"]


def test_each_tool_set_gets_a_class_whose_methods_are_its_tools(train_tasks):
    from transformers.utils import get_json_schema

    tools = episode_tools_of(train_tasks[0])
    cls = environment_class(tools)
    assert environment_class(list(reversed(tools))) is cls
    methods = {n for n, _ in inspect.getmembers(cls, inspect.isfunction)
               if not n.startswith("_") and n not in ("reset", "get_reward")}
    assert methods == {t["function"]["name"] for t in tools}
    for tool in tools:
        schema = get_json_schema(getattr(cls(), tool["function"]["name"]))["function"]
        params = tool["function"]["parameters"]
        assert set(schema["parameters"]["properties"]) == set(params["properties"])
        assert set(schema["parameters"].get("required", ())) == set(params["required"])
        for name, p in params["properties"].items():
            assert schema["parameters"]["properties"][name].get("enum") == p.get("enum")


def test_a_keyword_parameter_keeps_its_name(corpus):
    from transformers.utils import get_json_schema

    from toolmaze_gym.training.tool_methods import tool_method

    spec = next(s for s in corpus.tools.values()
                if "from" in s.openai_schema()["function"]["parameters"]["properties"])
    method = tool_method(spec.openai_schema(), lambda self, name, args: args)
    params = spec.openai_schema()["function"]["parameters"]
    schema = get_json_schema(method)["function"]["parameters"]
    assert "from" in schema["properties"] and "from" in params["required"]
    assert set(schema["required"]) == set(params["required"])
    assert method(None, **{"from": "USD"}) == {"from": "USD"}


def test_tools_answer_errors_as_json_never_raise(train_tasks):
    ds, factories = grpo_dataset(train_tasks[:1], ["P0"], ["standard"])
    row = ds[0]
    env = factories[row["environment"]]()
    first = env.__class__.tool_names[0]
    assert getattr(env, first)() == NOT_STARTED
    env.reset(**row)
    bad = json.loads(getattr(env, first)(no_such_argument=1))
    assert bad["error"]["code"] == 400  # the env's own validation error
    env.finish(answer="done")
    assert getattr(env, first)() == ENDED and env.abort(reason="x") == ENDED


def test_prose_ends_the_episode_as_the_final_answer(train_tasks):
    ds, factories = grpo_dataset(train_tasks[:1], ["P0"], ["standard"])
    row = ds[0]
    env = factories[row["environment"]]()
    env.reset(**row)
    out = close_episodes([[{"role": "assistant", "content": "I cannot help."}]], [env])
    assert out == [None]
    assert env.trajectory["grade"]["ended_by"] == "answer"
    other = factories[row["environment"]]()
    other.reset(**row)
    assert other.get_reward() == 0.0 and other.trajectory["cut"] == "tool budget"


def test_rows_carry_the_episode_and_a_matching_prompt(train_tasks):
    ds, factories = grpo_dataset(train_tasks, ["P3"], ["standard", "failure_aware"])
    assert len(ds) == 2 * len(train_tasks) and set(ds["environment"]) == set(factories)
    row = ds[1]
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert "careful assistant" in row["prompt"][0]["content"]  # failure-aware prompt
    assert json.loads(row["prompt"][1]["episode"])["mode"] == "P3"
    wrong = factories[ds[0]["environment"]] if ds[0]["environment"] != ds[2]["environment"] \
        else None
    if wrong is not None:
        with pytest.raises(ValueError, match="other tools"):
            wrong().reset(**ds[2])


def test_finish_and_abort_are_described_as_in_evaluation():
    from transformers.utils import get_json_schema

    from toolmaze_gym.training.environment import ToolMazeEnvironment
    from toolmaze_gym.transcript import RESERVED_SCHEMAS

    env = ToolMazeEnvironment()
    for reserved in RESERVED_SCHEMAS:
        fn = reserved["function"]
        schema = get_json_schema(getattr(env, fn["name"]))["function"]
        assert schema["description"] == fn["description"]
        assert schema["parameters"]["properties"] == {
            k: {"type": v["type"], "description": v["description"]}
            for k, v in fn["parameters"]["properties"].items()}
        assert "return" not in schema


def test_tool_methods_state_bounds_as_the_compact_docs_do(corpus):
    """One bounds renderer: every range and length a GRPO tool description states is
    worded exactly as in the eval's compact docs."""
    from toolmaze_gym.agents.compact_tools import bounds, render_tool
    from toolmaze_gym.training.tool_methods import describe

    seen = 0
    for spec in corpus.tools.values():
        schema = spec.openai_schema()
        for param in schema["function"]["parameters"]["properties"].values():
            for fact in bounds(param):
                assert fact in describe(param) and fact in render_tool(schema)
                seen += 1
    assert seen > 50


def test_looping_on_a_valid_call_never_pays(train_tasks):
    """The failure the last trained model showed (one valid call until the cycle guard
    cut it): every repeat of a cleanly answered call lowers the reward, so a loop ends
    below stopping after the call, and a long loop below saying nothing at all."""
    ds, factories = grpo_dataset(train_tasks[:1], ["P0"], ["standard"])
    row = ds[0]
    expert = factories[row["environment"]]()
    _play(expert, row)
    first = next((s["action"]["name"], s["action"]["arguments"])
                 for s in expert.trajectory["steps"] if s["action"]["kind"] == "call")
    rewards = [_reward_after(factories, row, [first] * k) for k in range(1, 8)]
    assert all(later < earlier for earlier, later in itertools.pairwise(rewards))
    assert rewards[-1] < _reward_after(factories, row, []) == 0.0
