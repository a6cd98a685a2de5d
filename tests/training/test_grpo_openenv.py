"""GRPO through OpenEnv: TRL's tool loop plays every episode on a real ToolMaze OpenEnv
server (uvicorn on 127.0.0.1) and logs the environment's reward, the same reward the
in-process adapter gives for the same rollouts."""

from __future__ import annotations

import pytest

from tests.serving._server import free_port, serving
from tests.training.conftest import load_script
from tests.training.test_grpo_recovery import _ids, _script

pytest.importorskip("trl")
pytest.importorskip("openenv", reason="OpenEnv is in the [openenv] extra")


def _in_process_reward(task, script) -> float:
    """The in-process adapter's reward (default partial credit) for the scripted calls."""
    import json

    from toolmaze_gym.training.environment import grpo_dataset

    ds, factories = grpo_dataset([task], ["P1"], ["standard"])
    row = ds[0]
    env = factories[row["environment"]]()
    env.reset(**row)
    for text in script[:-1]:
        call = json.loads(text.split("\n")[1])
        getattr(env, call["name"])(**call["arguments"])
    env._end_with_text(script[-1])
    return env.get_reward()


@pytest.mark.slow  # ~2 min: two GRPO steps of a tiny model on two CPU cores
def test_two_grpo_steps_against_the_openenv_server_log_the_envs_reward(
        tiny_model, tmp_path, monkeypatch, train_tasks):
    from toolmaze_gym.openenv.server.app import build_app
    from trl import GRPOTrainer

    from toolmaze_gym.serving import ServeRecorder, SessionStore

    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    grpo = load_script("grpo_recovery")
    script, expected = _script(train_tasks[0], "P1", "standard")
    turns = []

    class Scripted(GRPOTrainer):
        def _generate_single_turn(self, prompt_ids, *args, **kwargs):
            text = script[len(turns) % len(script)]
            turns.append(text)
            return [_ids(self.processing_class, text) for _ in prompt_ids], None

    store = SessionStore(ServeRecorder(tmp_path / "served", agent="grpo", server="openenv"))
    port = free_port()
    with serving(build_app(store), port) as url:
        result = grpo.main(["--model", str(tiny_model), "--out", str(tmp_path / "grpo"),
                            "--tasks", "1", "--seed", "7", "--levels", "C1", "--modes", "P1",
                            "--prompts", "standard", "--max-steps", "2",
                            "--num-generations", "2", "--batch-size", "2", "--grad-accum", "1",
                            "--max-completion-length", "6000",
                            "--threads", "1", "--openenv-url", url], trainer_cls=Scripted)
    store.recorder.close()
    steps = [h for h in result["history"] if "reward" in h]
    assert len(steps) == 2
    same = _in_process_reward(train_tasks[0], script)
    assert same > expected  # partial credit on top of success + recovery
    for h in steps:
        assert h["reward"] == pytest.approx(same)
        env_keys = [k for k in h if k.startswith("rewards/ToolMaze_") and k.endswith("/mean")]
        assert len(env_keys) == 1 and h[env_keys[0]] == pytest.approx(h["reward"])
        assert h["reward"] > 1.0  # success + recovery, scored from the server's grade
    records = (tmp_path / "served" / "records.jsonl").read_text().splitlines()
    assert len(records) == 4  # 2 steps x 2 rollouts, every episode played on the server
