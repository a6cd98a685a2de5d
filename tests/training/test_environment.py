"""The TRL environment adapter: tools as methods, the env's results, the env's reward."""

from __future__ import annotations

import inspect
import json

import pytest
from toolmaze_gym.reward import terminal_reward

from toolmaze_gym.rollout import rollout
from toolmaze_gym.training.careful import CarefulAgent
from toolmaze_gym.training.environment import (
    ENDED,
    NOT_STARTED,
    close_episodes,
    environment_class,
    episode_tools_of,
    grpo_dataset,
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
    env = factories[row["environment"]]()
    query = _play(env, row)
    assert query == train_tasks[1].query
    direct = rollout(train_tasks[1], mode, CarefulAgent(sim), sim, prompt="failure_aware")
    assert env.trajectory["steps"] == direct["steps"]
    assert env.get_reward() == terminal_reward(direct["grade"])
    assert env.get_reward() == terminal_reward(env.trajectory["grade"])


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
