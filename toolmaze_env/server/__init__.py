"""The ToolMaze OpenEnv server: the environment class and the FastAPI app."""
