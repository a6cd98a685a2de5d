"""``hf`` and ``openai`` through a real ``transformers serve`` on 127.0.0.1.

The server serves the embedded SmolLM2-135M-Instruct from its converted checkpoint
folder (the GGUF loaded with ``gguf_file=`` and saved once by
``toolmaze_gym.agents.models``, with the tool-capable template); a wrapper records
the exact token ids of each prompt the server builds (``_serve_recording.py``). A
second server serves the same weights with SmolLM2's own template, which renders no
tools (as llama.cpp does with the GGUF as it ships). The tests stay quick: a handful
of requests, one new token each where the reply does not matter. Skipped with the
reason when the serving extra or the model is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

pytest.importorskip("openai")
pytest.importorskip("fastapi", reason="transformers serve needs transformers[serving]")
pytest.importorskip("uvicorn", reason="transformers serve needs transformers[serving]")

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.agents import make_policy
from toolmaze_gym.agents.errors import EndpointError
from toolmaze_gym.cli import main
from toolmaze_gym.runner import read_records

SERVE = Path(__file__).with_name("_serve_recording.py")


class Served:
    def __init__(self, url: str, record: Path, model: Path) -> None:
        self.url, self.record, self.model = url, record, model

    def last_prompt_ids(self) -> list[int]:
        return json.loads(self.record.read_text().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def _serve(model_dir: Path, tmp: Path) -> Iterator[Served]:
    """``transformers serve`` of ``model_dir`` on a free port, stopped on exit."""
    from transformers.utils.import_utils import is_serve_available

    if not is_serve_available():
        pytest.skip("transformers serve is unavailable: pip install 'transformers[serving]'")
    port, record = _free_port(), tmp / "prompts.jsonl"
    # one passive thread: a spinning OpenMP pool made each request 5x slower on shared cores
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "OMP_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"}
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, str(SERVE), str(model_dir), str(port),
                             str(record)], stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while not _up(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"transformers serve did not start: "
                            f"{(tmp / 'server.log').read_text()[-2000:]}")
            time.sleep(0.5)
        yield Served(url, record, model_dir)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory, smollm2_tokenizer_dir) -> Iterator[Served]:
    with _serve(smollm2_tokenizer_dir, tmp_path_factory.mktemp("served")) as server:
        yield server


# SmolLM2-135M-Instruct's own chat template, as its GGUF ships it: it renders no tools.
SMOLLM2_OWN_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging "
    "Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + "
    "message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|im_start|>assistant\n' }}{% endif %}")


@pytest.fixture(scope="module")
def served_own_template(tmp_path_factory, smollm2_tokenizer_dir) -> Iterator[Served]:
    """The same weights served with SmolLM2's own template (what llama.cpp does with the
    GGUF as it ships): the server takes the tools and renders none of them."""
    folder = tmp_path_factory.mktemp("own-template")
    for f in smollm2_tokenizer_dir.iterdir():
        if f.name != "chat_template.jinja":
            (folder / f.name).symlink_to(f)
    (folder / "chat_template.jinja").write_text(SMOLLM2_OWN_TEMPLATE, encoding="utf-8")
    with _serve(folder, tmp_path_factory.mktemp("served-own")) as server:
        yield server


@pytest.fixture(scope="module")
def hf_policies(served) -> dict[bool, Any]:
    """``hf`` on the very checkpoint the server serves, with and without compact tools."""
    return {compact: make_policy("hf", model=str(served.model), compact_tools=compact,
                                 max_new_tokens=1) for compact in (False, True)}


def _openai(served: Served, **options: Any) -> Any:
    return make_policy("openai", base_url=served.url, api_key_env="TOOLMAZE_NO_KEY",
                       max_retries=0, **{"temperature": 0, "max_tokens": 1, **options})


def _episode_after_a_broken_action_and_a_call():
    """A conversation holding what transports render differently: the env's answer to
    an unparseable action (a ``tool`` message answering no call) and a real call."""
    env = gym.make("ToolMaze-C1P0-v0").unwrapped
    _, info = env.reset(seed=0)
    env.step('<tool_call>{"name": broken</tool_call>')
    tool = info["tools"][0]["function"]["name"]
    env.step(json.dumps({"name": tool, "arguments": {}}))
    roles = [m["role"] for m in env.messages]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool"]
    return env, info


@pytest.mark.parametrize("compact", [False, True], ids=["schemas", "compact-tools"])
def test_hf_and_openai_show_the_model_the_same_tokens(served, hf_policies, compact):
    env, info = _episode_after_a_broken_action_and_a_call()
    hf = hf_policies[compact]
    openai = _openai(served, **({"compact_tools": True} if compact else {}))
    for policy in (hf, openai):
        policy.start("k", env.episode.task, info["tools"], "P0")
    try:
        ids = hf.prompt_ids("k", env.messages)
        openai.act_many([("k", env.messages)])
        assert served.last_prompt_ids() == ids  # token for token
        usage = openai.finish("k")
        assert usage["prompt_tokens"] == len(ids)  # and the server's count agrees
    finally:
        hf.finish("k")


def test_a_real_server_that_ignores_temperature_is_reported(served):
    """transformers serve leaves ``do_sample`` to the checkpoint's generation config,
    which says nothing: at temperature 1 with five seeds it answers greedily, five
    times alike, and the policy says so."""
    policy = _openai(served, temperature=1.0, max_tokens=6, seed=1)
    turn = [{"role": "user", "content": "Name a colour."}]
    for k in range(5):
        policy.start(f"e{k}", None, [], "P0")
        policy.act_many([(f"e{k}", turn)])
        policy.finish(f"e{k}")
    assert any("ignore temperature" in w for w in policy.warnings())


def test_a_model_the_server_does_not_serve_is_endpoint_trouble(served):
    policy = _openai(served, model="no-such-model")
    policy.start("k", None, [], "P0")
    with pytest.raises(EndpointError, match="no-such-model"):
        policy.act_many([("k", [{"role": "user", "content": "hi"}])])


def test_a_real_server_that_drops_the_tools_stops_the_run(served_own_template, tmp_path,
                                                          capsys):
    """The tools go out; the template renders none; the server's own count of the
    prompt gives it away, and nothing is booked as SmolLM2's. With --compact-tools
    the tools are in the system prompt, no tools field can be dropped, and the run
    plays."""
    argv = ["eval", "--agent", "openai", "--base-url", served_own_template.url,
            "--temperature", "0", "--max-tokens", "1", "--max-steps", "2", "--level", "C1",
            "--limit", "1", "--mode", "P0", "--quiet", "--no-report"]
    assert main([*argv, "--out", str(tmp_path / "schemas")]) == 3  # EXIT_ENDPOINT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "dropped the tools" in err, err
    assert read_records(tmp_path / "schemas") == []
    assert main([*argv, "--compact-tools", "--out", str(tmp_path / "compact")]) == 0
    assert len(read_records(tmp_path / "compact")) == 1
