"""Issue 29, item 8: a tool call the endpoint could not have meant (``function.name:
null``) is endpoint trouble, never the model's failure; arguments sent as a JSON object
instead of JSON text are taken as that object."""

from __future__ import annotations

import copy
import json
from typing import Any

import gymnasium as gym
import pytest

pytest.importorskip("openai")

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.agents._fake_endpoint import completion
from toolmaze_gym.actions import parse_action
from toolmaze_gym.agents import make_policy
from toolmaze_gym.agents.errors import EndpointError


def _policy(url: str, **options: Any):
    return make_policy("openai", base_url=url, api_key_env="TOOLMAZE_TEST_KEY",
                       **{"model": "tiny", "max_retries": 1, **options})


def _started(url: str, **options: Any):
    env = gym.make("ToolMaze-C1P0-v0").unwrapped
    _, info = env.reset(seed=0)
    policy = _policy(url, **options)
    policy.start("k", env.episode.task, info["tools"], "P0")
    return env, policy


def _call(name: Any, arguments: Any) -> dict[str, Any]:
    body = completion(calls=[("x", {})])
    body = copy.deepcopy(body)
    body["choices"][0]["message"]["tool_calls"][0]["function"] = {"name": name,
                                                                  "arguments": arguments}
    return body


def test_a_tool_call_without_a_name_is_endpoint_trouble(endpoint):
    ep, url = endpoint
    ep.answer = lambda req: (200, _call(None, {"answer": "x"}), {})
    env, policy = _started(url)
    with pytest.raises(EndpointError, match="malformed reply") as err:
        policy.act_many([("k", env.messages)])
    assert err.value.keys == ["k"] and len(ep.requests) == 2  # asked again, then stopped


def test_a_nameless_reply_once_is_asked_again_and_the_good_one_played(endpoint):
    ep, url = endpoint
    ep.queue = [(200, _call(None, "{}"), {})]
    ep.answer = lambda req: (200, _call("finish", '{"answer": "done"}'), {})
    env, policy = _started(url)
    [text] = policy.act_many([("k", env.messages)])
    assert parse_action(text).kind == "finish" and parse_action(text).text == "done"
    assert policy.finish("k")["endpoint_errors"] == 1


def test_arguments_given_as_an_object_are_taken_as_that_object(endpoint):
    ep, url = endpoint
    ep.answer = lambda req: (200, _call("finish", {"answer": "the price is 12 EUR"}), {})
    env, policy = _started(url)
    [text] = policy.act_many([("k", env.messages)])
    action = parse_action(text)
    assert action.kind == "finish" and action.text == "the price is 12 EUR"
    assert isinstance(json.loads(text)["tool_calls"][0]["function"]["arguments"], str)
