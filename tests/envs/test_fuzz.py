"""Property test: nothing an agent sends makes the env raise or emit a bad observation.

Over 10k arbitrary actions across the ids: random text, control characters, lone
surrogates, malformed / huge / deeply nested JSON, wrong types, unknown tools, real
tools with arbitrary arguments, ``<tool_call>`` fragments, OpenAI ``tool_calls``
payloads (as text and as Python dicts/lists) and code fences. Every observation must
be a JSON list of chat messages that is also valid UTF-8 and stays small; every step
must be quick.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter

import gymnasium as gym
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolmaze_gym.envs import env_ids
from toolmaze_gym.envs.env import MAX_OBSERVATION_CHARS

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.corpus import load_corpus

IDS = env_ids()
TOOLS = sorted(load_corpus().tools)
MAX_OBS = 300_000  # generous: the largest seen is about 1/5 of this
ROLES = {"assistant", "tool"}

# -- strategies ------------------------------------------------------------------------

chars = st.characters(codec=None, exclude_categories=())  # control chars, surrogates, …
texts = st.text(chars, max_size=40)
scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=True, allow_infinity=True) | texts)
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=4)
                           | st.dictionaries(texts, c, max_size=4), max_leaves=12)
# "@@T@@" / "@@Pk@@" stand for a tool shown in the episode and its k-th parameter; they
# are filled in at step time, so many calls reach the simulator and the fault engine.
SHOWN, PARAM = "@@T@@", "@@P{}@@"
CALL = "@@CALL@@"  # a call of the task's solutions, with the right arguments
names = (st.just(SHOWN) | st.just(SHOWN) | st.sampled_from(TOOLS)
         | st.sampled_from(["finish", "abort", "", " finish "]) | texts | st.integers()
         | st.none() | st.lists(texts, max_size=2))


@st.composite
def arguments(draw):
    """Arguments as models send them: objects keyed by real parameter names or not."""
    kind = draw(st.integers(0, 5))
    if kind == 0:  # a JSON-encoded string (OpenAI style), maybe broken
        text = json.dumps(draw(json_values))
        return text[: draw(st.integers(0, len(text)))] if draw(st.booleans()) else text
    if kind == 1:
        return draw(json_values)
    keys = st.sampled_from([PARAM.format(k) for k in range(4)]) | st.sampled_from(
        ["city", "date", "amount", "currency", "id", "query", "limit"]) | texts
    return draw(st.dictionaries(keys, json_values, max_size=5))


@st.composite
def call_payloads(draw):
    name, args = draw(names), draw(arguments())
    shape = draw(st.integers(0, 4))
    if shape == 0:
        obj = {"name": name, "arguments": args}
    elif shape == 1:
        obj = {"tool_calls": [{"id": "c0", "type": "function",
                               "function": {"name": name, "arguments": args}}]}
    elif shape == 2:
        obj = {"tool_calls": draw(json_values)}
    elif shape == 3:
        obj = {"function": {"name": name, "parameters": args}}
    else:
        obj = [{"name": name, "args": args}]
    if draw(st.integers(0, 5)) == 0:  # the Python object a chat client hands back
        return obj
    text = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    wrap = draw(st.integers(0, 4))
    if wrap == 1:
        text = f"<tool_call>{text}</tool_call>"
    elif wrap == 2:
        text = f"Sure.\n```json\n{text}\n```"
    elif wrap == 3:
        text = draw(texts) + "<tool_call>" + text[: draw(st.integers(0, len(text)))]
    elif wrap == 4:
        text = text[: draw(st.integers(0, len(text)))]  # cut anywhere
    return text


@st.composite
def huge_or_deep(draw):
    n = draw(st.integers(1, 60_000))
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return "[" * n + "]" * n
    if kind == 1:
        return '{"name": "x", "arguments": ' + '{"a": ' * n + "1" + "}" * n + "}"
    if kind == 2:
        return '{"name": "x", "arguments": {"v": ' + "[" * min(n, 3000) + "]" * min(n, 3000) \
            + "}}"
    if kind == 3:
        return draw(st.sampled_from(["x", "\x00", "中", "\ud800", "<tool_call>", '"'])) * n
    if kind == 4:
        return json.dumps({"name": draw(st.sampled_from(TOOLS)),
                           "arguments": {"q": "y" * n}})
    return '{"name": "' + "n" * n + '", "arguments": {}}'


wrong_types = st.none() | st.integers() | st.binary(max_size=10) | json_values | st.just(...)
real_calls = st.sampled_from([CALL, CALL, f"<tool_call>{CALL}</tool_call>",
                              f"```json\n{CALL}\n```", f"{CALL} {CALL}", f"[{CALL}]"])
actions = st.one_of(real_calls, real_calls, real_calls, texts, st.text(max_size=300),
                    call_payloads(), call_payloads(), call_payloads(), huge_or_deep(),
                    wrong_types)

# -- the property -----------------------------------------------------------------------

ENVS: dict[str, gym.Env] = {}


def _env(env_id: str) -> gym.Env:
    if env_id not in ENVS:
        ENVS[env_id] = gym.make(env_id)
    return ENVS[env_id]


def _fill(action, base, k: int):
    """Put a shown tool (and its parameter names) where the markers are."""
    if isinstance(action, dict | list):  # a Python-object action: fill its JSON text
        text = json.dumps(action)
        return json.loads(_fill(text, base, k)) if "@@" in text else action
    if not isinstance(action, str) or "@@" not in action:
        return action
    calls = [c for p in base.episode.task.solutions for c in p.calls]
    c = calls[k % len(calls)]
    action = action.replace(CALL, json.dumps({"name": c.tool, "arguments": c.args}))
    tool = base.tools[k % len(base.tools)]["function"]
    params = list(tool["parameters"].get("properties", {})) or ["x"]
    action = action.replace(SHOWN, tool["name"])
    for j in range(4):
        action = action.replace(PARAM.format(j), params[j % len(params)])
    return action


def _reject(token: str):
    raise AssertionError(f"non-standard JSON constant {token} in an observation")


def _check_obs(obs: str, space) -> None:
    assert isinstance(obs, str) and space.contains(obs)
    assert len(obs) <= MAX_OBS
    obs.encode("utf-8")  # no lone surrogates
    msgs = json.loads(obs, parse_constant=_reject)  # strict JSON: no NaN / Infinity
    assert isinstance(msgs, list)
    for m in msgs:
        assert isinstance(m, dict) and isinstance(m.get("role"), str)
        assert isinstance(m.get("content"), str)
        if m["role"] == "tool":  # a tool's reply is itself a strict JSON object
            assert isinstance(json.loads(m["content"], parse_constant=_reject), dict)


def test_arbitrary_actions_never_break_the_env():
    stats = {"steps": 0, "episodes": 0, "max_obs": 0, "max_step_s": 0.0}
    statuses: Counter = Counter()

    @settings(max_examples=450, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(env_id=st.sampled_from(IDS), seed=st.integers(0, 2**31 - 1),
           batch=st.lists(actions, min_size=20, max_size=30))
    def episode(env_id, seed, batch):
        env = _env(env_id)
        obs, info = env.reset(seed=seed)
        _check_obs(obs, env.observation_space)
        stats["episodes"] += 1
        for k, action in enumerate(batch):
            action = _fill(action, env.unwrapped, k)
            t = time.perf_counter()
            obs, reward, terminated, truncated, info = env.step(action)
            dt = time.perf_counter() - t
            stats["steps"] += 1
            stats["max_step_s"] = max(stats["max_step_s"], dt)
            stats["max_obs"] = max(stats["max_obs"], len(obs))
            _check_obs(obs, env.observation_space)
            assert {m["role"] for m in json.loads(obs)} <= ROLES
            assert isinstance(reward, float) and math.isfinite(reward)
            assert isinstance(info, dict)
            statuses[info.get("status")] += 1
            if terminated or truncated:
                assert isinstance(info["grade"]["success"], bool)
                env.reset(seed=seed + 1)

    episode()
    print(stats, statuses.most_common())
    assert stats["steps"] >= 10_000
    # the actions reach every layer: parser errors, unknown tools, argument checks,
    # successful tool calls, injected faults, and episode endings
    assert {None, 200, 400, 404, 422} <= set(statuses) and statuses[200] >= 1000
    assert {429, 503, 504} & set(statuses)
    assert MAX_OBS <= MAX_OBSERVATION_CHARS
    assert stats["max_step_s"] < 2.0, stats  # very loose: typical steps take ~0.1 ms
