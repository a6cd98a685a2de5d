"""Loading run directories into report rows: one row per (agent, prompt).

A report compares rows, the paper's "model (w/o hint)" / "model (w/ hint)". NP
episodes always run with the standard prompt (the hint only concerns faults), so a
failure-aware row borrows the NP records of its agent. Records of one agent from
several directories (shards copied from several machines) are merged by episode
key; two agents that share a name but not their options are told apart by their
run directory's name. Every record's grade is derived again from its trajectory
(``regrade``): stored grades are only compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolmaze_gym.report.records import read_source
from toolmaze_gym.report.regrade import Regraded, TaskFinder, regrade
from toolmaze_gym.runner import TASKS_FILE, load_task_file, read_config, record_key
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import SUITE_NAME, SuiteError, task_index

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
    config: dict[str, Any] = field(default_factory=dict)  # its first run's run.json
    graded_under: list[str] = field(default_factory=list)  # grading versions as recorded
    # the calling convention in the name of a row named by its model (``native``/``text``,
    # as BFCL's FC/prompt): the default name says how the model called tools
    tag: str = ""

    @property
    def name(self) -> str:
        prompt = PROMPT_LABELS.get(self.prompt, self.prompt)
        return f"{self.agent} ({self.tag}, {prompt})" if self.tag else f"{self.agent} ({prompt})"


def _source_tasks(path: Path, records: list[dict[str, Any]]) -> dict[str, Task]:
    """The tasks a run over a task file played: kept in its run directory, or (for a
    bare records file) read from the task file its records name, if it is still there.
    Suite runs return nothing: their tasks are found in the suite."""
    if path.is_dir() and (path / TASKS_FILE).is_file():
        return load_task_file(str(path / TASKS_FILE))
    named = {r["tasks"] for r in records if r.get("tasks")}
    return {k: t for src in sorted(named) if Path(src).is_file()
            for k, t in load_task_file(src).items()}


def _finder(tasks: dict[str, Task], cfg: dict[str, Any]) -> TaskFinder:
    """Where a source's records find their tasks: the task file a record names (kept
    in the run directory as tasks.jsonl), else the suite it ran on."""

    def find(rec: dict[str, Any]) -> tuple[Task, str | None]:
        tid = rec["task_id"]
        if rec.get("tasks"):
            if tid not in tasks:
                raise LookupError(f"task {tid!r} is not in its task file {rec['tasks']} "
                                  "(report the run directory, which keeps its tasks)")
            return tasks[tid], None
        suite = str(rec.get("suite") or cfg.get("suite") or SUITE_NAME)
        try:
            return task_index(suite)[tid], suite
        except (SuiteError, FileNotFoundError):
            raise LookupError(f"its suite {suite!r} is not a shipped suite") from None
        except KeyError:
            raise LookupError(f"task {tid!r} is not in {suite}") from None

    return find


def load_rows(sources: list[str | Path]) -> list[Row]:
    """Rows of every (agent, prompt) found in ``sources``, in a stable order, graded
    again from their trajectories."""
    return load_graded(sources)[0]


def load_graded(sources: list[str | Path]) -> tuple[list[Row], Regraded]:
    """``load_rows``, and what re-grading found (how many stored grades disagreed)."""
    from toolmaze_gym.corpus import Simulator

    groups: dict[tuple[str, str], dict[str, Any]] = {}
    graded, sim = Regraded(), None
    for src in sources:
        path = Path(src)
        located = read_source(path)
        cfg = (read_config(path) or {}) if path.is_dir() else {}
        tasks = _source_tasks(path, [r for _, r in located])
        sim = sim or Simulator()
        first = len(graded.records)
        regrade(located, _finder(tasks, cfg), sim, into=graded)
        for (_, stored), rec in zip(located, graded.records[first:], strict=True):
            agent = _label(rec, cfg, path)
            # runs of one agent merge (shards) only if measured alike: same options,
            # calling convention and suite (a task file's by its content)
            options = json.dumps([rec.get("agent_options") or {},
                                  rec.get("convention") or cfg.get("convention"),
                                  rec.get("suite") or cfg.get("suite"),
                                  cfg.get("task_digest")], sort_keys=True)
            group = groups.setdefault((agent, options), {"records": {}, "sources": [],
                                                         "dirs": [], "suite": "",
                                                         "tasks": {}, "config": cfg,
                                                         "versions": set(),
                                                         "tag": _tag(rec, cfg, agent)})
            group["versions"].add(_stored_version(stored))
            group["tasks"].update(tasks)
            group["records"].setdefault(record_key(rec), rec)
            group["suite"] = group["suite"] or rec.get("suite") or cfg.get("suite", "")
            if str(path) not in group["sources"]:
                group["sources"].append(str(path))
                group["dirs"].append(path.name if path.is_dir() else path.stem)
    return _rows(groups), graded


def _stored_version(rec: dict[str, Any]) -> str:
    """The grading version a record was made under (re-grading replaces it)."""
    old = rec.get("grade") if isinstance(rec.get("grade"), dict) else {}
    return str(rec.get("grading_version") or old.get("version") or "?")


STRICT_SUFFIX = " (strict)"


def _label(rec: dict[str, Any], cfg: dict[str, Any], path: Path) -> str:
    """The row's name (see ``_named``), with `` (strict)`` when the run's replies were
    constrained to valid calls (``--strict-calls``): strict and free decoding of one
    model are different agents and never share a row, whatever label the runs got."""
    name = _named(rec, cfg, path)
    options = rec.get("agent_options") or cfg.get("agent_options") or {}
    strict = isinstance(options, dict) and options.get("strict_calls") is True
    return f"{name}{STRICT_SUFFIX}" if strict and not name.endswith(STRICT_SUFFIX) else name


def _named(rec: dict[str, Any], cfg: dict[str, Any], path: Path) -> str:
    """The run's ``--label``, but a model run left with the default label (the agent
    kind, ``openai`` or ``hf``) is named by its model."""
    agent = str(rec.get("agent") or cfg.get("label") or path.stem)
    if agent in ("openai", "hf") and cfg.get("agent") == agent:
        from toolmaze_gym.report.basis import EMBEDDED_MODEL

        model = rec.get("model") or cfg.get("model") or \
            (rec.get("agent_options") or {}).get("model")
        if model:
            return str(Path(str(model)).name if agent == "hf" else model)
        return EMBEDDED_MODEL if agent == "hf" else agent
    return agent


def _tag(rec: dict[str, Any], cfg: dict[str, Any], label: str) -> str:
    """The convention shown in the name of a row that ``_label`` named by its model (not
    in a label the user chose): ``text`` where the run did not record one."""
    kind = str(cfg.get("agent") or "")
    if kind not in ("openai", "hf") or label == kind or rec.get("agent") != kind:
        return ""
    return str(rec.get("convention") or cfg.get("convention") or "text")


def _rows(groups: dict[tuple[str, str], dict[str, Any]]) -> list[Row]:
    """One row per (agent, prompt); a failure-aware row borrows its agent's NP records."""
    names = [(a, g["tag"]) for (a, _), g in groups.items()]  # a tag tells rows apart too
    rows = []
    for (agent, _), group in groups.items():
        label = agent if names.count((agent, group["tag"])) == 1 \
            else f"{agent} [{', '.join(group['dirs'])}]"
        recs = list(group["records"].values())
        prompts = sorted({r.get("prompt") or "standard" for r in recs if r["mode"] != "P0"},
                         key=lambda p: list(PROMPT_LABELS).index(p) if p in PROMPT_LABELS
                         else len(PROMPT_LABELS)) or ["standard"]
        for prompt in prompts:
            mine = [r for r in recs if r["mode"] == "P0" or (r.get("prompt") or "standard")
                    == prompt]
            rows.append(Row(label, prompt, mine, group["sources"], group["suite"],
                            group["tasks"], group["config"],
                            sorted(group["versions"]), group["tag"]))
    return rows
