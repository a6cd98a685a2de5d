"""The first ``reset()`` of an env never seeded: where it lands, and that the README and
the env's docs say so.

It starts at a task drawn from the env's ``np_random`` (Gymnasium's convention for an
env never seeded: fresh entropy), so unseeded copies of the env in a vector env do not
all play task 0 in lockstep; every later seedless reset plays the next task, and a
seed makes the walk reproducible. The README once said only "the next one", which
for a first reset reads as task 0."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np

import toolmaze_gym  # registers the ids; its envs.env module is read below
from toolmaze_gym.tasks.suite import load_suite

README = Path(__file__).resolve().parents[2] / "README.md"


def _first_unseeded(rng_seed: int) -> list[str]:
    env = gym.make("ToolMaze-C2P0-v0")
    env.unwrapped.np_random = np.random.default_rng(rng_seed)
    return [env.reset()[1]["task_id"] for _ in range(3)]


def test_first_unseeded_reset_is_drawn_from_np_random_then_walks_on():
    ids = [t.id for t in load_suite(levels=["C2"])]
    walks = {s: _first_unseeded(s) for s in range(6)}
    assert walks[3] == _first_unseeded(3)  # the env's generator decides, nothing else
    assert len({w[0] for w in walks.values()}) > 1  # not task 0 every time
    for walk in walks.values():
        k = ids.index(walk[0])
        assert walk == [ids[(k + j) % len(ids)] for j in range(3)]


def test_readme_and_env_docs_say_where_the_first_unseeded_reset_lands():
    text = " ".join(README.read_text(encoding="utf-8").split())
    order = text[text.index("Task order:"):][:900]
    assert "drawn from the env's `np_random`" in order, order
    doc = " ".join((toolmaze_gym.envs.env.__doc__ or "").split())
    assert "drawn from the env's ``np_random``" in doc
