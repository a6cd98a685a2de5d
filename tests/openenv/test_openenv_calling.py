"""The system prompt an OpenEnv client gets (issue 30 item 3): the tools travel as
schemas (``tool_schemas``, MCP) and come back as actions, so ``toolmaze serve
--protocol openenv`` words the prompt for native tool calling, as eval does for an
endpoint that gets the tools in the request, and its records say ``native``. A trainer
whose model writes its calls as text (the GRPO rows' prompt) serves ``--calling text``
and gets today's text-tools prompt, recorded as ``text``."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys

import pytest

pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")

from openenv.core.env_server.mcp_types import CallToolAction
from toolmaze_gym.openenv import ToolMazeEnv

from tests.serving._server import free_port, serving
from toolmaze_gym.prompts import PROMPTS, system_prompt

CLI = [sys.executable, "-m", "toolmaze_gym.cli"]


async def _opening(url: str) -> object:
    """One episode's opening observation (the episode aborted, so it is recorded)."""
    async with ToolMazeEnv(base_url=url) as env:
        opening = (await env.reset(level="C1", mode="P0", seed=0)).observation
        await env.step(CallToolAction(tool_name="abort", arguments={"reason": "x"}))
        return opening


def _check(opening, run, calling: str) -> None:
    system = opening.system_prompt
    assert system.startswith(system_prompt("standard", None, calling))
    assert opening.clock.replace("Z", "") in system
    if calling == "native":
        assert "<tool_call>" not in system and "JSON" not in system
    else:
        assert system.startswith(PROMPTS["standard"]) and "<tool_call>" in system
    assert json.loads((run / "run.json").read_text())["convention"] == calling
    records = [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]
    assert [r["convention"] for r in records] == [calling]


@pytest.mark.parametrize(("flags", "calling"), [([], "native"), (["--calling", "text"], "text")])
def test_toolmaze_serve_openenv_words_the_prompt_for_its_calling_convention(
        tmp_path, flags, calling):
    port, run = free_port(), tmp_path / "run"
    proc = subprocess.Popen([*CLI, "serve", "--protocol", "openenv", "--out", str(run),
                             "--port", str(port), *flags], stderr=subprocess.PIPE, text=True)
    try:
        assert "openenv on http://127.0.0.1" in proc.stderr.readline()
        opening = asyncio.run(_opening(f"http://127.0.0.1:{port}"))
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err
    _check(opening, run, calling)


@pytest.mark.parametrize(("environ", "calling"), [({}, "native"),
                                                  ({"TOOLMAZE_CALLING": "text"}, "text")])
def test_the_uvicorn_app_takes_the_convention_from_the_environment(
        tmp_path, monkeypatch, environ, calling):
    from toolmaze_gym.openenv.server import app as server_app

    run = tmp_path / "run"
    monkeypatch.setenv("TOOLMAZE_OUT", str(run))
    monkeypatch.delenv("TOOLMAZE_CALLING", raising=False)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    app = server_app._from_environment()
    with serving(app, free_port()) as url:
        opening = asyncio.run(_opening(url))
    _check(opening, run, calling)


def test_a_bad_convention_in_the_environment_is_named(tmp_path, monkeypatch):
    from toolmaze_gym.openenv.server import app as server_app

    monkeypatch.setenv("TOOLMAZE_OUT", str(tmp_path / "run"))
    monkeypatch.setenv("TOOLMAZE_CALLING", "fc")
    with pytest.raises(ValueError, match=r"TOOLMAZE_CALLING: .*'fc'; choose from text, native"):
        server_app._from_environment()
    assert not (tmp_path / "run").exists()


def test_text_calling_is_refused_for_mcp_in_one_line(tmp_path):
    """An MCP client always gives its model the tools as schemas."""
    out = subprocess.run([*CLI, "serve", "--out", str(tmp_path / "r"), "--calling", "text"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1, out.stderr
    assert "--calling text" in out.stderr and "openenv" in out.stderr
    assert not (tmp_path / "r").exists()
