"""The README's MCP client configurations (Claude Desktop, Cursor, Claude Code) launch a
server that plays ToolMaze episodes: the server is started exactly as such a client
starts it (the configuration's command and arguments, the SDK's default environment, an
unrelated working directory) through the MCP SDK's stdio client, and the model side
learns the request and the clock only from what MCP carries (the ``get_task`` tool and
the ``task`` prompt), never from the server's description; it never receives a grade
or an expected value, while the run directory keeps the full graded records."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is in the [serve] extra")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.serving._episodes import oracle_calls
from toolmaze_gym.prompts import NATIVE, system_prompt
from toolmaze_gym.serving import EpisodeChoice, Session
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX

README = Path(__file__).resolve().parents[2] / "README.md"
TOOLMAZE = Path(sys.executable).with_name("toolmaze")
# the placeholders the README's snippets use for the user's own paths
README_COMMAND = "/home/you/venvs/toolmaze/bin/toolmaze"
README_RUNS = "/home/you/runs"
OUTCOME_KEYS = {"episode", "success", "reason", "next"}


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("### MCP clients: Claude Desktop, Cursor, Claude Code")
    return text[start:text.index("\n## ", start)]


def _block_after(marker: str, lang: str) -> str:
    section = _section()
    at = section.index(marker)
    return re.search(rf"```{lang}\n(.*?)```", section[at:], re.S).group(1)


def _launches() -> dict[str, tuple[str, list[str]]]:
    """Each client's (command, arguments) as its README snippet gives them."""
    out = {}
    for client, marker in (("claude-desktop", "claude_desktop_config.json"),
                           ("cursor", ".cursor/mcp.json")):
        entry = json.loads(_block_after(marker, "json"))["mcpServers"]["toolmaze"]
        assert set(entry) <= {"command", "args", "env"}, client
        out[client] = (entry["command"], entry["args"])
    words = shlex.split(_block_after("claude mcp add", "sh").replace("\\\n", " "))
    assert words[:5] == ["claude", "mcp", "add", "--transport", "stdio"]
    split = words.index("--")  # Claude Code: options, the name, then -- and the command
    assert words[split - 1] == "toolmaze" and all(w.startswith("-") or w in ("stdio", "user")
                                                  for w in words[3:split - 1])
    out["claude-code"] = (words[split + 1], words[split + 2:])
    return out


def _here(word: str, runs: Path) -> str:
    return word.replace(README_COMMAND, str(TOOLMAZE)).replace(README_RUNS, str(runs))


def _flag(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


def test_the_three_clients_launch_the_same_stdio_server():
    launches = _launches()
    assert set(launches) == {"claude-desktop", "cursor", "claude-code"}
    for client, (command, args) in launches.items():
        assert command == README_COMMAND, client  # GUI clients do not read your PATH
        assert args[:3] == ["serve", "--transport", "stdio"], client
        assert _flag(args, "--agent") == client and _flag(args, "--out").startswith(
            README_RUNS + "/"), client
    same = {json.dumps([a for a in args if a not in (_flag(args, "--agent"),
                                                     _flag(args, "--out"))])
            for _, args in launches.values()}
    assert len(same) == 1


async def _model_side(params: StdioServerParameters, plans: list) -> list[dict]:
    """Play one episode per plan in one launch, as a model sees it: the tool list, then
    the task from ``get_task`` (which the tool list says to call first) and the ``task``
    prompt; ``plan(seen)`` gives the calls. Returns what each episode received."""
    episodes = []
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        for plan in plans:
            tools = (await s.list_tools()).tools
            first = next(t for t in tools if "call this first" in t.description.lower())
            task = await s.call_tool(first.name, {})
            prompt = await s.get_prompt("task")
            seen = {"task": json.loads(task.content[0].text),
                    "prompt": [m.content.text for m in prompt.messages]}
            results = [await s.call_tool(n, a) for n, a in plan(seen)]
            episodes.append({"seen": seen, "results": results, "tools": tools})
    return episodes


def _oracle_for(level: str, mode: str, seed: int):
    """A model side that plays the oracle's calls for the task the server says it
    plays, after checking that what it was told is that task's request and clock."""
    session = Session(EpisodeChoice.from_mapping({"level": level, "mode": mode, "seed": seed}))
    want, now = session.opening, session.env.sim.world.now

    def plan(seen):
        assert seen["task"]["request"] == want["request"]
        assert seen["task"]["now"] == want["clock"]
        native = system_prompt(want["prompt"], now, NATIVE)  # MCP carries the tools
        assert seen["task"]["instructions"] == native and "<tool_call>" not in native
        assert want["request"] in seen["prompt"] and any(
            want["clock"] in text for text in seen["prompt"])
        return [(n, json.loads(a)) for n, a in oracle_calls(level, mode, seed)]
    return plan


def _giving_up(level: str, mode: str, seed: int):
    base = _oracle_for(level, mode, seed)
    return lambda seen: [base(seen)[0], ("abort", {"reason": "I give up"})]


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [str(value)] if isinstance(value, str | int | float) else []


def test_claude_desktops_configuration_plays_episodes_that_walk_the_level(tmp_path):
    command, args = _launches()["claude-desktop"]
    runs = tmp_path / "runs"
    runs.mkdir()  # the README's runs folder, which the user has
    params = StdioServerParameters(command=_here(command, runs),
                                   args=[_here(a, runs) for a in args], cwd=tmp_path)
    level, mode = _flag(args, "--level"), _flag(args, "--mode")
    first = asyncio.run(_model_side(params, [_oracle_for(level, mode, 0),
                                             _giving_up(level, mode, 1)]))
    again = asyncio.run(_model_side(params, [_giving_up(level, mode, 2)]))
    out = Path(_here(_flag(args, "--out"), runs))
    records = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in records] == [f"{ID_PREFIX}-{level.lower()}-000{k}"
                                               for k in range(3)]
    assert [r["grade"]["success"] for r in records] == [True, False, False]
    run_json = json.loads((out / "run.json").read_text())
    assert {r["convention"] for r in records} == {run_json["convention"]} == {NATIVE}
    for episode, rec in zip([*first, *again], records, strict=True):
        ending = episode["results"][-1]
        outcome = json.loads(ending.content[-1].text)
        assert set(outcome) <= OUTCOME_KEYS and outcome["success"] == rec["grade"]["success"]
        received = json.dumps([[b.text for b in r.content] for r in episode["results"]])
        assert '"grade' not in received and "expected" not in received
        told = "\n".join(b.text for b in ending.content)
        hidden = {s for m in rec["grade"]["missing"] for s in _strings(m.get("expected"))
                  if len(s) > 3}
        assert rec["grade"]["missing"] or rec["grade"]["success"]
        assert not [s for s in hidden if s in told]
