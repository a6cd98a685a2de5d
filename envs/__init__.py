"""The Gymnasium layer: ToolMazeEnv, PerturbationWrapper, ToolMazePool, registration."""

from toolmaze_gym.envs.registration import env_ids, make_env, register_envs

__all__ = ["PerturbationWrapper", "ToolMazeEnv", "ToolMazePool", "env_ids", "make_env",
           "register_envs"]


def __getattr__(name: str):
    # Heavy classes load on first use so ``import toolmaze_gym`` stays cheap.
    if name == "ToolMazeEnv":
        from toolmaze_gym.envs.env import ToolMazeEnv

        return ToolMazeEnv
    if name == "PerturbationWrapper":
        from toolmaze_gym.envs.wrappers import PerturbationWrapper

        return PerturbationWrapper
    if name == "ToolMazePool":
        from toolmaze_gym.envs.pool import ToolMazePool

        return ToolMazePool
    raise AttributeError(name)
