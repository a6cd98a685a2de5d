"""Loading run directories into report rows: one row per (agent, prompt).

A report compares rows, the paper's "model (w/o hint)" / "model (w/ hint)". NP
episodes always run with the standard prompt (the hint only concerns faults), so a
failure-aware row borrows the NP records of its agent. Records of one agent from
several directories (shards copied from several machines) are merged by episode
key; two agents that share a name but not their options are told apart by their
run directory's name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolmaze_gym.runner import (
    TASKS_FILE,
    RunError,
    load_task_file,
    read_config,
    read_records,
    record_key,
    unique_records,
    warn_duplicates,
)
from toolmaze_gym.tasks.model import Task

PROMPT_LABELS = {"standard": "standard", "failure_aware": "failure-aware"}


@dataclass
class Row:
    """One compared configuration: an agent under one prompt."""

    agent: str
    prompt: str
    records: list[dict[str, Any]]
    sources: list[str] = field(default_factory=list)
    suite: str = ""
    tasks: dict[str, Task] = field(default_factory=dict)  # runs over a task file

    @property
    def name(self) -> str:
        return f"{self.agent} ({PROMPT_LABELS.get(self.prompt, self.prompt)})"


def _load_source(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Records and configuration of a run directory, or of a bare JSONL records file."""
    if path.is_dir():
        records = read_records(path)
        if not records:
            raise RunError(f"{path} holds no trajectory records")
        return records, read_config(path) or {}
    if path.is_file():
        records = []
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        rec = json.loads(line)
                        record_key(rec)
                    except (ValueError, KeyError, TypeError):
                        raise RunError(f"{path}:{lineno}: not a trajectory record") from None
                    records.append(rec)
        if not records:
            raise RunError(f"{path} holds no trajectory records")
        records, dropped = unique_records(records)  # the rule grade applies too
        warn_duplicates(path, dropped)
        return records, {}
    raise RunError(f"no such run directory or records file: {path}")


def _source_tasks(path: Path, records: list[dict[str, Any]]) -> dict[str, Task]:
    """The tasks a run over a task file played: kept in its run directory, or (for a
    bare records file) read from the task file its records name, if it is still there.
    Suite runs return nothing: their tasks are found in the suite."""
    if path.is_dir() and (path / TASKS_FILE).is_file():
        return load_task_file(str(path / TASKS_FILE))
    named = {r["tasks"] for r in records if r.get("tasks")}
    return {k: t for src in sorted(named) if Path(src).is_file()
            for k, t in load_task_file(src).items()}


def load_rows(sources: list[str | Path]) -> list[Row]:
    """Rows of every (agent, prompt) found in ``sources``, in a stable order."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for src in sources:
        path = Path(src)
        records, cfg = _load_source(path)
        tasks = _source_tasks(path, records)
        for rec in records:
            if not all(k in rec for k in ("task_id", "level", "mode", "grade")):
                raise RunError(f"{path}: a record lacks task_id, level, mode or grade")
            agent = str(rec.get("agent") or cfg.get("label") or path.stem)
            options = json.dumps(rec.get("agent_options") or {}, sort_keys=True)
            group = groups.setdefault((agent, options), {"records": {}, "sources": [],
                                                         "dirs": [], "suite": "",
                                                         "tasks": {}})
            group["tasks"].update(tasks)
            group["records"].setdefault(record_key(rec), rec)
            group["suite"] = group["suite"] or rec.get("suite") or cfg.get("suite", "")
            if str(path) not in group["sources"]:
                group["sources"].append(str(path))
                group["dirs"].append(path.name if path.is_dir() else path.stem)
    names = [a for a, _ in groups]
    rows = []
    for (agent, _), group in groups.items():
        label = agent if names.count(agent) == 1 else f"{agent} [{', '.join(group['dirs'])}]"
        recs = list(group["records"].values())
        prompts = sorted({r.get("prompt") or "standard" for r in recs if r["mode"] != "P0"},
                         key=lambda p: list(PROMPT_LABELS).index(p) if p in PROMPT_LABELS
                         else len(PROMPT_LABELS)) or ["standard"]
        for prompt in prompts:
            mine = [r for r in recs if r["mode"] == "P0" or (r.get("prompt") or "standard")
                    == prompt]
            rows.append(Row(label, prompt, mine, group["sources"], group["suite"],
                            group["tasks"]))
    return rows
