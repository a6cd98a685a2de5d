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
"""

from __future__ import annotations

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

    def add(self, request: dict[str, Any], reply: str) -> None:
        """Note one reply to ``request`` (its seed aside: each episode has its own)."""
        if not self.temperature:
            return
        prompt = {k: v for k, v in request.items() if k != "seed"}
        digest = f"{hashing.digest(json.dumps(prompt, sort_keys=True, ensure_ascii=False)):x}"
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
