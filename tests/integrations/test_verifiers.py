"""The verifiers taskset (integrations/verifiers) scores an episode as ToolMaze's grader.

verifiers 0.4 cannot share the project's venv (it pins mcp 2 and openai 2), so these
tests skip there; ``make verifiers-test`` runs them in a venv of their own. A scripted
episode goes through the taskset's real pieces: the rows ``vf.load_taskset`` loads, the
rollout's MCP tool server (registered on an ``MCPServer``, called through it), a
``vf.Trace`` of the messages the model would have exchanged, and ``Task.score``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

vf = pytest.importorskip("verifiers.v1", reason="verifiers is not installed here (it needs "
                         "its own venv: make verifiers-test)")
pytest.importorskip("toolmaze_verifiers", reason="integrations/verifiers is not installed")

from mcp.server.mcpserver import MCPServer  # noqa: E402
from pydantic import ValidationError  # noqa: E402
from verifiers.v1.graph import MessageNode  # noqa: E402
from verifiers.v1.types import (  # noqa: E402
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from verifiers.v1.utils.loaders import taskset_config_type  # noqa: E402

from tests.integrations._scripted_endpoint import ScriptedEndpoint  # noqa: E402
from tests.serving._episodes import action_text, oracle_calls  # noqa: E402

TASKSET = "toolmaze-verifiers"


def _task(level: str, mode: str, seed: int, **options: Any):
    config = taskset_config_type(TASKSET)(id=TASKSET, level=level, mode=mode, n=seed + 1,
                                          **options)
    return list(vf.load_taskset(config))[seed]


def _gym(level: str, mode: str, seed: int, actions: list[str]) -> tuple[dict, float, list[str]]:
    """The record, episode return and tool message texts ``gym.make`` gives for
    ``actions``; the record's ``tools`` are the names ``reset`` offered."""
    env = gym.make(f"ToolMaze-{level}{mode}-v0")
    _, info = env.reset(seed=seed)
    total, texts = 0.0, []
    for action in actions:
        before = len(env.unwrapped.messages)
        _, reward, ended, truncated, _ = env.step(action)
        total += reward
        texts += [m["content"] for m in env.unwrapped.messages[before:] if m["role"] == "tool"]
        if ended or truncated:
            break
    rec = {**env.unwrapped.record(), "tools": [t["function"]["name"] for t in info["tools"]]}
    env.close()
    return rec, total, texts


async def _serve(task, calls: list[tuple[str, str]]) -> tuple[list[str], list[str], list[bool]]:
    """Plays ``calls`` through the rollout's tool server; its tool names, the texts back
    and their error flags."""
    (toolset,) = type(task).toolsets(task.config)
    await toolset.setup_task(task.data)
    mcp = MCPServer("toolmaze")
    toolset.register(mcp)
    names = [t.name for t in await mcp.list_tools()]
    results = [await mcp.call_tool(name, json.loads(args)) for name, args in calls]
    return names, [r.content[0].text for r in results], [bool(r.is_error) for r in results]


def _trace(task, turns: list[tuple[list[tuple[str, str]], list[str], str | None]]) -> Any:
    """A verifiers trace: the opening, then per turn the model's calls with the texts
    that came back, or its plain reply."""
    nodes = [MessageNode(parent=None, message=SystemMessage(content=task.data.system_prompt),
                         sampled=False),
             MessageNode(parent=0, message=UserMessage(content=task.data.prompt), sampled=False)]

    def add(message, sampled):
        nodes.append(MessageNode(parent=len(nodes) - 1, message=message, sampled=sampled))

    n = 0
    for calls, texts, reply in turns:
        ids = [f"call_{n + i}" for i in range(len(calls))]
        n += len(calls)
        made = [ToolCall(id=i, name=name, arguments=args)
                for i, (name, args) in zip(ids, calls, strict=True)]
        add(AssistantMessage(content=reply, tool_calls=made or None), True)
        for i, text in zip(ids, texts, strict=True):
            add(ToolMessage(tool_call_id=i, content=text), False)
    return vf.Trace(agent=vf.AgentInfo(config=vf.AgentConfig()),
                    task=vf.TraceTask(type=type(task).__name__, data=task.data), nodes=nodes)


