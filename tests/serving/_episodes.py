"""Reference episodes for the serving tests: scripted calls and what ``gym.make`` makes
of them, so every transport can be compared with the in-process env."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import gymnasium as gym

from toolmaze_gym.agents import make_scripted

# keys a served record adds to the env's own record (who served it, when)
SERVED_KEYS = ("agent", "repeat", "key", "agent_options", "suite", "sampling", "server",
               "usage", "wall_s", "convention")


@cache
def oracle_calls(level: str, mode: str, seed: int) -> tuple[tuple[str, str], ...]:
    """The oracle's calls on task ``seed`` of the level, as (name, arguments JSON)."""
    env = gym.make(f"ToolMaze-{level}{mode}-v0")
    _, info = env.reset(seed=seed)
    base = env.unwrapped
    agent = make_scripted("oracle", base.sim)
    agent.reset(base.episode.task, info["tools"], info["mode"])
    calls, done = [], False
    while not done:
        action = json.loads(agent.act(base.messages))
        calls.append((action["name"], json.dumps(action["arguments"])))
        done = any(env.step(action_text(action["name"], action["arguments"]))[2:4])
    env.close()
    return tuple(calls)


def action_text(name: str, arguments: Any) -> str:
    """The action text a session sends the env for one call."""
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def in_process(level: str, mode: str, seed: int, calls: list[tuple[str, Any]]
               ) -> dict[str, Any]:
    """The record ``gym.make`` gives for ``calls`` (cut like a truncation when they
    stop before the episode ends)."""
    env = gym.make(f"ToolMaze-{level}{mode}-v0")
    env.reset(seed=seed)
    for name, args in calls:
        _, _, te, tr, _ = env.step(action_text(name, args))
        if te or tr:
            break
    rec = env.unwrapped.record()
    env.close()
    return rec


def comparable(rec: dict[str, Any]) -> dict[str, Any]:
    """A record without what serving adds (so it can equal the env's own)."""
    return {k: v for k, v in rec.items() if k not in SERVED_KEYS}
