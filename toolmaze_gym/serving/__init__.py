"""ToolMaze served over the wire: one episode at a time per session, graded records on
disk.

``session`` plays one episode through the Gymnasium env (the choice of task, the
opening, tool calls, the grade and the reward); ``store`` keeps many sessions at once,
walks a session on to its next episode and expires idle ones; ``recorder`` writes
their records as ``toolmaze eval`` writes them, so ``toolmaze report`` reads a serve
run directory like any other run; ``outcome`` is what a chat client is told at the end
instead of the grade. The MCP server (``mcp_server``) and the OpenEnv environment
(``toolmaze_gym.openenv``) are thin transports over these.
"""

from toolmaze_gym.serving.recorder import ServeRecorder
from toolmaze_gym.serving.session import EpisodeChoice, ServeError, Session
from toolmaze_gym.serving.store import SessionStore

__all__ = ["EpisodeChoice", "ServeError", "ServeRecorder", "Session", "SessionStore"]
