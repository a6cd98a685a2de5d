"""What a report row measured, and whether rows can share one table.

Why: a figure means something only beside the conditions it was measured under. Rows
run on another suite, with other tool documentation, another calling convention (tools
sent natively or described in text), under another grading version or over other
episodes (a 1-task sample beside the 400-task suite) differ for reasons other than the
agent, and a table that sets them side by side without a word invites a false
comparison. ``check`` refuses such rows in one report unless the user allows it
(``--allow-mixed``), and then the report says what differs. The same facts (model,
endpoint host, sampling, convention, coverage) travel into every download, so a
number is never separated from what produced it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from toolmaze_gym.metrics import MODES
from toolmaze_gym.report.runs import Row
from toolmaze_gym.runner import RunError
from toolmaze_gym.tasks.model import LEVELS

DEFAULT_CONVENTION = "text"  # runs recorded before the convention was recorded
EMBEDDED_MODEL = "SmolLM2-135M-Instruct"  # the hf agent's default model


class MixedRuns(RunError):
    """Rows measured under different conditions were asked for in one report."""


@dataclass(frozen=True)
class Coverage:
    """The episodes a row ran: its (C, P) cells, distinct tasks and trajectories."""

    levels: tuple[str, ...]
    modes: tuple[str, ...]
    tasks: int
    n: int
    episodes: frozenset[tuple[str, str]]  # (task id, mode), prompts and repeats aside

    def said(self) -> str:
        """``C1, C3 × NP, P1–P4 · 4 tasks · n=40``."""
        return (f"{span(self.levels)} × {span(self.modes)} · {self.tasks} "
                f"task{'s' * (self.tasks != 1)} · n={self.n}")


@dataclass(frozen=True)
class Basis:
    """Everything a row's figures depend on besides the agent's skill."""

    model: str | None
    endpoint: str | None
    sampling: dict[str, Any] | None
    convention: str | None  # None: the agent reads no prompt (scripted)
    tool_docs: str | None  # schemas, compact, brief; None as above
    suite: str
    grading: str
    coverage: Coverage
    date: str | None
    toolmaze_version: str | None


def span(names: Sequence[str]) -> str:
    """Levels or modes as people write them: ``C1–C4``, ``NP, P1–P4``, ``C1, C3``."""
    order = LEVELS if all(n in LEVELS for n in names) else MODES
    idx = sorted(order.index(n) for n in names if n in order)
    runs: list[list[int]] = []
    for i in idx:
        if runs and i == runs[-1][-1] + 1 and order[runs[-1][-1]] != "P0":
            runs[-1].append(i)
        else:
            runs.append([i])

    def label(i: int) -> str:
        return "NP" if order[i] == "P0" else order[i]

    return ", ".join(f"{label(r[0])}–{label(r[-1])}" if len(r) >= 3
                     else ", ".join(map(label, r)) for r in runs) or "nothing"


def _first(row: Row, key: str) -> Any:
    """A field from the row's records (first that has it), else its run.json."""
    for rec in row.records:
        if rec.get(key) is not None:
            return rec[key]
    return row.config.get(key)


def _options(row: Row) -> dict[str, Any]:
    return dict(_first(row, "agent_options") or {})


def is_scripted(row: Row) -> bool:
    """A built-in scripted agent: no model, no prompt, no tool documentation read."""
    from toolmaze_gym.agents.policy import SCRIPTED_NAMES  # the agents package is heavy

    return str(row.config.get("agent") or row.agent) in SCRIPTED_NAMES


def model_name(row: Row) -> str | None:
    """The model behind a row: what the run recorded, else its ``--model`` (a local
    checkpoint by its folder's name: no path), else the hf agent's embedded model."""
    if is_scripted(row):
        return None
    named = _first(row, "model") or _options(row).get("model")
    kind = str(row.config.get("agent") or "")
    if named is None:
        return EMBEDDED_MODEL if kind == "hf" else None
    named = str(named)
    return PurePath(named).name if kind == "hf" else named


def _host(url: str) -> str:
    """``host[:port]`` of a URL, read by hand (``urlsplit`` rejects a redacted
    ``[REDACTED]`` host): no scheme, credentials before an ``@``, path or query."""
    rest = url.split("://", 1)[-1]
    netloc = re.split(r"[/?#]", rest, maxsplit=1)[0]
    return netloc.rpartition("@")[2]


