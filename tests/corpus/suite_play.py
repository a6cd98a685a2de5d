"""Playing chosen suite episodes with scripted agents, as record text: the shared part
of the two-order determinism test, importable by the subprocess that plays them again.

An episode is ``(task id, mode, agent)``; ``agent`` is ``oracle`` (knows the fault
profile) or ``careless`` (the oracle, but every integer 0 or 1 argument sent as
``false``/``true``: the 422s that once poisoned a type-loose memo for the oracle's
integers). Records are written as canonical JSON, so two plays compare byte for byte.

Run as ``python -m tests.corpus.suite_play EPISODES.json OUT.jsonl``: plays the
episodes in the order given, on one simulator, in a fresh process.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolmaze_gym.agents.scripted import OracleAgent
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import task_index

Episode = tuple[str, str, str]  # (task id, mode, agent)


class CarelessAgent(OracleAgent):
    """The oracle with its integer 0/1 arguments sent as JSON booleans."""

    name = "careless"

    def act(self, messages: list[dict[str, Any]]) -> str:
        raw = super().act(messages)
        call = json.loads(raw)
        args = call.get("arguments")
        if not isinstance(args, dict):
            return raw
        call["arguments"] = {k: bool(v) if type(v) is int and v in (0, 1) else v
                             for k, v in args.items()}
        return json.dumps(call, ensure_ascii=False)


def _agent(kind: str, sim: Simulator) -> OracleAgent:
    return {"oracle": OracleAgent, "careless": CarelessAgent}[kind](sim)


def play(episodes: Sequence[Episode], sim: Simulator | None = None) -> dict[Episode, str]:
    """Each episode's record as canonical JSON text, played in the order given on one
    simulator (shared, as the env and the servers share it)."""
    sim = sim or Simulator()
    tasks: dict[str, Task] = task_index()
    out = {}
    for tid, mode, kind in episodes:
        rec = rollout(tasks[tid], mode, _agent(kind, sim), sim)
        out[(tid, mode, kind)] = json.dumps(rec, sort_keys=True, ensure_ascii=False)
    return out


def main(argv: Sequence[str]) -> int:
    listed = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    played = play([(tid, mode, kind) for tid, mode, kind in listed])
    with Path(argv[1]).open("w", encoding="utf-8") as fh:
        for ep, text in played.items():
            fh.write(json.dumps([list(ep), text], ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
