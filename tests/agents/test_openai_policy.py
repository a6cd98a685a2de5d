"""The ``openai`` policy against a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import pytest

pytest.importorskip("openai")

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.agents._fake_endpoint import FAST, Reply, completion
from toolmaze_gym.actions import parse_action
from toolmaze_gym.agents import ContextOverflow, make_policy
from toolmaze_gym.agents.errors import EndpointError
from toolmaze_gym.agents.scripted import OracleAgent


def _policy(url: str, **options: Any):
    return make_policy("openai", base_url=url, api_key_env="TOOLMAZE_TEST_KEY",
                       **{"model": "tiny", "max_retries": 3, **options})


def _env(env_id: str = "ToolMaze-C2P1-v0", seed: int = 0):
    env = gym.make(env_id).unwrapped
    _, info = env.reset(seed=seed)
    return env, info


def _direct(sim, seed: int) -> dict[str, Any]:
    """The oracle's episode played straight into the env (no endpoint)."""
    env, info = _env(seed=seed)
    oracle = OracleAgent(sim)
    oracle.reset(env.episode.task, info["tools"], "P1")
    while not env.episode.done:
        env.step(oracle.act(env.messages))
    return env.record()


def test_an_oracle_behind_the_endpoint_plays_as_it_does_directly(endpoint, sim, monkeypatch):
    """Tool calls come back from the endpoint as OpenAI ``tool_calls``, the env plays
    them, and the tool results reach the endpoint as wire-format messages: an oracle
    reading only what the endpoint receives makes the same calls, meets the same
    fault and gets the same grade as when it plays the env directly."""
    ep, url = endpoint
    monkeypatch.setenv("TOOLMAZE_TEST_KEY", "sk-test-123")
    env, info = _env()
    oracle = OracleAgent(sim)
    oracle.reset(env.episode.task, info["tools"], "P1")

    def answer(request: dict[str, Any]) -> Reply:
        action = json.loads(oracle.act(request["messages"]))
        return 200, completion(calls=[(action["name"], action["arguments"])]), {}

    ep.answer = answer
    policy = _policy(url, temperature=0.3, max_tokens=77)
    policy.start("k", env.episode.task, info["tools"], "P1")
    done, result = False, {}
    while not done:
        [text] = policy.act_many([("k", env.messages)])
        _, _, term, trunc, result = env.step(text)
        done = term or trunc
    direct = _direct(sim, 0)
    assert result["grade"] == direct["grade"]
    assert [s["action"] for s in env.record()["steps"]] == [s["action"] for s in direct["steps"]]
    assert len(env.episode.steps) >= 3  # calls, tool results and an ending
    usage = policy.finish("k")
    assert usage["turns"] == len(env.episode.steps) == len(ep.requests)
    assert usage["prompt_tokens"] == 5000 * usage["turns"]
    assert usage["completion_tokens"] == 10 * usage["turns"]
    first, last = ep.requests[0], ep.requests[-1]
    assert first["model"] == "tiny" and first["temperature"] == 0.3
    assert first["max_tokens"] == 77 and first["tools"] == info["tools"]
    assert any(m["role"] == "tool" for m in last["messages"])
    assert all(isinstance(c["function"]["arguments"], str)  # wire format, not dicts
               for m in last["messages"] for c in m.get("tool_calls") or ())
    assert ep.headers[0]["authorization"] == "Bearer sk-test-123"


def test_the_endpoints_429_and_5xx_are_retried_not_played(endpoint):
    ep, url = endpoint
    ep.queue = [(429, {"error": {"message": "rate limited"}}, FAST),
                (503, {"error": {"message": "overloaded"}}, FAST),
                (500, "Internal Server Error", FAST)]
    ep.answer = lambda req: (200, completion(calls=[("finish", {"answer": "done"})]), {})
    policy = _policy(url)
    env, info = _env()
    policy.start("k", env.episode.task, info["tools"], "P1")
    [text] = policy.act_many([("k", env.messages)])
    assert parse_action(text).kind == "finish"
    assert len(ep.requests) == 4
    usage = policy.finish("k")
    assert usage["turns"] == 1 and usage["endpoint_errors"] == 0


def test_an_endpoint_that_stays_down_raises_endpoint_error(endpoint):
    ep, url = endpoint
    ep.answer = lambda req: (503, {"error": {"message": "down"}}, FAST)
    policy = _policy(url, max_retries=2)
    env, info = _env()
    policy.start("k", env.episode.task, info["tools"], "P1")
    with pytest.raises(EndpointError, match="failed for 1 turn") as err:
        policy.act_many([("k", env.messages)])
    assert err.value.keys == ["k"] and len(ep.requests) == 3


def test_authentication_errors_are_not_retried(endpoint):
    ep, url = endpoint
    ep.answer = lambda req: (401, {"error": {"message": "bad key"}}, {})
    policy = _policy(url)
    env, info = _env()
    policy.start("k", env.episode.task, info["tools"], "P1")
    with pytest.raises(EndpointError, match="bad key"):
        policy.act_many([("k", env.messages)])
    assert len(ep.requests) == 1