def endpoint_host(row: Row) -> str | None:
    """``host[:port]`` of the endpoint (several, comma-separated, for a run spread over
    several): no credentials, path or query, so a key in a URL stays out."""
    url = _options(row).get("base_url")
    urls = url if isinstance(url, list | tuple) else [url]
    hosts = list(dict.fromkeys(_host(u) for u in urls if isinstance(u, str) and u))
    return ", ".join(h for h in hosts if h) or None


def convention(row: Row) -> str | None:
    """How tools reached the model: ``native`` (in the request) or ``text`` (in the
    prompt); a run that does not record it is a text run. None for scripted agents."""
    if is_scripted(row):
        return None
    return str(_first(row, "convention") or _options(row).get("convention")
               or DEFAULT_CONVENTION)


def tool_docs(row: Row) -> str | None:
    """How the tools were documented to the model (``--compact-tools``,
    ``--brief-tools`` or full JSON schemas). None for scripted agents."""
    if is_scripted(row):
        return None
    opts = _options(row)
    return "brief" if opts.get("brief_tools") else "compact" if opts.get("compact_tools") \
        else "schemas"


def coverage(row: Row) -> Coverage:
    recs = row.records
    return Coverage(tuple(lv for lv in LEVELS if any(r["level"] == lv for r in recs)),
                    tuple(m for m in MODES if any(r["mode"] == m for r in recs)),
                    len({r["task_id"] for r in recs}), len(recs),
                    frozenset((r["task_id"], r["mode"]) for r in recs))


def grading_versions(row: Row) -> str:
    """The grading version(s) the row's records were made under (``?``: none said)."""
    return "+".join(row.graded_under) or "?"


def suite_of(row: Row) -> str:
    """The shipped suite a row ran, or the task file it ran by its content's digest (two
    files with the same task ids but other tasks are other suites)."""
    digest = row.config.get("task_digest")
    if digest or row.tasks or _first(row, "tasks"):
        return f"task file {str(digest)[:12]}" if digest else "a task file"
    return row.suite or "a task file"


def basis(row: Row) -> Basis:
    started = row.config.get("started")
    return Basis(model_name(row), endpoint_host(row), _first(row, "sampling"),
                 convention(row), tool_docs(row), suite_of(row),
                 grading_versions(row), coverage(row),
                 str(started)[:10] if started else None, row.config.get("toolmaze_version"))


# ---------------------------------------------------------------- comparability

# (what differs, how a row's value is read); None values (scripted agents) match anything
ASPECTS = (("suite", lambda b: b.suite),
           ("tool documentation", lambda b: b.tool_docs),
           ("calling convention", lambda b: b.convention),
           ("grading version", lambda b: b.grading),
           ("coverage", lambda b: b.coverage.episodes))


def differences(rows: Sequence[Row]) -> list[str]:
    """One phrase per aspect in which the rows differ, naming each side."""
    if len(rows) < 2:
        return []
    bases = [(r.name, basis(r)) for r in rows]
    out = []
    for aspect, get in ASPECTS:
        seen: dict[Any, list[str]] = {}
        for name, b in bases:
            if get(b) is not None:
                seen.setdefault(get(b), []).append(name)
        if len(seen) > 1:
            out.append(f"{aspect}: " + " vs ".join(
                f"{_shown(aspect, value, bases, names)} ({', '.join(names)})"
                for value, names in seen.items()))
    return out


def _shown(aspect: str, value: Any, bases: list[tuple[str, Basis]], names: list[str]) -> str:
    if aspect != "coverage":
        return str(value)
    return next(b.coverage.said() for n, b in bases if n == names[0])


def check(rows: Sequence[Row], allow_mixed: bool = False) -> list[str]:
    """The differences between ``rows``; raises :class:`MixedRuns` (one line) when
    there are some and they were not allowed."""
    found = differences(rows)
    if found and not allow_mixed:
        aspect = found[0].partition(":")[0]
        raise MixedRuns(f"these runs cannot share a report, their {found[0]}"
                        + (f" (and {len(found) - 1} more difference"
                           f"{'s' * (len(found) > 2)})" if len(found) > 1 else "")
                        + f"; {HINTS.get(aspect, 'run them alike')}, or pass --allow-mixed "
                        "to report them together anyway")
    return found


HINTS = {"coverage": "run them over the same episodes (the same --suite or --tasks, "
                     "--level, --mode, --task-id, --limit and --sample-seed)",
         "suite": "run them on the same suite",
         "tool documentation": "run them with the same --compact-tools/--brief-tools",
         "calling convention": "run them with the same calling convention",
         "grading version": "run the older one again with this version"}
