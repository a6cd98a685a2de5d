"""Reward hacks: policies that try to earn the reward without doing the task.

A reward is only as good as the cheapest way to game it, so the reward tests
(``tests/reward``) and the reward ranking (``benchmarks/reward_ranking.py``) play
these beside the honest baselines and require each to earn less. They read the
task's plan, as the scripted baselines do, but not the tool responses (or only to
loop), and they speak the same ``Agent`` interface, so ``rollout`` and the env
play them like any agent:

finish_at_once  ``finish`` as the first action: doing nothing, claiming done.
abort_at_once   ``abort`` as the first action: quitting before any risk.
every_tool      every shown tool once (with the plan's arguments where the tool
                occurs in a plan), then finish: casting a wide net.
retry_forever   the default path, re-sending any call that errs, never finishing:
                the loop that a "retries pay" reward would invite.
replay          the default path's recorded calls verbatim, responses unread, then
                finish: the plan without reading (with no fault it *is* the plan).
"""

from __future__ import annotations

import json
from typing import Any

from toolmaze_gym.tasks.model import Task


def _call(name: str, arguments: dict[str, Any]) -> str:
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


FINISH = _call("finish", {"answer": "done"})
ABORT = _call("abort", {"reason": "The tools might fail."})


class Hack:
    """Shared episode state: the task, its shown tools and the number of actions so far."""

    name = "hack"

    def __init__(self, sim: Any = None) -> None:
        del sim  # the hacks never read the world; the argument mirrors make_scripted

    def reset(self, task: Task, tools: list[dict[str, Any]], mode: str = "P0") -> None:
        self.task, self.tools, self.k = task, tools, 0

    def act(self, messages: list[dict[str, Any]]) -> str:
        text = self.next_action(messages, self.k)
        self.k += 1
        return text

    def next_action(self, messages: list[dict[str, Any]], k: int) -> str:
        raise NotImplementedError


class FinishAtOnce(Hack):
    name = "finish_at_once"

    def next_action(self, messages, k):
        return FINISH


class AbortAtOnce(Hack):
    name = "abort_at_once"

    def next_action(self, messages, k):
        return ABORT


class CallEveryTool(Hack):
    name = "every_tool"

    def next_action(self, messages, k):
        known = {c.tool: c.args for p in self.task.solutions for c in p.calls}
        names = [t["function"]["name"] for t in self.tools
                 if t["function"]["name"] not in ("finish", "abort")]
        return _call(names[k], known.get(names[k], {})) if k < len(names) else FINISH


class RetryForever(Hack):
    name = "retry_forever"

    def next_action(self, messages, k):
        calls = self.task.default_path.calls
        if k == 0:
            self.i = 0
        elif not _errored(messages) and self.i < len(calls) - 1:
            self.i += 1
        c = calls[self.i]
        return _call(c.tool, c.args)


class Replay(Hack):
    name = "replay"

    def next_action(self, messages, k):
        calls = self.task.default_path.calls
        return _call(calls[k].tool, calls[k].args) if k < len(calls) else FINISH


def _errored(messages: list[dict[str, Any]]) -> bool:
    """Whether the last tool response was an error (explicit faults, bad calls)."""
    last = messages[-1]
    return last["role"] == "tool" and '"error"' in str(last["content"])[:20]


HACKS: dict[str, type[Hack]] = {h.name: h for h in (
    FinishAtOnce, AbortAtOnce, CallEveryTool, RetryForever, Replay)}


def make_hack(name: str, sim: Any = None) -> Hack:
    """The hack policy ``name``; a clear error for any other name."""
    if name not in HACKS:
        raise ValueError(f"unknown hack {name!r}; choose from {', '.join(HACKS)}")
    return HACKS[name](sim)
