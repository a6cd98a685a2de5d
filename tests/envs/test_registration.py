"""Registration and Gymnasium's own env checker on every id."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from toolmaze_gym.envs import env_ids, register_envs
from toolmaze_gym.envs.spaces import BoundedText

import toolmaze_gym  # noqa: F401  (registers the ids)

IDS = env_ids()


def test_all_21_ids_registered():
    assert len(IDS) == 21 and len(set(IDS)) == 21
    assert {f"ToolMaze-C{c}P{p}-v0" for c in range(1, 5) for p in range(5)} | {"ToolMaze-v0"} \
        == set(IDS)
    for i in IDS:
        spec = gym.spec(i)
        assert spec.max_episode_steps is None  # the env's max_steps (25) is the knob
        assert isinstance(spec.entry_point, str) and isinstance(spec.vector_entry_point, str)


def test_registration_is_idempotent():
    before = dict(gym.registry)
    register_envs()
    register_envs()
    assert dict(gym.registry) == before


def _ours(caught):
    """Checker warnings other than the expected 'wrapped env' notice for gym.make envs."""
    return [str(w.message) for w in caught if "is different from the unwrapped" not in
            str(w.message)]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_unwrapped_and_made(env_id):
    for how in ("unwrapped", "made"):
        env = gym.make(env_id)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped if how == "unwrapped" else env)
        assert _ours(caught) == [], (how, _ours(caught))
    env = gym.make(env_id, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
    assert _ours(caught) == []


def test_module_colon_id_without_import():
    code = ("import sys, gymnasium as gym\n"
            "assert 'toolmaze_gym' not in sys.modules\n"
            "env = gym.make('toolmaze_gym:ToolMaze-C3P4-v0')\n"
            "obs, info = env.reset(seed=0)\n"
            "print(info['level'], info['mode'], type(env.unwrapped).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd="/", timeout=120, env={**os.environ, "PYTHONPATH": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["C3", "P4", "ToolMazeEnv"]


def test_bounded_text_space():
    s = BoundedText(10, seed=0)
    assert s.contains("é€中 ok") and s.contains("") and not s.contains("x" * 11)
    assert not s.contains(b"bytes") and not s.contains(None)
    samples = [s.sample() for _ in range(50)]
    assert all(s.contains(x) for x in samples)
    assert BoundedText(10, seed=0).sample() == BoundedText(10, seed=0).sample()
    assert s == BoundedText(10) and s != BoundedText(11) and hash(s) == hash(BoundedText(10))
    assert s.from_jsonable(s.to_jsonable(["a", "中"])) == ["a", "中"]
    with pytest.raises(ValueError):
        BoundedText(0)
