"""TRL's environment_factory over several ToolMaze OpenEnv servers: the environments are
spread over the URLs in turn, each plays its whole episode on its own server, and the
reward is the one a single server gives."""

from __future__ import annotations

import contextlib
import json

import pytest

from tests.serving._server import free_port, serving

pytest.importorskip("datasets")
pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")


@contextlib.contextmanager
def _servers(tmp_path, count):
    from toolmaze_gym.openenv.server.app import build_app

    from toolmaze_gym.serving import ServeRecorder, SessionStore

    stores, urls = [], []
    with contextlib.ExitStack() as stack:
        for k in range(count):
            store = SessionStore(ServeRecorder(tmp_path / f"served{k}", agent="grpo",
                                               server="openenv"))
            stack.callback(store.recorder.close)
            stores.append(store)
            urls.append(stack.enter_context(serving(build_app(store), free_port())))
        yield urls, stores


def _records(tmp_path, k):
    path = tmp_path / f"served{k}" / "records.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _play(cls, row, answer):
    env = cls()
    env.reset(**row)
    env._end_with_text(answer)
    return env, env.get_reward()


def test_environments_spread_over_the_servers_in_turn_and_score_alike(tmp_path, train_tasks):
    from toolmaze_gym.training.environment import grpo_dataset
    from toolmaze_gym.training.openenv_environment import over_openenv

    ds, factories = grpo_dataset(train_tasks[:1], ["P1"], ["standard"])
    row = ds[0]
    with _servers(tmp_path, 3) as (urls, _):
        spread = over_openenv(factories, ",".join(urls))
        played = [_play(spread[row["environment"]], row, "I could not finish.")
                  for _ in range(6)]
        assert [env.base_url for env, _ in played] == urls + urls
        single = over_openenv(factories, urls[0])[row["environment"]]
        _, alone = _play(single, row, "I could not finish.")
    assert {reward for _, reward in played} == {alone}
    counts = [len(_records(tmp_path, k)) for k in range(3)]
    assert counts == [3, 2, 2]  # two each, and the single-server check's on the first
    assert {r["task_id"] for k in range(3) for r in _records(tmp_path, k)} == {row["task_id"]}


@pytest.mark.parametrize("given, words", [
    ("", "empty entry"), ("http://127.0.0.1:8000,", "empty entry"),
    ("127.0.0.1:8000", "not http(s)://host:port"), (["ws://h:1"], "not http(s)"),
    ("http://a:1,http://a:1/", "names a server twice")])
def test_bad_server_urls_are_refused_by_name(given, words):
    from toolmaze_gym.training.openenv_environment import server_urls

    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        server_urls(given)


def test_the_script_refuses_a_bad_url_list_before_loading_a_model(capsys):
    from tests.training.conftest import load_script

    grpo = load_script("grpo_recovery")
    with pytest.raises(SystemExit) as stop:
        grpo.main(["--model", "none", "--out", "x", "--openenv-url",
                   "http://127.0.0.1:8000,localhost:8001"])
    assert "--openenv-url" in str(stop.value) and "localhost:8001" in str(stop.value)
