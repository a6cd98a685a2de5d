"""Shared helpers for the env tests: drive agents, canonicalise infos."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from toolmaze_gym.agents import make_scripted


def canonical(obj: Any) -> str:
    """A byte-stable text of nested infos (numpy arrays and scalars included)."""

    def conv(x: Any) -> Any:
        if isinstance(x, np.ndarray):
            return {"__array__": str(x.dtype), "v": [conv(v) for v in x.tolist()]}
        if isinstance(x, np.generic):
            return conv(x.item())
        if isinstance(x, dict):
            return {str(k): conv(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [conv(v) for v in x]
        return x

    return json.dumps(conv(obj), sort_keys=True, ensure_ascii=True)


def play(env, agent_name: str, *, seed: int = 0, options: dict | None = None,
         actions: list[str] | None = None) -> dict[str, Any]:
    """One episode on ``env`` (a gym.make env or a base env): a scripted agent acts, or
    ``actions`` are replayed. Returns everything a user could observe."""
    obs, info = env.reset(seed=seed, options=options)
    base = env.unwrapped
    out: dict[str, Any] = {"obs": [obs], "infos": [info], "rewards": [], "flags": [],
                           "actions": []}
    agent = None
    if actions is None:
        agent = make_scripted(agent_name, base.sim)
        agent.reset(base.episode.task, info["tools"], info["mode"])
    k = 0
    done = False
    while not done:
        a = agent.act(base.messages) if agent else actions[k]
        k += 1
        obs, r, te, tr, inf = env.step(a)
        out["actions"].append(a)
        out["obs"].append(obs)
        out["rewards"].append(r)
        out["flags"].append((te, tr))
        out["infos"].append(inf)
        done = te or tr
    out["messages"] = json.dumps(base.messages, ensure_ascii=True)
    out["grade"] = out["infos"][-1]["grade"]
    out["info_text"] = canonical(out["infos"])
    return out
