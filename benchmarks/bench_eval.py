"""Where an evaluation's time goes, on the same episodes and model in one run.

* prompt tokens per episode (first turn): full JSON tool schemas vs the compact rendering;
* turns/s with and without KV-cache reuse across the turns of an episode;
* batched (one left-padded ``generate`` for all live episodes) vs one at a time;
* the share of wall time the runner spends outside the model (env, grading, records):
  target <= 5 %.

To time real multi-turn episodes with a model that cannot play yet, the model is
teacher-forced: it generates its reply to every turn (timed, counted), but the action
sent to the env is the oracle's, so the conversation grows as in a played episode.
Greedy decoding; the default run is short (a few minutes on 2 CPU cores).

Run: .venv/bin/python benchmarks/bench_eval.py [--episodes 2 --turns 3 --new-tokens 8]
"""

from __future__ import annotations

import argparse
import tempfile
import time

from toolmaze_gym.agents.threads import configure_cpu_threads

configure_cpu_threads()

import gymnasium as gym  # noqa: E402

from toolmaze_gym.agents import make_policy  # noqa: E402
from toolmaze_gym.runner import RunConfig, Selection, run, select  # noqa: E402
from toolmaze_gym.tasks.suite import get_task  # noqa: E402

OUTSIDE_TARGET = 0.05


class TeacherForced:
    """The model answers every turn (timed); the oracle's action is what the env gets."""

    def __init__(self, model) -> None:
        self.model, self.oracle, self.name = model, make_policy("oracle"), "teacher-forced"

    def start(self, key, task, tools, mode):
        self.model.start(key, task, tools, mode)
        self.oracle.start(key, task, tools, mode)

    def act_many(self, turns):
        self.model.act_many(turns)
        return self.oracle.act_many(turns)

    def finish(self, key):
        self.oracle.finish(key)
        return self.model.finish(key)


def prompt_tokens(policy, specs) -> dict[bool, float]:
    """Mean first-turn prompt tokens per episode, full schemas vs compact."""
    env = gym.make("ToolMaze-v0").unwrapped
    out = {}
    for compact in (False, True):
        policy.compact_tools = compact
        counts = []
        for s in specs:
            env.reset(options={"task_id": s.task_id, "mode": s.mode})
            policy.start(s.key, get_task(s.task_id), env.tools, s.mode)
            counts.append(len(policy.prompt_ids(s.key, env.messages)))
            policy.finish(s.key)
        out[compact] = sum(counts) / len(counts)
    policy.compact_tools = True
    return out


def timed(policy, sel: Selection, turns: int, batch: int, kv: bool) -> tuple[float, int, float]:
    """(turns/s, turns, share of wall time outside the model) for one configuration."""
    policy.kv_reuse, policy.batch_size = kv, batch
    with tempfile.TemporaryDirectory() as tmp:
        s = run(RunConfig("hf", selection=sel, max_steps=turns, batch=batch), tmp,
                progress=False, policy=TeacherForced(policy))
    n = s.episodes * turns
    return n / s.wall_s, n, s.outside_share


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=2, help="episodes (C1 tasks, NP)")
    ap.add_argument("--turns", type=int, default=3, help="turns per episode")
    ap.add_argument("--new-tokens", type=int, default=8, help="generated tokens per turn")
    ap.add_argument("--model", help="local HF checkpoint (default: embedded SmolLM2-135M)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    policy = make_policy("hf", model=args.model, compact_tools=True,
                         max_new_tokens=args.new_tokens)
    print(f"model {policy.model_id} loaded in {time.perf_counter() - t0:.1f} s "
          f"on {policy.device}")

    tokens = prompt_tokens(policy, select(Selection(limit=2, modes=["P0"])))
    print(f"prompt tokens / episode (first turn, 8 tasks over C1-C4): full "
          f"{tokens[False]:.0f}, compact {tokens[True]:.0f} "
          f"({tokens[False] / tokens[True]:.2f}x fewer)")

    sel = Selection(levels=["C1"], limit=args.episodes, modes=["P0"])
    kv_rate, n, outside = timed(policy, sel, args.turns, 1, kv=True)
    cold_rate, _, _ = timed(policy, sel, args.turns, 1, kv=False)
    batch_rate, _, _ = timed(policy, sel, args.turns, args.episodes, kv=False)
    print(f"{n} turns ({args.episodes} episodes x {args.turns}, {args.new_tokens} new tokens "
          f"each, compact tools)")
    print(f"  one at a time, KV reuse:    {kv_rate:.3f} turns/s")
    print(f"  one at a time, re-encoding: {cold_rate:.3f} turns/s "
          f"(KV reuse {kv_rate / cold_rate:.2f}x)")
    print(f"  batched x{args.episodes}, re-encoding: {batch_rate:.3f} turns/s "
          f"(batched / one at a time: {batch_rate / cold_rate:.2f}x)")
    verdict = "meets" if outside <= OUTSIDE_TARGET else "misses"
    print(f"wall time outside the model: {100 * outside:.2f}% ({verdict} the "
          f"{100 * OUTSIDE_TARGET:.0f}% target)")


if __name__ == "__main__":
    main()
