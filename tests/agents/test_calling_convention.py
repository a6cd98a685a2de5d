"""One system prompt per calling convention (issue 30 item 3): an endpoint that gets the
tools natively is told to call them, not to write JSON; with ``--compact-tools`` the
model writes its calls as text and is told how. The run says which convention it used
(``convention`` in run.json and every record), and a run directory holds one convention."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from tests.agents._fake_endpoint import Reply, completion
from toolmaze_gym.cli import main
from toolmaze_gym.prompts import PROMPTS, system_prompt
from toolmaze_gym.runner import RunConfig, read_records

SMALL = ["--level", "C1", "--limit", "1", "--mode", "P0", "--quiet", "--no-report"]
TEXT_CALL = '<tool_call>{"name": "finish", "arguments": {"answer": "x"}}</tool_call>'


def _eval(url: str, out: Path, *extra: str) -> list[str]:
    return ["eval", "--agent", "openai", "--base-url", url, "--model", "tiny",
            "--out", str(out), *SMALL, *extra]


def _finish(_req: dict[str, Any]) -> Reply:
    return 200, completion(calls=[("finish", {"answer": "done"})], usage=(5000, 9)), {}


def test_native_tools_come_with_the_native_prompt(endpoint, tmp_path):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out)) == 0
    sent = ep.requests[0]
    system = sent["messages"][0]["content"]
    assert sent["tools"] and system.startswith(system_prompt("standard", None, "native"))
    assert "<tool_call>" not in system and "JSON object" not in system
    assert json.loads((out / "run.json").read_text())["convention"] == "native"
    assert read_records(out)[0]["convention"] == "native"


@pytest.mark.parametrize("flag", ["--compact-tools", "--brief-tools"])
def test_text_tools_come_with_todays_text_prompt(endpoint, tmp_path, flag):
    ep, url = endpoint
    ep.answer = lambda req: (200, completion(TEXT_CALL, usage=(900, 9)), {})
    out = tmp_path / "run"
    assert main(_eval(url, out, flag)) == 0
    sent = ep.requests[0]
    assert "tools" not in sent
    assert sent["messages"][0]["content"].startswith(PROMPTS["standard"])
    assert json.loads((out / "run.json").read_text())["convention"] == "text"
    assert read_records(out)[0]["convention"] == "text"


def test_a_run_directory_holds_one_calling_convention(endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out)) == 0
    capsys.readouterr()
    code = main(_eval(url, out, "--resume", "--compact-tools"))
    err = capsys.readouterr().err
    assert code == 2 and "convention" in err and "'native'" in err and "'text'" in err


def test_a_run_recorded_before_conventions_resumes_as_text_tools(endpoint, tmp_path, capsys):
    """run.json files written before this change name no convention; their prompt was
    the text-tools one, so a text-tools run resumes them and a native one is refused."""
    ep, url = endpoint
    ep.answer = lambda req: (200, completion(TEXT_CALL, usage=(900, 9)), {})
    out = tmp_path / "run"
    assert main(_eval(url, out, "--compact-tools")) == 0
    config = json.loads((out / "run.json").read_text())
    del config["convention"]
    (out / "run.json").write_text(json.dumps(config))
    assert main(_eval(url, out, "--compact-tools", "--resume")) == 0
    capsys.readouterr()
    assert main(_eval(url, out, "--resume")) == 2
    assert "another convention ('text' vs 'native')" in capsys.readouterr().err


@pytest.mark.parametrize(("agent", "options", "calling"), [
    ("openai", {}, "native"), ("openai", {"compact_tools": True}, "text"),
    ("openai", {"brief_tools": True}, "text"), ("hf", {}, "text"), ("oracle", {}, "text")])
def test_the_run_identity_names_the_convention(agent, options, calling):
    assert RunConfig(agent=agent, agent_options=options).identity()["convention"] == calling
