"""No secret is written anywhere a run writes: records, run.json, the report and what the
command prints; the run itself still uses the real values, and a redacted run resumes.
Endpoint trouble (an ``EndpointError``) stops the run with one line and exit 3, books no
episode, and ``--resume`` plays what is left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner._policies import EndpointDown, Wrapped
from toolmaze_gym.cli import main
from toolmaze_gym.redact import Redactor
from toolmaze_gym.runner import RunConfig, RunError, Selection, read_records, run, select

KEY = "sk-proj-Zq81mVw0TgHs4LpN2xYc"
SEL = Selection(levels=["C1"], limit=2, modes=["P0"])
URL = "http://bob:hunter2hunter2@127.0.0.1:9/v1?api_key=querysecret99"
SECRETS = (KEY, "hunter2hunter2", "querysecret99")


def _written(out: Path) -> str:
    """Every byte the run left in its directory, as text."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(out.rglob("*"))
                     if p.is_file())


class Echoing(Wrapped):
    """A model that echoes the key in its replies, on an endpoint whose errors echo it
    for the episodes of ``task_id``."""

    def __init__(self, task_id: str) -> None:
        super().__init__()
        self.task_id = task_id

    def act_many(self, turns):
        if any(k.startswith(self.task_id) for k, _ in turns):
            raise RuntimeError(f"Error code: 500 - upstream rejected Authorization: Bearer {KEY}")
        if all(len(m) == 2 for _, m in turns):
            return [f"my key is {KEY}"] * len(turns)  # a final answer
        return super().act_many(turns)


