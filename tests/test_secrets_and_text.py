"""Issue 29, item 8: a key in the endpoint URL's path is written nowhere, and a record
is always UTF-8-encodable, whoever asks for it (the env, ``rollout``, a run)."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.runner._policies import Wrapped
from toolmaze_gym.agents.openai_policy import shown_url
from toolmaze_gym.agents.scripted import OracleAgent
from toolmaze_gym.redact import REDACTED, Redactor, endpoint_secrets
from toolmaze_gym.rollout import rollout
from toolmaze_gym.runner import RunConfig, Selection, run, run_redactor
from toolmaze_gym.tasks.suite import task_index

PATH_KEY = "plainsecretvalue99"
URL = f"http://127.0.0.1:9/ok/{PATH_KEY}/v1"


def _written(out: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(out.rglob("*"))
                     if p.is_file())


def test_a_key_in_the_url_path_is_written_nowhere(tmp_path):
    cfg = RunConfig("oracle", selection=Selection(levels=["C1"], limit=1, modes=["P0"]),
                    agent_options={"base_url": URL})
    run(cfg, tmp_path, progress=False, policy=Wrapped())
    written = _written(tmp_path)
    assert PATH_KEY not in written and f"/ok/{REDACTED}/v1" in written
    assert run(cfg, tmp_path, resume=True, progress=False, policy=Wrapped()).skipped == 1


def test_the_configured_key_is_redacted_wherever_it_appears(monkeypatch):
    monkeypatch.setenv("MY_KEY_VAR", "shortkey9")  # no token shape, no secret-like name
    cfg = RunConfig("openai", agent_options={"api_key_env": "MY_KEY_VAR"})
    assert run_redactor(cfg)("the server said: bad key shortkey9") == \
        f"the server said: bad key {REDACTED}"


@pytest.mark.parametrize(("url", "secrets"), [
    (URL, [PATH_KEY]),
    ("https://h/key/123e4567-e89b-12d3-a456-426614174000/v1",
     ["123e4567-e89b-12d3-a456-426614174000"]),
    ("http://bob:hunter2hunter2@h:8000/v1", ["hunter2hunter2"]),
    ("http://h/v1?code=Zq81mVw0TgHs4LpN", ["Zq81mVw0TgHs4LpN"]),
    # names, versions and deployments are not secrets
    ("http://127.0.0.1:8000/v1", []),
    ("https://api-inference.huggingface.co/models/meta-llama/Meta-Llama-3-8B-Instruct/v1", []),
    ("https://x.openai.azure.com/openai/deployments/gpt-4o-mini-2024-07-18", []),
    ("https://api.openai.com/v1", []),
])
def test_secret_looking_parts_of_an_endpoint_url(url, secrets):
    assert endpoint_secrets(url) == secrets


def test_messages_show_the_endpoint_without_a_key_in_its_path():
    assert shown_url(URL) == f"http://127.0.0.1:9/ok/{REDACTED}/v1"


def test_the_redactor_of_an_environment_base_url_covers_its_path(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", URL)
    assert PATH_KEY not in Redactor.from_environment()(f"POST {URL}/chat/completions")


# ---------------------------------------------------------------- UTF-8 records

SURROGATES = ["\ud800 alone", '{"name": "finish", "arguments": {"answer": "\\ud800"}}',
              '{"name": "finish", "arguments": {"answer": "\udfff"}}',
              '{"name": "calendar_\\udc00", "arguments": {"x\\ud800": 1}}']


def _encodable(rec: dict) -> None:
    json.dumps(rec, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate


@pytest.mark.parametrize("action", SURROGATES)
def test_an_env_record_is_always_utf8_encodable(action):
    env = gym.make("ToolMaze-C1P0-v0").unwrapped
    env.reset(seed=3)
    env.step('{"name": "no_such_tool\\ud83d", "arguments": {"q": "\\udead"}}')
    env.step(action)
    _encodable(env.record())


class _Says:
    """A direct-API agent whose answer holds a lone surrogate."""

    name = "says"

    def reset(self, *args) -> None:
        pass

    def act(self, messages) -> str:
        return '{"name": "finish", "arguments": {"answer": "done \\ud83d"}}'


def test_a_rollout_record_is_utf8_encodable():
    task = next(iter(task_index().values()))
    rec = rollout(task, "P0", _Says())
    _encodable(rec)
    assert rec["steps"][-1]["action"]["text"] == "done \ufffd"


def test_clean_records_are_unchanged_by_the_cleaning(sim):
    task = next(iter(task_index().values()))
    rec = rollout(task, "P1", OracleAgent(sim), sim=sim)
    assert rec["grade"]["success"]
    _encodable(rec)
