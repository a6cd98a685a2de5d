"""Equal seeds and actions give byte-identical transcripts and infos: single envs, the
pool, and Gymnasium's Sync/Async vector envs."""

from __future__ import annotations

import gymnasium as gym
import pytest

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.envs._helpers import canonical, play

IDS = ["ToolMaze-C1P2-v0", "ToolMaze-C2P3-v0", "ToolMaze-C3P1-v0", "ToolMaze-C4P4-v0",
       "ToolMaze-v0"]
FILLER = '{"name": "finish", "arguments": {}}'


def _same(a: dict, b: dict) -> None:
    for key in ("obs", "rewards", "flags", "actions", "messages", "info_text"):
        assert a[key] == b[key], key


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_same_episode_fresh_and_reused(env_id):
    first = play(gym.make(env_id), "validator", seed=123)
    # a fresh env, and a used env that ran other episodes first, replaying the actions
    _same(first, play(gym.make(env_id), "", seed=123, actions=first["actions"]))
    used = gym.make(env_id)
    for s in (1, 2, 3):
        play(used, "random", seed=s)
    _same(first, play(used, "", seed=123, actions=first["actions"]))
    # a different seed gives another task (somewhere among a few seeds)
    others = {play(gym.make(env_id), "naive", seed=s)["infos"][0]["task_id"] for s in (1, 2, 3)}
    assert len(others | {first["infos"][0]["task_id"]}) > 1


@pytest.mark.parametrize("env_id", ["ToolMaze-C3P1-v0", "ToolMaze-v0"])
def test_procedural_split_deterministic(env_id):
    a = play(gym.make(env_id, split="train"), "retry", seed=5)
    used = gym.make(env_id, split="train")
    for s in range(6, 12):  # generated tasks must not depend on what came before
        used.reset(seed=s)
    _same(a, play(used, "", seed=5, actions=a["actions"]))
    assert a["infos"][0]["task_id"].startswith("tmz-v2-train-")


def _scripts(env_id: str, seed: int, n: int) -> list[dict]:
    """Single-env runs for seeds seed..seed+n-1 (what vector env i must reproduce)."""
    return [play(gym.make(env_id), "validator", seed=seed + i) for i in range(n)]


def _drive_pool(pool, seed: int, scripts: list[dict]) -> dict:
    obs, infos = pool.reset(seed=seed)
    per_env = [[o] for o in obs]
    log = [canonical(infos)]
    k = 0
    while pool.live:
        acts = {i: scripts[i]["actions"][k] for i in pool.live}
        obs, rew, te, tr, infos = pool.step(acts)
        for i in acts:
            per_env[i].append(obs[i])
        log.append(canonical([obs, rew, te, tr, infos]))
        k += 1
    return {"obs": per_env, "log": log,
            "messages": [canonical(pool.messages(i)) for i in range(pool.num_envs)],
            "records": [canonical(pool.record(i)) for i in range(pool.num_envs)]}


@pytest.mark.parametrize("env_id", ["ToolMaze-C3P4-v0", "ToolMaze-v0"])
def test_pool_matches_single_envs_and_itself(env_id):
    n = 4
    scripts = _scripts(env_id, 40, n)
    a = _drive_pool(gym.make_vec(env_id, n), 40, scripts)
    b = _drive_pool(gym.make_vec(env_id, n), 40, scripts)
    assert a == b
    for i in range(n):
        assert a["obs"][i] == scripts[i]["obs"]
        assert a["messages"][i] == canonical(__import__("json").loads(scripts[i]["messages"]))


def _drive_vector(vec, seed: int, scripts: list[dict]) -> tuple[list, list]:
    """Step a Sync/Async vector env through each env's first episode (its action list,
    then a filler while the others finish; NEXT_STEP autoreset starts a new episode)."""
    obs, infos = vec.reset(seed=seed)
    per_env = [[o] for o in obs]
    log = [canonical([obs, infos])]
    done = [False] * vec.num_envs
    k = 0
    while not all(done):
        acts = tuple(s["actions"][k] if k < len(s["actions"]) else FILLER for s in scripts)
        obs, rew, te, tr, infos = vec.step(acts)
        log.append(canonical([obs, rew, te, tr, infos]))
        for i in range(vec.num_envs):
            if not done[i]:
                per_env[i].append(obs[i])
                done[i] = bool(te[i] or tr[i])
        k += 1
    vec.close()
    return per_env, log


@pytest.mark.parametrize("env_id", ["ToolMaze-C2P2-v0", "ToolMaze-v0"])
def test_sync_and_async_vector_envs(env_id):
    n = 3
    scripts = _scripts(env_id, 7, n)
    sync_a = _drive_vector(gym.make_vec(env_id, n, vectorization_mode="sync"), 7, scripts)
    sync_b = _drive_vector(gym.make_vec(env_id, n, vectorization_mode="sync"), 7, scripts)
    asyn = _drive_vector(gym.make_vec(env_id, n, vectorization_mode="async",
                                      vector_kwargs={"shared_memory": False}), 7, scripts)
    assert sync_a == sync_b == asyn
    for i in range(n):
        assert sync_a[0][i] == scripts[i]["obs"]


def test_async_shared_memory_refused_loudly():
    # Shared memory cannot hold strings; Gymnasium must refuse rather than corrupt them.
    with pytest.raises(ValueError, match="shared_memory"):
        gym.make_vec("ToolMaze-C1P0-v0", 2, vectorization_mode="async")


_FINGERPRINT = """
import hashlib, sys, gymnasium as gym
import toolmaze_gym
from tests.envs._helpers import play
out = [play(gym.make(i), "validator", seed=321) for i in sys.argv[1:]]
print(hashlib.sha256(repr([(o["obs"], o["rewards"], o["flags"], o["info_text"])
                           for o in out]).encode()).hexdigest())
"""


def test_same_transcripts_in_a_fresh_process():
    """Shared caches (simulator memo, schemas) must not make an episode depend on what
    ran before it: a fresh process with another hash seed gives the same bytes."""
    import hashlib
    import os
    import subprocess
    import sys

    ids = ["ToolMaze-C2P4-v0", "ToolMaze-C4P3-v0", "ToolMaze-v0"]
    warm = gym.make("ToolMaze-C4P3-v0")
    for s in range(15):  # fill the caches of this process first
        play(warm, "random", seed=s)
        play(warm, "oracle", seed=s)
    out = [play(gym.make(i), "validator", seed=321) for i in ids]
    here = hashlib.sha256(repr([(o["obs"], o["rewards"], o["flags"], o["info_text"])
                                for o in out]).encode()).hexdigest()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.run([sys.executable, "-c", _FINGERPRINT, *ids], capture_output=True,
                          text=True, cwd=root, timeout=300,
                          env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == here
