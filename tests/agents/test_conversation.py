"""One conversation whatever the transport: ``hf`` renders exactly the messages (and
tool documentation) the ``openai`` policy sends, so a model's figures never depend on
how it is served; sampling options are kept and recorded alike."""

from __future__ import annotations

import argparse
import json

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.agents._fake_endpoint import completion
from toolmaze_gym.agents import make_policy
from toolmaze_gym.agents.conversation import model_messages
from toolmaze_gym.cli import build_parser
from toolmaze_gym.cli.common import UsageError
from toolmaze_gym.cli.eval import agent_options
from toolmaze_gym.transcript import template_messages


def _spec(tool: dict):
    from toolmaze_gym.corpus import load_corpus

    return load_corpus().tools[tool["function"]["name"]]


def _broken_then_call():
    env = gym.make("ToolMaze-C1P0-v0").unwrapped
    _, info = env.reset(seed=0)
    env.step('<tool_call>{"name": broken</tool_call>')
    env.step(json.dumps({"name": info["tools"][0]["function"]["name"], "arguments": {}}))
    return env, info


def test_an_answer_to_no_call_becomes_a_user_message_and_real_results_stay_tool_messages():
    env, _ = _broken_then_call()
    shown = model_messages(env.messages)
    assert [m["role"] for m in shown] == ["system", "user", "assistant", "user", "assistant",
                                          "tool"]
    assert shown[3]["content"] == f"[error response] {env.messages[3]['content']}"
    assert shown[5] == env.messages[5]  # the result of a real call is left alone


@pytest.mark.parametrize(("compact", "brief"), [(False, False), (True, False), (False, True)],
                         ids=["schemas", "compact-tools", "brief-tools"])
def test_hf_renders_the_very_request_openai_sends(endpoint, tiny_model, compact, brief):
    pytest.importorskip("openai")
    ep, url = endpoint
    ep.answer = lambda req: (200, completion("ok"), {})
    env, info = _broken_then_call()
    hf = make_policy("hf", model=str(tiny_model), compact_tools=compact, brief_tools=brief,
                     max_new_tokens=1)
    openai = make_policy("openai", base_url=url, model="tiny", compact_tools=compact,
                         brief_tools=brief, temperature=0)
    for policy in (hf, openai):
        policy.start("k", env.episode.task, info["tools"], "P0")
    openai.act_many([("k", env.messages)])
    sent = ep.requests[-1]
    # what a server does with the request: its chat template over the messages and tools
    served = hf.tokenizer.apply_chat_template(
        template_messages(sent["messages"]), tools=sent.get("tools"), tokenize=False,
        add_generation_prompt=True, chat_template=hf.template)
    assert hf.prompt_text("k", env.messages) == served
    assert ("tools" in sent) is not (compact or brief)
    fields = "Returns: " + ", ".join(f.name for f in _spec(info["tools"][0]).returns) + "."
    assert (fields in served) is brief  # brief docs name the fields without their glosses
    assert "[error response]" in served and served.count("<tool_response>") == 1
    hf.finish("k")


def _options(*argv: str) -> dict:
    parser = build_parser()
    ns = parser.parse_args(["eval", *argv])
    assert isinstance(ns, argparse.Namespace)
    return agent_options(ns)


def test_brief_tools_is_an_option_of_the_model_agents_only():
    assert _options("--agent", "hf", "--brief-tools") == {"brief_tools": True}
    assert _options("--agent", "openai", "--brief-tools") == {"brief_tools": True}
    with pytest.raises(UsageError, match="--brief-tools does not apply to the oracle agent"):
        _options("--agent", "oracle", "--brief-tools")


def test_zero_is_an_option_like_any_other():
    assert _options("--agent", "hf", "--temperature", "0", "--seed", "0") == \
        {"temperature": 0.0, "seed": 0}
    assert _options("--agent", "openai", "--temperature", "0", "--seed", "0", "--top-p",
                    "0", "--max-tokens", "5") == \
        {"temperature": 0.0, "seed": 0, "top_p": 0.0, "max_tokens": 5}
    assert _options("--agent", "random", "--seed", "0") == {"seed": 0}
    assert _options("--agent", "hf") == {}


def test_hf_records_its_sampling_and_refuses_a_bad_top_p(tiny_model):
    policy = make_policy("hf", model=str(tiny_model), temperature=0.7, top_p=0.9, seed=0,
                         max_new_tokens=3)
    assert policy.sampling == {"temperature": 0.7, "top_p": 0.9, "seed": 0, "max_tokens": 3}
    assert policy._generation([])["top_p"] == 0.9
    with pytest.raises(ValueError, match=r"top_p must be a number in \(0, 1\]"):
        make_policy("hf", model=str(tiny_model), top_p=0)
