"""ToolMaze-Gym."""
