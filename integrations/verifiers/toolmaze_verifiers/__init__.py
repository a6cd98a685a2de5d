"""ToolMaze-Gym as a verifiers (0.4, ``verifiers.v1``) taskset; see docs/verifiers.md."""

from toolmaze_verifiers.harness import ToolMazeHarness
from toolmaze_verifiers.taskset import ToolMazeTaskset

__all__ = ["ToolMazeHarness", "ToolMazeTaskset"]