def test_no_secret_reaches_records_run_json_or_the_report(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    victim = select(SEL)[0].task_id
    cfg = RunConfig("oracle", selection=SEL, agent_options={"base_url": URL})
    run(cfg, tmp_path, progress=False, policy=Echoing(victim))
    recs = {r["task_id"]: r for r in read_records(tmp_path)}
    assert recs[victim]["cut"] == "error" and "[REDACTED]" in recs[victim]["cut_detail"]
    assert any(s["raw"] == "my key is [REDACTED]" for r in recs.values() for s in r["steps"])
    assert json.loads((tmp_path / "run.json").read_text())["agent_options"]["base_url"] == \
        "http://[REDACTED]@127.0.0.1:9/v1?api_key=[REDACTED]"
    assert main(["report", str(tmp_path), "--resamples", "0", "--no-plots", "--quiet"]) == 0
    written = _written(tmp_path) + capsys.readouterr().err
    assert not [s for s in SECRETS if s in written]


def test_a_run_with_a_redacted_base_url_resumes(tmp_path):
    cfg = RunConfig("oracle", selection=SEL, agent_options={"base_url": URL})
    run(cfg, tmp_path, progress=False, policy=Wrapped())
    summary = run(cfg, tmp_path, resume=True, progress=False, policy=Wrapped())
    assert summary.skipped == 2


def test_clean_records_pass_through_redaction_unchanged(tmp_path):
    # the project's own data (ids, URLs, tokens of the world) never looks like a secret
    run(RunConfig("validator", selection=Selection(limit=2)), tmp_path, progress=False)
    text = (tmp_path / "records.jsonl").read_text()
    assert Redactor.from_environment()(text) == text


def test_printed_errors_carry_no_secret(tmp_path, capsys):
    pytest.importorskip("openai")
    assert main(["eval", "--agent", "openai", "--base-url", URL, "--timeout", "1",
                 "--option", "max_retries=0", "--out", str(tmp_path / "run"),
                 "--level", "C1", "--limit", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "127.0.0.1:9" in err and not [s for s in SECRETS if s in err]


def test_endpoint_trouble_stops_the_run_and_books_no_episode(tmp_path):
    sel = Selection(levels=["C1"], limit=3, modes=["P0", "P2"])
    with pytest.raises(RunError, match="401 Unauthorized"):
        run(RunConfig("oracle", selection=sel, batch=1), tmp_path, progress=False,
            policy=EndpointDown(good=7))
    done = read_records(tmp_path)
    assert 0 < len(done) < 6 and not any(r.get("cut") for r in done)
    summary = run(RunConfig("oracle", selection=sel, batch=1), tmp_path, resume=True,
                  progress=False)
    assert summary.skipped == len(done) and len(read_records(tmp_path)) == 6


def test_eval_stops_on_endpoint_trouble_with_one_line_and_exit_3(tmp_path, capsys, monkeypatch):
    import toolmaze_gym.agents

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setattr(toolmaze_gym.agents, "make_policy",
                        lambda *a, **k: EndpointDown(0, f"401 invalid api key {KEY}"))
    code = main(["eval", "--agent", "oracle", "--level", "C1", "--limit", "1", "--quiet",
                 "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip()
    assert code == 3 and len(err.splitlines()) == 1, err
    assert "401 invalid api key [REDACTED]" in err and "--resume" in err
    assert read_records(tmp_path / "run") == []


def test_regraded_records_carry_no_secret(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    run(RunConfig("oracle", selection=SEL), tmp_path, progress=False)
    path = tmp_path / "records.jsonl"
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    recs[0]["cut_detail"] = f"an old run's error: invalid key {KEY}"  # written before redaction
    recs[1]["raw"] = ["half a pair \ud83d and a lone \udfff"]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    out = tmp_path / "regraded.jsonl"
    assert main(["grade", str(path), "--out", str(out)]) == 0
    text = out.read_bytes().decode("utf-8")
    assert KEY not in text and "invalid key [REDACTED]" in text


class _Endpoint:
    """A tiny OpenAI-compatible server on 127.0.0.1: ``status`` and ``body`` answer every
    chat completion; the headers of each request are kept."""

    def __init__(self) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        owner = self
        self.status, self.body, self.headers = 200, {}, []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # the http.server API
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                owner.headers.append(dict(self.headers))
                data = json.dumps(owner.body).encode()
                self.send_response(owner.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint():
    ep = _Endpoint()
    yield ep
    ep.close()


ANSWER = {"id": "c1", "object": "chat.completion", "created": 0, "model": "tiny",
          "choices": [{"index": 0, "finish_reason": "stop",
                       "message": {"role": "assistant", "content": "I give up"}}],
          "usage": {"prompt_tokens": 6000, "completion_tokens": 3, "total_tokens": 6003}}


@pytest.mark.parametrize("status", [401, 500])
def test_a_key_the_endpoint_echoes_is_written_nowhere(endpoint, tmp_path, monkeypatch, capsys,
                                                      status):
    pytest.importorskip("openai")
    monkeypatch.setenv("MY_SERVER_KEY", "local-key-Qm3x9T")  # named by --api-key-env
    endpoint.status = status
    endpoint.body = {"error": {"message": "Incorrect API key provided: local-key-Qm3x9T"}}
    out = tmp_path / "run"
    main(["eval", "--agent", "openai", "--model", "tiny", "--api-key-env", "MY_SERVER_KEY",
          "--base-url", f"http://127.0.0.1:{endpoint.port}/v1", "--option", "max_retries=0",
          "--level", "C1", "--limit", "1", "--mode", "NP", "--out", str(out), "--quiet"])
    assert endpoint.headers, "the endpoint was never asked"
    written = _written(out) + "".join(capsys.readouterr())
    assert "local-key-Qm3x9T" not in written and "Incorrect API key provided" in written


def test_credentials_in_the_base_url_are_used_but_never_written(endpoint, tmp_path, capsys):
    pytest.importorskip("openai")
    endpoint.body = ANSWER
    out = tmp_path / "run"
    url = f"http://bob:hunter2hunter2@127.0.0.1:{endpoint.port}/v1"
    assert main(["eval", "--agent", "openai", "--model", "tiny", "--base-url", url,
                 "--level", "C1", "--limit", "1", "--mode", "NP", "--out", str(out),
                 "--quiet"]) == 0
    assert endpoint.headers[0].get("Authorization", "").startswith("Basic ")  # sent as auth
    written = _written(out) + "".join(capsys.readouterr())
    assert "hunter2hunter2" not in written
    assert json.loads((out / "run.json").read_text())["agent_options"]["base_url"] == \
        f"http://[REDACTED]@127.0.0.1:{endpoint.port}/v1"


class _LongError(Wrapped):
    def act_many(self, turns):
        raise RuntimeError("x" * (2000 - len("RuntimeError: ") - 12) + f" {KEY} trailing")


def test_a_key_at_the_cut_of_a_long_error_is_not_left_half_written(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    run(RunConfig("oracle", selection=Selection(levels=["C1"], limit=1, modes=["P0"])),
        tmp_path, progress=False, policy=_LongError())
    (rec,) = read_records(tmp_path)
    assert rec["cut"] == "error" and KEY[:11] not in (tmp_path / "records.jsonl").read_text()


def test_a_report_over_an_old_run_holding_a_key_does_not_copy_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    run(RunConfig("oracle", selection=SEL), tmp_path, progress=False)
    path = tmp_path / "records.jsonl"
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    step = recs[0]["steps"][0]  # a tool that echoed the caller's header (an old record)
    step["observation"] = json.dumps({**json.loads(step["observation"]),
                                      "echo": f"Authorization: Bearer {KEY}"})
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert main(["report", str(tmp_path), "--out", str(tmp_path / "rep"), "--resamples", "0",
                 "--no-plots"]) == 0
    assert KEY not in _written(tmp_path / "rep") + "".join(capsys.readouterr())


def test_every_command_prints_its_errors_without_secrets(tmp_path, capsys):
    assert main(["grade", str(tmp_path / f"{KEY}.jsonl")]) == 2
    err = capsys.readouterr().err
    assert KEY not in err and "[REDACTED]" in err
