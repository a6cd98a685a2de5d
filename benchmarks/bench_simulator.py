"""A simulated tool call against a stdlib-JSON floor, measured in the same run.

The call is what an env step pays for a tool: parse the request, validate the
arguments against the schema, compute from the world, serialise the response.
The floor does the least any JSON tool server could: parse the same request,
look the response up in a dict, serialise it. Target: call speed ≥ 0.5× floor.

Times are CPU seconds of this process (``_timing.best_of``).

Run: .venv/bin/python benchmarks/bench_simulator.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_of

from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.tasks.suite import load_suite


def main() -> None:
    sim = Simulator()
    requests = []  # (request, expected response, starts a new episode)
    for task in load_suite():
        for k, c in enumerate(task.default_path.calls):
            requests.append((json.dumps({"name": c.tool, "arguments": c.args}), c.response,
                             k == 0))
    table = {req: resp for req, resp, _ in requests}
    calls_on(sim, requests)  # warm caches (compiled validators, world families)

    def floor() -> None:
        for req, _, _ in requests:
            json.loads(req)
            json.dumps(table[req])

    def calls() -> None:
        calls_on(sim, requests)

    n = len(requests)
    t_floor, t_call = best_of(floor), best_of(calls)
    fresh = Simulator()  # no memo: every call validates and computes
    t_cold = best_of(lambda: [fresh._memo.clear(), calls_on(fresh, requests)], repeat=3)
    pure = sum(1 for req, _, _ in requests if _is_memoised(sim, req))
    print(f"tool calls measured: {n} (the s* calls of toolmaze-v1, all {len(sim.corpus)} tools); "
          f"{pure} never touch episode state and are memoised after their first run")
    print(f"floor  json.loads + dict lookup + json.dumps: {t_floor / n * 1e6:7.2f} µs/call")
    print(f"simulator, warm (memoised pure calls):       {t_call / n * 1e6:7.2f} µs/call")
    print(f"simulator, cold (every call computed):       {t_cold / n * 1e6:7.2f} µs/call")
    print(f"ratio warm (floor time / call time): {t_floor / t_call:.2f}x   target >= 0.50x")
    print(f"ratio cold (floor time / call time): {t_floor / t_cold:.2f}x")


def calls_on(sim: Simulator, requests: list) -> None:
    """Each task's calls in one episode's state, as an env runs them."""
    state = EpisodeState()
    for req, _, first in requests:
        if first:
            state = EpisodeState()
        d = json.loads(req)
        sim.call(d["name"], d["arguments"], state).to_json()


def _is_memoised(sim: Simulator, req: str) -> bool:
    from toolmaze_gym.corpus.simulator import _memo_key

    d = json.loads(req)
    key = _memo_key(d["name"], d["arguments"])  # (memo key, argument chars) or None
    return key is not None and key[0] in sim._memo


if __name__ == "__main__":
    main()
