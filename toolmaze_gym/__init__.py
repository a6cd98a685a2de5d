"""ToolMaze-Gym: measure and train how LLM agents recover when tools fail.

Importing the package registers the Gymnasium ids ``ToolMaze-C{1..4}P{0..4}-v0``
and ``ToolMaze-v0``. In a source tree it first makes ``toolmaze_gym.envs`` and
``toolmaze_gym.reward`` resolve to the tree's top-level ``envs/`` and ``reward/``
(``toolmaze_gym.layout``), as an installed wheel's copies do.
"""

from pathlib import Path

from toolmaze_gym import layout

layout.install(__name__, Path(__file__).resolve().parent)

from toolmaze_gym.envs.registration import register_envs  # noqa: E402

__version__ = "0.1.0"

register_envs()
