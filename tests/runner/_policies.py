"""Policies that misbehave on purpose, wrapped around a scripted one, to drive the runner's
guards (loop, context overflow, policy errors) and to slow a run down for kill tests."""

from __future__ import annotations

import time
from typing import Any

from toolmaze_gym.agents import ContextOverflow, make_policy


class Wrapped:
    """Delegates to a scripted policy; subclasses bend ``act_many``."""

    def __init__(self, base: str = "oracle") -> None:
        self.inner = make_policy(base)
        self.name = self.inner.name

    def start(self, key: str, task: Any, tools: list[dict], mode: str) -> None:
        self.inner.start(key, task, tools, mode)

    def act_many(self, turns: list[tuple[str, list[dict]]]) -> list[str]:
        return self.inner.act_many(turns)

    def finish(self, key: str) -> dict[str, Any]:
        return self.inner.finish(key)


class Slow(Wrapped):
    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay

    def act_many(self, turns):
        time.sleep(self.delay)
        return super().act_many(turns)


class Looping(Wrapped):
    """Repeats one call forever."""

    def act_many(self, turns):
        return ['{"name": "no_such_tool", "arguments": {}}'] * len(turns)


class Overflowing(Wrapped):
    """Episodes of ``task_id`` outgrow the context on their second turn."""

    def __init__(self, task_id: str) -> None:
        super().__init__()
        self.task_id = task_id

    def act_many(self, turns):
        bad = [k for k, msgs in turns if k.startswith(self.task_id) and len(msgs) > 2]
        if bad:
            raise ContextOverflow(bad, {k: 9000 for k in bad}, 8192)
        return super().act_many(turns)


class Failing(Wrapped):
    """Raises for episodes of ``task_id`` (or for every episode when it is None)."""

    def __init__(self, task_id: str | None) -> None:
        super().__init__()
        self.task_id = task_id

    def act_many(self, turns):
        if any(self.task_id is None or k.startswith(self.task_id) for k, _ in turns):
            raise RuntimeError("endpoint exploded")
        return super().act_many(turns)


class NamedFailure(RuntimeError):
    def __init__(self, keys: list[str]) -> None:
        super().__init__("no reply for " + ", ".join(keys))
        self.keys = keys


class FailingNamed(Wrapped):
    """Fails whole batches, naming the turns of ``task_id`` as the ones without a reply
    (as the openai policy's EndpointError does); counts its calls."""

    def __init__(self, task_id: str) -> None:
        super().__init__()
        self.task_id, self.calls = task_id, 0

    def act_many(self, turns):
        self.calls += 1
        bad = [k for k, _ in turns if k.startswith(self.task_id)]
        if bad:
            raise NamedFailure(bad)
        return super().act_many(turns)


class Greedy:
    """Like a greedy model: ``temperature == 0`` and each reply a pure function of the
    conversation (it walks the tool list, then finishes); counts the turns it answers."""

    name = "greedy"
    temperature = 0

    def __init__(self) -> None:
        self.answered = 0
        self.tools: dict[str, list[str]] = {}
        self.usage: dict[str, dict] = {}

    def start(self, key: str, task: Any, tools: list[dict], mode: str) -> None:
        self.tools[key] = [t["function"]["name"] for t in tools]
        self.usage[key] = {"prompt_tokens": 0, "completion_tokens": 0, "turns": 0, "raw": []}

    def act_many(self, turns):
        self.answered += len(turns)
        out = []
        for key, messages in turns:
            n = sum(m["role"] == "assistant" for m in messages)
            tool = self.tools[key][n % len(self.tools[key])]
            text = (f'{{"name": "finish", "arguments": {{"answer": "{len(messages)}"}}}}'
                    if n >= 4 else f'{{"name": "{tool}", "arguments": {{}}}}')
            self.usage[key]["turns"] += 1
            self.usage[key]["raw"].append(text)
            out.append(text)
        return out

    def finish(self, key: str) -> dict[str, Any]:
        self.tools.pop(key)
        return self.usage.pop(key)


class Replying(Wrapped):
    """Answers every turn of ``task_id``'s episodes (of every episode when it is None)
    with ``reply``, whatever it is: text with lone surrogates, None, a number, a dict."""

    def __init__(self, reply: Any, task_id: str | None = None) -> None:
        super().__init__()
        self.reply, self.task_id = reply, task_id

    def act_many(self, turns):
        mine = [self.task_id is None or k.startswith(self.task_id) for k, _ in turns]
        rest = super().act_many([t for t, m in zip(turns, mine, strict=True) if not m])
        out = iter(rest)
        return [self.reply if m else next(out) for m in mine]


class FinishRaises(Wrapped):
    """Plays like the oracle, but its bookkeeping at an episode's end raises."""

    def finish(self, key: str) -> dict[str, Any]:
        super().finish(key)
        raise RuntimeError("usage lost")


class OddUsage(Wrapped):
    """Reports usage that is not counts (a third-party policy's own bookkeeping)."""

    def finish(self, key: str) -> dict[str, Any]:
        super().finish(key)
        return {"prompt_tokens": "many", "completion_tokens": None, "turns": 2.0,
                "raw": None}


class EndpointDown(Wrapped):
    """Plays ``good`` turns like the oracle, then raises the endpoint's error (with
    ``message``) for every turn, naming them, as the openai policy does."""

    def __init__(self, good: int, message: str = "401 Unauthorized") -> None:
        super().__init__()
        self.good, self.message = good, message

    def act_many(self, turns):
        from toolmaze_gym.agents.errors import EndpointError

        if self.good <= 0:
            raise EndpointError(self.message, [k for k, _ in turns])
        self.good -= 1
        return super().act_many(turns)


class StartRaises(Wrapped):
    """Cannot open the episodes of ``task_id`` (e.g. a tokenizer that rejects a schema)."""

    def __init__(self, task_id: str) -> None:
        super().__init__()
        self.task_id = task_id

    def start(self, key: str, task: Any, tools: list[dict], mode: str) -> None:
        if key.startswith(self.task_id):
            raise ValueError("cannot render these tools")
        super().start(key, task, tools, mode)
