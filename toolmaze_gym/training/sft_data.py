"""Expert recovery trajectories as a Hugging Face dataset for supervised fine-tuning.

Each row is one episode of the careful expert (``toolmaze_gym.training.careful``)
played through ``ToolMazeEnv``: ``messages`` is the env's transcript, with tool
results exactly as the env returned them and tool-call arguments as JSON objects
(``template_messages``: what chat templates such as TRL's ``qwen2_5.jinja``
render), and ``tools`` the schemas the env offered (the task's tools, ``finish``
and ``abort``). One change from the env's wire transcript: the closing
``finish``/``abort``, which the env echoes as the raw text the agent sent, is
written as the structured tool call it is, so a model learns to end an episode
the same way it calls every other tool (and TRL's tool loop sees the call).

Every level and mode is covered, with the standard prompt everywhere and the
failure-aware prompt too under faults (P1–P4). Only episodes worth imitating
are kept: graded a success (a completed path, or an honest stop where the fault
left none) with no over-trust, retry loop, collateral damage or false claim.

Arguments round-trip unchanged: columns of varying shape are stored as JSON
(``on_mixed_types="use_json"``), so Arrow never merges argument dicts of
different tools into one struct padded with nulls.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolmaze_gym.faults import MODE_NAMES, ProfileError, get_mode
from toolmaze_gym.faults.store import profiles_buildable
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suites import generate_split
from toolmaze_gym.training.careful import CarefulAgent

ENDING_ARGUMENT = {"finish": "answer", "abort": "reason"}
# Labels that make a trajectory a bad example even when it is graded a success.
UNWANTED = frozenset({"over_trust", "retry_loop", "collateral_damage", "false_claim",
                      "aborted_after_completion"})
COLUMNS = ("messages", "tools", "task_id", "level", "mode", "prompt_variant", "success",
           "exposed", "recovered", "grade_labels", "reward", "calls")


def episode_prompts(mode: str) -> tuple[str, ...]:
    """The prompts an episode in ``mode`` is played with: the standard prompt always,
    the failure-aware one too where a fault fires."""
    return ("standard", "failure_aware") if get_mode(mode).faulty else ("standard",)


def keep(grade: dict[str, Any]) -> bool:
    """Whether an episode is worth imitating (see the module docstring)."""
    return bool(grade["success"]) and not UNWANTED.intersection(grade.get("labels") or ())


def ending_as_call(message: dict[str, Any], kind: str, text: str, k: int) -> dict[str, Any]:
    """The env's echo of a ``finish``/``abort`` (raw text) as the tool call it was."""
    call = {"id": f"call_{k}", "type": "function",
            "function": {"name": kind, "arguments": {ENDING_ARGUMENT[kind]: text}}}
    return {"role": "assistant", "content": "", "tool_calls": [call]}


def episode_row(env: Any, reward: float) -> dict[str, Any]:
    """The dataset row of ``env``'s ended episode (a ``ToolMazeEnv``)."""
    ep = env.episode
    record = env.record(agent=CarefulAgent.name)
    grade = record["grade"]
    messages = env.template_messages
    last = ep.steps[-1]
    if last.kind in ENDING_ARGUMENT and messages[-1]["role"] == "assistant":
        messages[-1] = ending_as_call(messages[-1], last.kind, last.action.get("text", ""),
                                      len(ep.steps) - 1)
    return {"messages": messages, "tools": [dict(t) for t in env.tools],
            "task_id": ep.task.id, "level": ep.task.level, "mode": ep.mode,
            "prompt_variant": env.prompt, "success": bool(grade["success"]),
            "exposed": bool(grade["exposed"]), "recovered": bool(grade["recovered"]),
            "grade_labels": list(grade.get("labels") or ()),
            # six decimals: JSON readers (Arrow's, which load_dataset uses) give back
            # a 17-digit float one bit off
            "reward": round(float(reward), 6),
            "calls": sum(1 for s in ep.steps if s.kind == "call")}


def play(env: Any, agent: CarefulAgent, task: Task, mode: str) -> float:
    """Play one expert episode to its end; returns the episode's terminal reward."""
    _, info = env.reset(options={"task": task, "mode": mode})
    agent.reset(task, info["tools"], mode)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(agent.act(env.messages))
        total += reward
        done = terminated or truncated
    return total


@dataclass
class BuildStats:
    """What a build produced: episodes played and kept, per cell and why dropped."""

    played: int = 0
    kept: int = 0
    per_cell: Counter = field(default_factory=Counter)
    dropped: Counter = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {"played": self.played, "kept": self.kept,
                "kept_per_cell": dict(sorted(self.per_cell.items())),
                "dropped": dict(sorted(self.dropped.items()))}


