"""ToolMaze as an OpenEnv environment (imported as ``toolmaze_gym.openenv``).

The server (``server/``) serves one ToolMaze episode per OpenEnv session: Gym control
(``reset`` / ``step`` / ``state`` over ``/ws``) plus the episode's tools over MCP
(``list_tools`` / ``call_tool`` actions, and JSON-RPC on ``/mcp``). The client
(:class:`ToolMazeEnv`) is OpenEnv's ``MCPToolClient`` with ToolMaze's reset arguments.
Install with ``pip install 'toolmaze-gym[openenv]'``; see docs/openenv.md.
"""

from toolmaze_gym.openenv.client import ToolMazeEnv
from toolmaze_gym.openenv.models import ToolMazeObservation, ToolMazeState

__all__ = ["ToolMazeEnv", "ToolMazeObservation", "ToolMazeState"]