@pytest.mark.parametrize("level, mode, seed", [("C2", "P2", 3), ("C3", "P4", 1)])
def test_a_scripted_episode_scores_as_the_grader(level, mode, seed):
    task = _task(level, mode, seed)
    calls = list(oracle_calls(level, mode, seed))
    names, texts, errors = asyncio.run(_serve(task, calls))
    ref, ref_return, ref_texts = _gym(level, mode, seed, [action_text(n, json.loads(a))
                                                          for n, a in calls])
    assert names == ref["tools"]  # the task's own tools, then finish and abort
    # every response, fault included, reached the model exactly as the env returns it;
    # the ending call (no tool message in the env) gets the serving layer's notice
    assert texts[:-1] == ref_texts
    assert json.loads(texts[-1]) == {"status": "episode ended", "ending": "finish"}
    if mode == "P2":
        assert any(errors)  # the explicit fault came back as an error body
    # one call per turn, then the model's closing words after the episode ended
    turns = [([c], [t], None) for c, t in zip(calls, texts, strict=True)]
    trace = _trace(task, [*turns, ([], [], "Done.")])
    assert asyncio.run(task.hooks("stop")[0](trace))  # the answered finish ends the rollout
    asyncio.run(task.score(trace))
    assert trace.rewards["toolmaze_reward"].score == pytest.approx(ref_return)
    assert trace.metrics["success"] == float(ref["grade"]["success"]) == 1.0
    assert trace.metrics["replay_match"] == 1.0
    assert trace.info["toolmaze"]["grade"] == ref["grade"]


def test_mistakes_and_a_prose_ending_are_graded_as_in_the_env():
    level, mode, seed = "C1", "P1", 2
    task = _task(level, mode, seed)
    first = oracle_calls(level, mode, seed)[0]
    calls = [(first[0], '{"nonsense_field": 1}'), first]
    _, texts, errors = asyncio.run(_serve(task, calls))
    assert errors[0] and "nonsense_field" in texts[0]  # the env's own 400/422, not the SDK's
    prose = "I could not finish this, sorry."
    turns = [([c], [t], None) for c, t in zip(calls, texts, strict=True)]
    trace = _trace(task, [*turns, ([], [], prose)])
    asyncio.run(task.score(trace))
    ref, ref_return, ref_texts = _gym(level, mode, seed, [
        action_text(n, json.loads(a)) for n, a in calls] + [prose])
    assert texts == ref_texts
    assert trace.info["toolmaze"]["grade"] == ref["grade"]
    assert trace.info["toolmaze"]["grade"]["ended_by"] == ref["grade"]["ended_by"]
    assert trace.rewards["toolmaze_reward"].score == pytest.approx(ref_return)
    assert trace.metrics["success"] == 0.0


def test_a_rollout_that_stops_early_is_graded_like_a_truncation():
    task = _task("C1", "P0", 0)
    first = oracle_calls("C1", "P0", 0)[0]
    _, texts, _ = asyncio.run(_serve(task, [first]))
    trace = _trace(task, [([first], texts, None)])
    assert not asyncio.run(task.hooks("stop")[0](trace))
    asyncio.run(task.score(trace))
    assert trace.info["toolmaze"]["grade"]["ended_by"] != "finish"
    assert trace.metrics["success"] == 0.0


def test_rows_are_the_envs_openings_and_rollouts_share_nothing():
    a, b = _task("C2", "P2", 3), _task("C2", "P2", 3)
    env = gym.make("ToolMaze-C2P2-v0", calling="native")  # the harness sends MCP tools
    env.reset(seed=3)
    system, user = env.unwrapped.messages[:2]
    assert (a.data.system_prompt, a.data.prompt) == (system["content"], user["content"])
    (s1,), (s2,) = type(a).toolsets(a.config), type(b).toolsets(b.config)
    asyncio.run(s1.setup_task(a.data))
    asyncio.run(s2.setup_task(b.data))
    s1.session.call("abort", {"reason": "x"})
    assert s1.session.done and not s2.session.done


