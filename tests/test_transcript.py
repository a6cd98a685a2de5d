"""The conversation in both shapes: OpenAI wire format, and template-ready messages that
a real tool-capable chat template (TRL's Qwen2.5 template, rendered by transformers)
turns into single-encoded tool calls."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import gymnasium as gym
import pytest
from transformers.utils.chat_template_utils import render_jinja_template

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.transcript import template_messages

QWEN = Path(importlib.util.find_spec("trl").submodule_search_locations[0],
            "chat_templates", "qwen2_5.jinja").read_text(encoding="utf-8")
# a call the assistant made (the prompts also mention <tool_call> tags in prose)
TOOL_CALL = re.compile(r"<\|im_start\|>assistant\n<tool_call>\n(.*?)\n</tool_call>", re.S)


def _env_after_one_call():
    env = gym.make("ToolMaze-C1P0-v0")
    env.reset(seed=0)
    call = env.unwrapped.episode.task.default_path.calls[0]
    env.step(json.dumps({"name": call.tool, "arguments": call.args}))
    return env.unwrapped, call


def _render(messages, tools) -> str:
    (text,), _ = render_jinja_template([messages], tools=tools, chat_template=QWEN)
    return text


def _rendered_calls(messages, tools) -> list[dict]:
    return [json.loads(block) for block in TOOL_CALL.findall(_render(messages, tools))]


def test_template_messages_render_arguments_once():
    env, call = _env_after_one_call()
    (rendered,) = _rendered_calls(env.template_messages, env.tools)
    assert rendered == {"name": call.tool, "arguments": call.args}


def test_wire_format_is_what_renders_double_encoded():
    """Why the second shape exists: the wire format's string arguments come out as a
    JSON string inside the JSON call."""
    env, call = _env_after_one_call()
    (rendered,) = _rendered_calls(env.messages, env.tools)
    assert isinstance(rendered["arguments"], str)
    assert json.loads(rendered["arguments"]) == call.args


def test_wire_format_is_kept_and_not_mutated():
    env, call = _env_after_one_call()
    wire = env.messages[2]["tool_calls"][0]["function"]["arguments"]
    assert isinstance(wire, str) and json.loads(wire) == call.args
    templ = env.template_messages
    assert templ[2]["tool_calls"][0]["function"]["arguments"] == call.args
    assert env.messages[2]["tool_calls"][0]["function"]["arguments"] == wire
    assert [m["role"] for m in templ] == [m["role"] for m in env.messages]
    assert templ[3] == env.messages[3]  # the tool result is unchanged


def test_pool_offers_both_shapes():
    pool = gym.make_vec("ToolMaze-C1P0-v0", 2)
    pool.reset(seed=0)
    call = pool.envs[1].unwrapped.episode.task.default_path.calls[0]
    pool.step({1: json.dumps({"name": call.tool, "arguments": call.args})})
    assert pool.template_messages(1)[2]["tool_calls"][0]["function"]["arguments"] == call.args
    assert pool.template_messages(0) == pool.messages(0)  # no calls yet: same messages
    wire, templ = pool.batch()[1], pool.batch(template=True)[1]
    assert wire[1] is pool.messages(1) and templ[1] == pool.template_messages(1)
    assert wire[1] != templ[1] and templ[2] is wire[2] is pool.tools(1)


def test_rendered_tools_offer_finish_and_abort():
    env, _ = _env_after_one_call()
    text = _render(env.template_messages, env.tools)
    tools = text.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0].splitlines()
    names = [json.loads(t)["function"]["name"] for t in tools]
    assert names[-2:] == ["finish", "abort"] and len(names) == len(env.tools)


def test_already_decoded_and_empty_arguments_pass():
    msgs = [{"role": "assistant", "content": "", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "x", "arguments": {"k": 1}}},
        {"id": "b", "type": "function", "function": {"name": "y", "arguments": ""}}]}]
    out = template_messages(msgs)
    assert [c["function"]["arguments"] for c in out[0]["tool_calls"]] == [{"k": 1}, {}]
    assert out[0]["tool_calls"][0]["function"] is not msgs[0]["tool_calls"][0]["function"]


@pytest.mark.parametrize("arguments,why", [('{"k": ', "not valid JSON"),
                                           ("[1, 2]", "must be a JSON object")])
def test_undecodable_arguments_are_named(arguments, why):
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "a", "type": "function",
                 "function": {"name": "x", "arguments": arguments}}]}]
    with pytest.raises(ValueError, match=rf"messages\[1\]\.tool_calls\[0\].*{why}"):
        template_messages(msgs)
