"""The taskset's default harness: verifiers' plain chat loop with MCP tools (``null``).

Without a bundled harness verifiers runs a taskset in its ``bash`` coding agent, which
adds a shell and a file editor to the model's tools; a ToolMaze episode must offer the
task's tools and nothing else, so the package exports this one, which verifiers picks
when no ``--env.agent.harness.id`` is given.
"""

from verifiers.v1.harnesses.null import NullHarness


class ToolMazeHarness(NullHarness):
    """``null``'s chat program, unchanged: system prompt, request, the MCP tools."""
