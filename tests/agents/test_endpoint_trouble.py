"""Endpoint trouble is never a model score: a dead endpoint, an authentication failure,
a server that keeps failing, a malformed reply or a server that drops the tools stop
the run with one line and a non-zero exit, nothing is booked as the model's, and
``--resume`` plays those episodes once the endpoint works. Options mean what they
say: every sampling option given is sent (zero included) and recorded, and a server
that ignores sampling is reported."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from tests.agents._fake_endpoint import FAST, Reply, completion
from toolmaze_gym.cli import main
from toolmaze_gym.runner import read_records

SMALL = ["--level", "C1", "--limit", "1", "--quiet", "--no-report"]


def _eval(url: str, out: Path, *extra: str) -> list[str]:
    return ["eval", "--agent", "openai", "--base-url", url, "--model", "tiny",
            "--out", str(out), *SMALL, *extra]


def _one_line_failure(capsys, argv: list[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code not in (0, None), err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    return lines[0]


def _finish(_req: dict[str, Any]) -> Reply:
    return 200, completion(calls=[("finish", {"answer": "done"})], usage=(5000, 10)), {}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_endpoint_stops_the_run_not_a_tsr_of_zero(tmp_path, capsys):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    line = _one_line_failure(capsys, _eval(url, tmp_path / "run", "--mode", "P0",
                                           "--option", "max_retries=0"))
    assert "endpoint" in line and "TSR" not in line
    assert read_records(tmp_path / "run") == []  # nothing booked as the model's


def test_an_authentication_failure_stops_the_run_after_one_request(endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = lambda req: (401, {"error": {"message": "invalid api key"}}, {})
    line = _one_line_failure(capsys, _eval(url, tmp_path / "run", "--mode", "P0,P1"))
    assert "401" in line or "invalid api key" in line
    assert len(ep.requests) <= 2  # one per episode in flight, never retried
    assert read_records(tmp_path / "run") == []


def test_repeated_server_errors_stop_the_run_and_resume_plays_the_episodes(endpoint, tmp_path,
                                                                            capsys):
    ep, url = endpoint
    ep.answer = lambda req: (500, {"error": {"message": "template error"}}, FAST)
    out = tmp_path / "run"
    line = _one_line_failure(capsys, _eval(url, out, "--mode", "P0,P1",
                                           "--option", "max_retries=2"))
    assert "500" in line or "template error" in line
    assert read_records(out) == []
    ep.answer = _finish
    assert main(_eval(url, out, "--mode", "P0,P1", "--resume",
                      "--option", "max_retries=2")) == 0
    recs = read_records(out)
    assert len(recs) == 2 and not any(r.get("cut") for r in recs)


def test_a_malformed_reply_that_stays_malformed_is_endpoint_trouble(endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = lambda req: (200, {"choices": None}, {})
    line = _one_line_failure(capsys, _eval(url, tmp_path / "run", "--mode", "P0",
                                           "--option", "max_retries=1"))
    assert "malformed" in line or "no choices" in line
    assert read_records(tmp_path / "run") == []


def test_a_server_that_drops_the_tools_is_caught_by_its_prompt_tokens(endpoint, tmp_path,
                                                                      capsys):
    """llama.cpp with a template that renders no tools answers, but the prompt it counts
    is far too short to hold the tool schemas sent."""
    ep, url = endpoint
    ep.answer = lambda req: (200, completion("I cannot see any tools.", usage=(90, 8)), {})
    line = _one_line_failure(capsys, _eval(url, tmp_path / "run", "--mode", "P0"))
    assert "tools" in line and "90" in line
    assert read_records(tmp_path / "run") == []


def test_compact_tools_go_in_the_system_prompt_and_no_tools_field(endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = lambda req: (200, completion("<tool_call>{\"name\": \"finish\", \"arguments\": "
                                             "{\"answer\": \"x\"}}</tool_call>",
                                             usage=(900, 9)), {})
    assert main(_eval(url, tmp_path / "run", "--mode", "P0", "--compact-tools")) == 0
    first = ep.requests[0]
    assert "tools" not in first
    assert first["messages"][0]["role"] == "system"
    assert "# Tools" in first["messages"][0]["content"]
    assert "## finish" in first["messages"][0]["content"]


# ---------------------------------------------------------------- options


def test_zero_sampling_options_are_sent_and_recorded(endpoint, tmp_path):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out, "--mode", "P0", "--temperature", "0", "--seed", "0",
                      "--top-p", "0.5", "--max-tokens", "64")) == 0
    sent = ep.requests[0]
    assert sent["temperature"] == 0 and sent["top_p"] == 0.5 and sent["max_tokens"] == 64
    assert isinstance(sent["seed"], int)  # seed 0, combined with the episode key
    want = {"temperature": 0, "top_p": 0.5, "seed": 0, "max_tokens": 64}
    config = json.loads((out / "run.json").read_text())
    assert {k: config["agent_options"].get(k) for k in want} == want
    assert {k: config["sampling"][k] for k in want} == want
    (rec,) = read_records(out)
    assert {k: rec["sampling"][k] for k in want} == want


def test_options_not_given_are_not_sent_and_recorded_as_the_servers(endpoint, tmp_path):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out, "--mode", "P0")) == 0
    sent = ep.requests[0]
    assert "top_p" not in sent and "seed" not in sent
    sampling = json.loads((out / "run.json").read_text())["sampling"]
    assert sampling["top_p"] is None and sampling["seed"] is None
    assert sampling["temperature"] == sent["temperature"]


def test_a_server_that_ignores_sampling_is_reported(endpoint, tmp_path, capsys):
    """Five modes open with the same conversation; sampled at temperature 1 with five
    different seeds, a server that samples gives different replies, one that ignores
    temperature and seed gives the same one five times."""
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out, "--temperature", "1", "--seed", "3")) == 0
    err = capsys.readouterr().err
    assert "warning: the endpoint may ignore temperature" in err
    warnings = json.loads((out / "run.json").read_text())["warnings"]
    assert any("ignore" in w for w in warnings)

    replies = iter(range(10**6))
    ep.answer = lambda req: (200, completion(calls=[("finish", {"answer": f"{next(replies)}"})],
                                             usage=(5000, 9)), {})
    assert main(_eval(url, tmp_path / "sampled", "--temperature", "1", "--seed", "3")) == 0
    assert "warning:" not in capsys.readouterr().err
    assert not json.loads((tmp_path / "sampled" / "run.json").read_text()).get("warnings")


def test_the_stop_message_shows_no_credentials_from_the_url(endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = lambda req: (401, {"error": {"message": "invalid api key"}}, {})
    secret = url.replace("http://", "http://user:sk-secret-42@")
    line = _one_line_failure(capsys, _eval(secret, tmp_path / "run", "--mode", "P0"))
    assert "sk-secret-42" not in line and "127.0.0.1" in line
