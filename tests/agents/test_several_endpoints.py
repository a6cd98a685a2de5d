"""Several endpoints into one run (issue 30 item 7): ``--base-url`` repeats, episodes are
spread over the endpoints deterministically (every episode of a task on one, so a
server's prefix cache serves the task's modes and repeats), and resume and shards are
keyed by model and calling convention, not by URL: one vLLM per machine, one folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from tests.agents._fake_endpoint import Reply, completion, serving
from toolmaze_gym.cli import main
from toolmaze_gym.runner import EXIT_ENDPOINT, read_records

TWO_TASKS = ["--level", "C1", "--limit", "2", "--quiet", "--no-report"]


def _finish(_req: dict[str, Any]) -> Reply:
    return 200, completion(calls=[("finish", {"answer": "done"})], usage=(5000, 9)), {}


def _eval(urls: list[str], out: Path, *extra: str, model: str | None = "tiny") -> list[str]:
    return ["eval", "--agent", "openai", *[a for u in urls for a in ("--base-url", u)],
            *(["--model", model] if model else []), "--out", str(out), *TWO_TASKS, *extra]


@pytest.fixture
def two():
    with serving() as a, serving() as b:
        a[0].answer = b[0].answer = _finish
        yield a, b


def _queries(ep) -> set[str]:
    return {r["messages"][1]["content"] for r in ep.requests}


def test_episodes_are_spread_over_the_endpoints_a_task_to_one(two, tmp_path):
    (a, url_a), (b, url_b) = two
    out = tmp_path / "run"
    assert main(_eval([url_a, url_b], out)) == 0
    assert len(read_records(out)) == 10
    assert len(_queries(a)) == len(_queries(b)) == 1  # one task each, every mode of it
    assert not _queries(a) & _queries(b)
    first = (_queries(a), _queries(b))
    config = json.loads((out / "run.json").read_text())
    assert config["agent_options"]["base_url"] == [url_a, url_b]
    a.requests.clear()
    b.requests.clear()
    assert main(_eval([url_a, url_b], tmp_path / "again")) == 0
    assert (_queries(a), _queries(b)) == first  # deterministic


def test_another_endpoint_resumes_the_run(two, tmp_path, capsys):
    (a, url_a), (_, url_b) = two
    a.answer = lambda req: (500, {"error": {"message": "down"}}, {"retry-after-ms": "1"})
    out = tmp_path / "run"
    assert main(_eval([url_a], out, "--option", "max_retries=0")) == EXIT_ENDPOINT
    assert main(_eval([url_b], out, "--resume")) == 0
    assert len(read_records(out)) == 10
    capsys.readouterr()


def test_shards_on_other_endpoints_fill_one_run(two, tmp_path):
    (a, url_a), (b, url_b) = two
    out = tmp_path / "run"
    assert main(_eval([url_a], out, "--shard", "0/2")) == 0
    assert main(_eval([url_b], out, "--shard", "1/2")) == 0
    assert len(read_records(out)) == 10 and a.requests and b.requests


def test_a_run_is_keyed_by_the_model_the_endpoint_serves(two, tmp_path, capsys):
    (_, url_a), (b, url_b) = two
    b.models = ["other"]
    out = tmp_path / "run"
    assert main(_eval([url_a], out, "--mode", "P0", model=None)) == 0
    assert json.loads((out / "run.json").read_text())["model"] == "tiny"
    capsys.readouterr()
    assert main(_eval([url_b], out, "--mode", "P0", "--resume", model=None)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'tiny'" in err and "'other'" in err


def test_endpoints_that_serve_different_models_are_one_usage_error(two, tmp_path, capsys):
    (_, url_a), (b, url_b) = two
    b.models = ["other"]
    code = main(_eval([url_a, url_b], tmp_path / "run", model=None))
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "tiny" in err and "other" in err


def test_an_endpoint_given_twice_is_one_usage_error(two, tmp_path, capsys):
    (_, url_a), _ = two
    code = main(_eval([url_a, url_a], tmp_path / "run"))
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "twice" in err