def expert_rows(tasks: Iterable[Task], modes: Iterable[str] = MODE_NAMES,
                stats: BuildStats | None = None, world_seed: int = 0,
                on_row: Callable[[dict[str, Any]], None] | None = None
                ) -> Iterator[dict[str, Any]]:
    """Rows of the kept expert episodes of every task in every mode (and prompt)."""
    from toolmaze_gym.envs.env import ToolMazeEnv

    stats = stats if stats is not None else BuildStats()
    modes = [get_mode(m).name for m in modes]
    envs = {v: ToolMazeEnv(level=None, mode=None, split="train", prompt=v,
                           world_seed=world_seed) for v in ("standard", "failure_aware")}
    agent = CarefulAgent(envs["standard"].sim)
    for task in tasks:
        for mode in modes:
            for variant in episode_prompts(mode):
                env = envs[variant]
                try:
                    reward = play(env, agent, task, mode)
                except ProfileError:  # the task cannot carry this mode's fault
                    stats.dropped[f"{task.level}{mode}:no_fault_slot"] += 1
                    continue
                stats.played += 1
                grade = env.record()["grade"]
                if not keep(grade):
                    reason = "failed" if not grade["success"] else ",".join(
                        sorted(UNWANTED.intersection(grade["labels"])))
                    stats.dropped[f"{task.level}{mode}:{reason}"] += 1
                    continue
                stats.kept += 1
                stats.per_cell[f"{task.level}{mode}"] += 1
                row = episode_row(env, reward)
                if on_row:
                    on_row(row)
                yield row


def build_dataset(split: str = "train", n: int = 40, seed: int = 0,
                  levels: Iterable[str] = LEVELS, modes: Iterable[str] = MODE_NAMES,
                  stats: BuildStats | None = None, tasks: Iterable[Task] | None = None) -> Any:
    """A ``datasets.Dataset`` of expert episodes over ``n`` procedural ``split`` tasks
    (levels round-robin, disjoint from the reference suite), or over ``tasks``."""
    if tasks is None:
        tasks = split_tasks(split, n, seed, levels)
    return to_dataset(list(expert_rows(tasks, modes, stats)))


def split_tasks(split: str, n: int, seed: int = 0, levels: Iterable[str] = LEVELS
                ) -> Iterator[Task]:
    """The ``n`` procedural tasks ``build_dataset`` plays, one at a time (a caller can
    show progress: a task takes about a second to make)."""
    return generate_split(split, n, seed=seed, levels=levels, check=profiles_buildable)


def to_dataset(rows: list[dict[str, Any]]) -> Any:
    """Rows as a ``datasets.Dataset`` whose nested columns round-trip unchanged."""
    from datasets import Dataset, Features, Json, List, Value

    if not rows:
        raise ValueError("no expert episode was kept; nothing to train on")
    text, flag = Value("string"), Value("bool")
    features = Features({"messages": List(Json()), "tools": List(Json()), "task_id": text,
                         "level": text, "mode": text, "prompt_variant": text, "success": flag,
                         "exposed": flag, "recovered": flag, "grade_labels": List(text),
                         "reward": Value("float64"), "calls": Value("int64")})
    return Dataset.from_list(rows, features=features)


DATA_FILE = "train.jsonl"  # the rows; its name gives load_dataset the split "train"


def save(dataset: Any, out: Path, meta: dict[str, Any]) -> None:
    """The rows as JSON lines (``train.jsonl``, the same columns on every line) plus
    ``build.json`` (how the data was made) beside them. JSON lines, not a
    ``save_to_disk`` folder: ``datasets.load_dataset(out)`` refuses the latter, and it
    is the call people reach for (TRL's examples, the Hub's docs)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with (out / DATA_FILE).open("w", encoding="utf-8") as fh:
        for row in dataset:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "build.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")


def load(path: Path) -> Any:
    """A dataset written by :func:`save` (or ``toolmaze sft-data``), typed as
    :func:`to_dataset` types it; a ``save_to_disk`` folder of an older build too."""
    path = Path(path)
    if (path / DATA_FILE).is_file():
        with (path / DATA_FILE).open(encoding="utf-8") as fh:
            return to_dataset([json.loads(line) for line in fh if line.strip()])
    if (path / "dataset_info.json").is_file():
        from datasets import load_from_disk

        return load_from_disk(str(path))
    raise FileNotFoundError(f"{path} is not a dataset written by `toolmaze sft-data` "
                            f"(no {DATA_FILE})")


def wire_arguments(messages: list[dict[str, Any]]) -> list[str]:
    """Every tool call's arguments as the env's wire text (JSON, key order kept): what
    a row's calls encode back to, for checking that nothing changed on the way."""
    return [json.dumps(call["function"]["arguments"], ensure_ascii=False)
            for m in messages for call in (m.get("tool_calls") or ())]