def test_malformed_replies_are_retried_then_raise_endpoint_error(endpoint):
    """A reply that is not a chat completion is the endpoint's fault: asked again, and
    if it stays malformed, never played as the model's (broken) action."""
    ep, url = endpoint
    ep.queue = [(200, "this is not json", {}), (200, {"id": "x", "choices": []}, {})]
    ep.answer = lambda req: (200, completion("The price is 12 EUR."), {})
    policy = _policy(url)
    env, info = _env()
    policy.start("k", env.episode.task, info["tools"], "P1")
    [text] = policy.act_many([("k", env.messages)])
    assert text == "The price is 12 EUR."
    assert policy.finish("k")["endpoint_errors"] == 2

    ep.answer = lambda req: (200, {"choices": None}, {})
    policy = _policy(url, max_retries=1)
    policy.start("k", env.episode.task, info["tools"], "P1")
    with pytest.raises(EndpointError, match="malformed reply") as err:
        policy.act_many([("k", env.messages)])
    assert err.value.keys == ["k"]


def test_the_envs_answer_to_a_broken_action_reaches_the_endpoint_as_a_user_message(endpoint):
    """OpenAI refuses a tool result without its call: the env's answer to a broken
    action goes out as a user message (as ``hf`` shows it, see test_conversation)."""
    ep, url = endpoint
    env, info = _env()
    env.step('<tool_call>{"name": broken</tool_call>')
    assert env.messages[-1]["role"] == "tool"
    policy = _policy(url)
    policy.start("k", env.episode.task, info["tools"], "P1")
    ep.answer = lambda req: (200, completion("fine"), {})
    policy.act_many([("k", env.messages)])
    sent = ep.requests[-1]["messages"]
    assert sent[-1]["role"] == "user"
    assert env.messages[-1]["content"] in sent[-1]["content"]
    assert [m["role"] for m in sent[:-1]] == [m["role"] for m in env.messages[:-1]]


def test_a_context_error_raises_context_overflow_for_that_episode(endpoint):
    ep, url = endpoint

    def answer(request: dict[str, Any]) -> Reply:
        if "second" in request["messages"][1]["content"]:
            return 400, {"error": {"message": "This model's maximum context length is "
                                              "8192 tokens. However, you requested 9000."}}, {}
        return 200, completion("first answer"), {}

    ep.answer = answer
    policy = _policy(url)
    env, info = _env()
    for key in ("first", "second"):
        policy.start(key, env.episode.task, info["tools"], "P1")
    turns = [(key, [env.messages[0], {"role": "user", "content": f"{key} query"}])
             for key in ("first", "second")]
    with pytest.raises(ContextOverflow) as err:
        policy.act_many(turns)
    assert err.value.keys == ["second"]
    assert policy.finish("second")["turns"] == 0
    # the runner asks again for the rest: the reply already received is handed out,
    # not requested (or counted) twice
    assert policy.act_many(turns[:1]) == ["first answer"]
    assert len([r for r in ep.requests if "first" in r["messages"][1]["content"]]) == 1
    assert policy.finish("first")["turns"] == 1


def test_concurrency_is_bounded_and_replies_keep_their_episode(endpoint):
    ep, url = endpoint
    ep.answer = lambda req: (200, completion(f"answer to {req['messages'][1]['content']}"), {})
    policy = _policy(url, concurrency=2)
    env, info = _env()
    turns = []
    for k in range(6):
        policy.start(f"e{k}", env.episode.task, info["tools"], "P1")
        turns.append((f"e{k}", [env.messages[0], {"role": "user", "content": f"q{k}"}]))
    assert policy.act_many(turns) == [f"answer to q{k}" for k in range(6)]
    assert ep.peak <= 2


def test_model_is_read_from_the_endpoint_when_omitted(endpoint):
    _, url = endpoint
    policy = make_policy("openai", base_url=url, api_key_env="TOOLMAZE_TEST_KEY")
    assert policy.model == "tiny"


def test_each_episode_sends_its_own_seed(endpoint):
    """Repeats of one task (keys differing in the repeat index) sample with different
    seeds, and a rerun with the same seed sends the same ones; no seed, none sent."""
    ep, url = endpoint
    env, info = _env()

    def seeds(policy, keys: list[str]) -> list[Any]:
        ep.requests.clear()
        for key in keys:
            policy.start(key, env.episode.task, info["tools"], "P1")
            policy.act_many([(key, env.messages)])
            policy.finish(key)
        return [r.get("seed") for r in ep.requests]

    keys = ["C2-000/P1/standard/0", "C2-000/P1/standard/1"]
    first = seeds(_policy(url, seed=5), keys)
    assert all(isinstance(s, int) for s in first) and first[0] != first[1]
    assert seeds(_policy(url, seed=5), keys) == first
    assert seeds(_policy(url, seed=6), keys) != first
    assert seeds(_policy(url), keys) == [None, None]


def test_bad_openai_options_are_refused(monkeypatch):
    monkeypatch.delenv("TOOLMAZE_TEST_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match=r"set \$TOOLMAZE_TEST_KEY"):
        make_policy("openai", model="gpt", api_key_env="TOOLMAZE_TEST_KEY")
    with pytest.raises(ValueError, match=r"temperature must be a number in \[0, 2\]"):
        make_policy("openai", model="m", base_url="http://127.0.0.1:9/v1", temperature=3)
    with pytest.raises(ValueError, match="concurrency must be a positive integer"):
        make_policy("openai", model="m", base_url="http://127.0.0.1:9/v1", concurrency=0)
    with pytest.raises(ValueError, match="seed must be an integer"):
        make_policy("openai", model="m", base_url="http://127.0.0.1:9/v1", seed="7")
    with pytest.raises(ValueError, match=r"top_p must be a number in \[0, 1\]"):
        make_policy("openai", model="m", base_url="http://127.0.0.1:9/v1", top_p=1.5)
    with pytest.raises(ValueError, match=r"takes no option.*kv_reuse"):
        make_policy("openai", model="m", kv_reuse=True)
