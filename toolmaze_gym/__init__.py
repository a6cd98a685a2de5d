"""ToolMaze-Gym: measure and train how LLM agents recover when tools fail.

Importing the package registers the Gymnasium ids ``ToolMaze-C{1..4}P{0..4}-v0``
and ``ToolMaze-v0``.
"""

from toolmaze_gym.envs.registration import register_envs

__version__ = "0.1.0"

register_envs()