@pytest.mark.parametrize("variant", ["standard", "failure_aware"])
def test_the_row_prompt_speaks_of_calling_tools_not_of_json(variant):
    """The model gets the tools natively (MCP, as tool schemas), so the system prompt
    is the native-tools wording (issue 30 item 3), with the world's clock."""
    from toolmaze_gym.prompts import system_prompt

    system = _task("C1", "P2", 0, prompt=variant).data.system_prompt
    assert system.startswith(system_prompt(variant, None, "native"))
    assert "<tool_call>" not in system and "JSON" not in system and "(UTC)" in system


@pytest.mark.parametrize("given, words", [({"level": "C7"}, "unknown level"),
                                          ({"mode": "P9"}, "unknown mode"),
                                          ({"split": "test"}, "unknown split"),
                                          ({"prompt": "shouty"}, "unknown prompt"),
                                          ({"n": 0}, "at least 1")])
def test_bad_taskset_options_get_a_clear_error(given, words):
    with pytest.raises(ValidationError, match=words):
        taskset_config_type(TASKSET)(id=TASKSET, **given)


def test_the_default_harness_is_the_plain_chat_loop():
    harness = vf.default_agent_harness(TASKSET)
    assert harness.id == TASKSET
    from toolmaze_verifiers import ToolMazeHarness
    from verifiers.v1.harnesses.null import NullHarness
    assert issubclass(ToolMazeHarness, NullHarness)


@pytest.mark.slow
def test_vf_eval_plays_an_episode_against_an_endpoint_and_scores_it(tmp_path):
    """The real ``vf-eval``: the taskset's default harness (verifiers' chat program,
    prepared by uv), the rollout's MCP tool server, a scripted OpenAI-compatible
    endpoint playing the oracle; the trace's reward is the env's."""
    vf_eval = Path(sys.executable).with_name("vf-eval")
    if shutil.which("uv", path=os.pathsep.join([str(vf_eval.parent), os.environ["PATH"]])) is None:
        pytest.skip("verifiers' chat harness needs uv (make verifiers-test installs it)")
    level, mode, seed = "C2", "P2", 3
    calls = oracle_calls(level, mode, seed)
    endpoint = ScriptedEndpoint(calls)
    with endpoint as url:
        run = subprocess.run(
            [str(vf_eval), TASKSET, "-m", "scripted-oracle", "--client.base-url", url,
             "--client.api-key-var", "SCRIPTED_KEY", "--env.taskset.level", level,
             "--env.taskset.mode", mode, "--env.taskset.n", str(seed + 1),
             "--select.include.idx", str(seed), "--env.agent.runtime.type", "subprocess",
             "--env.agent.max-turns", "30", "--no-push", "-c", "1", "-o", str(tmp_path)],
            capture_output=True, text=True, timeout=600,
            env={**os.environ, "SCRIPTED_KEY": "none",
                 "PATH": os.pathsep.join([str(vf_eval.parent), os.environ["PATH"]])})
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    (line,) = next(tmp_path.glob("*/traces.jsonl")).read_text().splitlines()
    (trace,) = json.loads(line)["traces"]
    assert not trace["errors"], trace["errors"]
    ref, ref_return, ref_texts = _gym(level, mode, seed, [action_text(n, json.loads(a))
                                                          for n, a in calls])
    assert endpoint.requests[0]["tools"] and [
        t["function"]["name"] for t in endpoint.requests[0]["tools"]] == ref["tools"]
    texts = [n["message"]["content"] for n in trace["nodes"] if n["message"]["role"] == "tool"]
    assert texts[:-1] == ref_texts
    assert trace["rewards"]["toolmaze_reward"]["score"] == pytest.approx(ref_return)
    assert trace["metrics"]["success"] == 1.0 and trace["metrics"]["replay_match"] == 1.0
    assert trace["info"]["toolmaze"]["grade"] == ref["grade"]
