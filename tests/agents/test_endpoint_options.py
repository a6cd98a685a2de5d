"""What a user of a real endpoint needs (issue 30): the sampling check judges what the
model decided, not the ids a server invents; reasoning models get the token field
they accept; provider options (``--extra-body``) reach the endpoint and the run
record, without secrets; and the exit status docs/endpoints.md promises is the one
``toolmaze eval`` returns."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from tests.agents._fake_endpoint import Reply, completion
from toolmaze_gym.cli import main
from toolmaze_gym.runner import EXIT_ENDPOINT, read_records

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--level", "C1", "--limit", "1", "--quiet", "--no-report"]


def _eval(url: str, out: Path, *extra: str, model: str = "tiny") -> list[str]:
    return ["eval", "--agent", "openai", "--base-url", url, "--model", model,
            "--out", str(out), *SMALL, *extra]


def _finish_with_fresh_ids() -> Any:
    """The same decision every time (finish, same answer), under a call id the server
    makes up for each reply, as vLLM and hosted APIs do."""
    ids = itertools.count()

    def answer(_req: dict[str, Any]) -> Reply:
        body = completion(calls=[("finish", {"answer": "done"})], usage=(5000, 9))
        body["choices"][0]["message"]["tool_calls"][0]["id"] = f"call_{next(ids):08x}"
        return 200, body, {}

    return answer


def _finish(_req: dict[str, Any]) -> Reply:
    return 200, completion(calls=[("finish", {"answer": "done"})], usage=(5000, 9)), {}


# ---------------------------------------------------------------- item 1: sampling check


def test_identical_native_calls_under_fresh_ids_are_reported_as_ignored_sampling(
        endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = _finish_with_fresh_ids()
    out = tmp_path / "run"
    assert main(_eval(url, out, "--temperature", "1", "--seed", "3")) == 0
    assert "warning: the endpoint may ignore temperature" in capsys.readouterr().err
    assert any("ignore" in w for w in json.loads((out / "run.json").read_text())["warnings"])


def test_calls_that_differ_in_their_arguments_are_samples(endpoint, tmp_path, capsys):
    ep, url = endpoint
    answers = itertools.count()

    def answer(_req: dict[str, Any]) -> Reply:
        n = next(answers)
        body = completion(calls=[("finish", {"answer": f"done {n}"})], usage=(5000, 9))
        body["choices"][0]["message"]["tool_calls"][0]["id"] = f"call_{n}"
        return 200, body, {}

    ep.answer = answer
    assert main(_eval(url, tmp_path / "run", "--temperature", "1", "--seed", "3")) == 0
    assert "warning:" not in capsys.readouterr().err


def test_later_turns_that_differ_only_in_call_ids_are_one_prompt():
    """A later turn's conversation holds the ids of earlier calls (the server's): five
    episodes that made the same call have one prompt, and the same answer spelled with
    other spacing and another id is the same decision."""
    from toolmaze_gym.agents.sampling_check import SamplingCheck

    check = SamplingCheck(1.0)
    for k in range(5):
        call = {"id": f"call_{k}", "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"}}
        messages = [{"role": "user", "content": "q"},
                    {"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": f"call_{k}", "content": "sunny"}]
        args = '{"answer":"sunny"}' if k % 2 else '{"answer": "sunny"}'
        reply = {"tool_calls": [{"id": f"x{k}", "type": "function",
                                 "function": {"name": "finish", "arguments": args}}]}
        check.add({"model": "m", "messages": messages, "seed": k}, json.dumps(reply))
    assert check.repeats == 4 and check.warnings()


# ---------------------------------------------------------------- item 2: token field


def test_max_completion_tokens_is_sent_instead_of_max_tokens_and_recorded(endpoint, tmp_path):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out, "--mode", "P0", "--max-completion-tokens", "300")) == 0
    sent = ep.requests[0]
    assert sent["max_completion_tokens"] == 300 and "max_tokens" not in sent
    for where in (json.loads((out / "run.json").read_text()), read_records(out)[0]):
        assert where["sampling"]["max_completion_tokens"] == 300
        assert where["sampling"]["max_tokens"] is None  # null: not sent


@pytest.mark.parametrize("model", ["o3-mini", "openai/o4-mini", "gpt-5", "o1"])
def test_a_reasoning_model_gets_max_completion_tokens_by_default(endpoint, tmp_path, model):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out, "--mode", "P0", "--max-tokens", "200", model=model)) == 0
    sent = ep.requests[0]
    assert sent["max_completion_tokens"] == 200 and "max_tokens" not in sent
    sampling = json.loads((out / "run.json").read_text())["sampling"]
    assert (sampling["max_tokens"], sampling["max_completion_tokens"]) == (None, 200)


@pytest.mark.parametrize("model", ["tiny", "gpt-4o-mini", "Qwen/Qwen3-8B", "o-model"])
def test_other_models_get_max_tokens(endpoint, tmp_path, model):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    assert main(_eval(url, out, "--mode", "P0", model=model)) == 0
    sent = ep.requests[0]
    assert sent["max_tokens"] == 1024 and "max_completion_tokens" not in sent
    assert json.loads((out / "run.json").read_text())["sampling"]["max_tokens"] == 1024


def test_both_token_budgets_at_once_are_one_usage_error(endpoint, tmp_path, capsys):
    _, url = endpoint
    code = main(_eval(url, tmp_path / "run", "--max-tokens", "9",
                      "--max-completion-tokens", "9"))
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "max_tokens" in err and "max_completion_tokens" in err
    assert not (tmp_path / "run").exists()


# ---------------------------------------------------------------- item 2: extra body


def test_extra_body_reaches_the_endpoint_and_the_run_record(endpoint, tmp_path):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    body = {"reasoning_effort": "low", "top_k": 20, "chat_template_kwargs":
            {"enable_thinking": False}}
    assert main(_eval(url, out, "--mode", "P0", "--extra-body", json.dumps(body))) == 0
    sent = ep.requests[0]
    assert {k: sent[k] for k in body} == body
    config = json.loads((out / "run.json").read_text())
    assert config["sampling"]["extra_body"] == body
    assert config["agent_options"]["extra_body"] == body
    assert read_records(out)[0]["sampling"]["extra_body"] == body


def test_a_secret_in_the_extra_body_is_sent_but_never_written(endpoint, tmp_path):
    ep, url = endpoint
    ep.answer = _finish
    out = tmp_path / "run"
    secret = "provider-credential-0042"
    body = {"provider": {"api_key": secret, "order": ["a"]}}
    assert main(_eval(url, out, "--mode", "P0", "--extra-body", json.dumps(body))) == 0
    assert ep.requests[0]["provider"]["api_key"] == secret
    written = "".join(p.read_text() for p in out.iterdir() if p.is_file())
    assert secret not in written and "[REDACTED]" in written
    assert json.loads((out / "run.json").read_text())["sampling"]["extra_body"]["provider"][
        "order"] == ["a"]


@pytest.mark.parametrize(("text", "said"), [
    ("[1, 2]", "a JSON object"),
    ("{reasoning_effort: low}", "not JSON"),
    ('{"temperature": 0.2}', "--temperature"),
    ('{"messages": []}', "messages"),
])
def test_a_bad_extra_body_is_one_usage_error(endpoint, tmp_path, capsys, text, said):
    _, url = endpoint
    code = main(_eval(url, tmp_path / "run", "--extra-body", text))
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "--extra-body" in err and said in err
    assert not (tmp_path / "run").exists()


def test_extra_body_is_refused_for_agents_that_send_no_requests(tmp_path, capsys):
    code = main(["eval", "--agent", "oracle", "--out", str(tmp_path / "run"), *SMALL,
                 "--extra-body", "{}"])
    assert code == 2 and "--extra-body does not apply" in capsys.readouterr().err


# ---------------------------------------------------------------- item 7: the docs' exit status


def test_the_documented_endpoint_exit_status_is_the_codes():
    doc = (ROOT / "docs" / "endpoints.md").read_text(encoding="utf-8")
    section = doc.split("## Endpoint trouble is never a model score", 1)[1]
    said = re.search(r"exit status (\d+)", section)
    assert said, "docs/endpoints.md no longer states the exit status"
    assert int(said.group(1)) == EXIT_ENDPOINT


def test_eval_help_states_the_same_endpoint_exit_status(capsys):
    """``toolmaze eval --help`` and docs/endpoints.md tell the status a script checks."""
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    epilog = " ".join(capsys.readouterr().out.split("exit status:", 1)[1].split())
    said = re.search(r"(\d+) the endpoint failed", epilog)
    assert said, "eval --help no longer states the endpoint's exit status"
    assert int(said.group(1)) == EXIT_ENDPOINT


def test_an_endpoint_failure_exits_with_that_status(endpoint, tmp_path, capsys):
    ep, url = endpoint
    ep.answer = lambda req: (401, {"error": {"message": "invalid api key"}}, {})
    assert main(_eval(url, tmp_path / "run", "--mode", "P0")) == EXIT_ENDPOINT
    capsys.readouterr()
