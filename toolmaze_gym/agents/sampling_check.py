"""Does the endpoint really sample? Evidence from the run's own repeated prompts.

Servers differ in what they honour: some ignore ``seed``, some ignore
``temperature`` (a template or engine default wins), and a run that believes it
sampled at 1.0 then reports pass^k over k identical tries. The five modes of a task
open with the same conversation (faults are invisible until one fires) and
``--repeats`` replays it, so a run asks the same prompt several times for free. At a
temperature above 0, with each episode's own seed, a sampling server answers such
repeats differently now and then; when :data:`MIN_REPEATS` or more repeats all come
back identical to the first reply of their prompt, :meth:`SamplingCheck.warnings`
says so. It is a warning, not an error: a very peaked model can repeat itself too.

Replies and prompts are compared by what the model decided (:func:`decision`: the
calls' names and arguments, or the text), never by the call ids a server makes up
afresh for every reply: compared with their ids, native ``tool_calls`` never repeat
and the check could never fire for them.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from typing import Any

from toolmaze_gym import hashing

MIN_REPEATS = 4  # repeats (answers after a prompt's first) needed before judging
_MAX_PROMPTS = 4096  # prompts remembered, oldest forgotten first


class SamplingCheck:
    """Collects (request, reply) pairs of a policy that samples at ``temperature``."""

    def __init__(self, temperature: float | None) -> None:
        self.temperature = temperature
        self.first: OrderedDict[str, str] = OrderedDict()  # prompt digest -> first reply
        self.repeats = 0
        self.differing = 0
        self.lock = threading.Lock()  # the openai policy adds from several threads

    def add(self, request: dict[str, Any], reply: str, where: str = "") -> None:
        """Note one reply to ``request`` (its seed aside: each episode has its own) from
        the endpoint ``where`` (a run over several compares each one's replies only)."""
        if not self.temperature:
            return
        prompt = {k: v for k, v in request.items() if k != "seed"}
        prompt["messages"] = [_without_ids(m) for m in prompt.get("messages") or ()]
        text = json.dumps([where, prompt], sort_keys=True, ensure_ascii=False)
        digest = f"{hashing.digest(text):x}"
        reply = decision(reply)
        with self.lock:
            first = self.first.get(digest)
            if first is None:
                self.first[digest] = reply
                while len(self.first) > _MAX_PROMPTS:
                    self.first.popitem(last=False)
                return
            self.repeats += 1
            self.differing += reply != first

    def warnings(self) -> list[str]:
        if self.repeats < MIN_REPEATS or self.differing:
            return []
        return [f"the endpoint may ignore temperature and seed: {self.repeats} repeated "
                f"prompts at temperature {self.temperature} (each episode with its own seed) "
                "all came back identical to their first reply, so repeats (pass^k) may not "
                "be independent samples"]


def decision(reply: str) -> str:
    """What a reply decided, as canonical text: for native tool calls (the OpenAI
    ``{"tool_calls": [...]}`` JSON) each call's name and arguments (parsed when they
    are JSON, so spacing and key order do not count), without the ids; any other
    reply as it is."""
    try:
        data = json.loads(reply)
    except ValueError:
        return reply
    calls = data.get("tool_calls") if isinstance(data, dict) else None
    if not isinstance(calls, list):
        return reply
    return json.dumps([_call(c) for c in calls], sort_keys=True, ensure_ascii=False)


def _call(call: Any) -> Any:
    fn = call.get("function") if isinstance(call, dict) else None
    if not isinstance(fn, dict):
        return call
    arguments = fn.get("arguments")
    if isinstance(arguments, str):
        with contextlib.suppress(ValueError):
            arguments = json.loads(arguments)
    return [fn.get("name"), arguments]


def _without_ids(message: Any) -> Any:
    """A prompt message without the server's call ids (an assistant's ``tool_calls``
    ids and the ``tool_call_id`` answering them): two episodes that made the same
    calls have the same conversation."""
    if not isinstance(message, dict):
        return message
    out = {k: v for k, v in message.items() if k != "tool_call_id"}
    if isinstance(out.get("tool_calls"), list):
        out["tool_calls"] = [{k: v for k, v in c.items() if k != "id"}
                             if isinstance(c, dict) else c for c in out["tool_calls"]]
    return out
