"""Evaluation runs: a selection of (task, mode, prompt, repeat) episodes driven through
the Gymnasium pool by one policy, written as one JSONL record per finished trajectory.

Why it is shaped this way:

* Every record is flushed and fsync'd as soon as its episode ends, and every episode
  has a key (task, mode, prompt, repeat), so ``resume`` skips exactly the keys already
  on disk: an interrupted run loses at most the episodes in flight and never repeats
  one. ``--resume`` first repairs the file's last line (:func:`repair`): a complete
  record lacking its newline gets it, anything else there (cut short, garbage, not
  UTF-8) is dropped with one warning, and the count is taken after the repair. A
  record keeps each raw text once, in its steps, cut like the env's echo
  (``episode.MAX_RAW_CHARS``, with ``raw_chars``). One run directory holds one
  sharding: shards of another count are refused (they would replay episodes).
* ``shard=(i, n)`` takes every n-th episode of the ordered selection, and each shard
  writes its own file, so several machines can fill one run directory; ``report``
  merges the files.
* The runner never lets one bad episode stop the run: an episode whose prompt outgrows
  the model (``ContextOverflow``), that goes round in a loop (:func:`cycling`: its
  last ``loop_guard`` actions, with their responses, repeat one cycle of at most
  ``loop_guard // 2`` actions), or whose policy call raises is cut through the env
  (graded like a truncation) with the reason in its record; so is one whose policy
  returns something other than text or cannot start it, while text with broken
  Unicode is played and recorded as valid UTF-8 (:func:`valid_text`). Only a policy
  that fails ``MAX_CONSECUTIVE_ERRORS`` episodes in a row stops the run; records cut
  for an error are run again on ``resume``.
* Endpoint trouble is not a model failure: an ``EndpointError``
  (:mod:`toolmaze_gym.agents.errors`, raised by a policy whose server rejects the key,
  is down, keeps failing) stops the run at once with :class:`EndpointStop`, without
  booking the episodes in flight (``toolmaze eval`` exits 3).
* One writer per records file (:mod:`toolmaze_gym.runlock`): a second process is
  refused with the holder's pid, so nothing is recorded twice; records of one episode
  found twice anyway (files copied together) count once (:func:`unique_records`, the
  rule ``grade`` and ``report`` share).
* No secret is written: records and run.json go through :func:`to_json`, which
  redacts the configured key, the environment's secrets, URL credentials and token
  shapes (:mod:`toolmaze_gym.redact`).
* ``repeats`` (pass^k) plays each episode k times under keys that differ only in the
  repeat index. A sampling policy seeds each episode from its seed and that key
  (``toolmaze_gym.agents.policy.episode_seed``), so the k runs differ and a rerun
  with the same seed reproduces them; greedy policies give k identical runs.
* The tasks come from a shipped suite or from a task file (``Selection.tasks``: a JSONL
  file such as ``toolmaze generate --split dev`` writes, or a suite directory). The env
  gets each task itself and builds its fault profile deterministically from (task,
  mode); run.json records the file and a digest of its tasks (a resume over other
  tasks is refused; a moved file resumes), and the run keeps the chosen tasks in
  ``tasks.jsonl`` so reports can show them wherever the file has gone.
* The failure-aware prompt applies to P1–P4 only (as in the paper): NP episodes always
  use the standard prompt, once, and reports share them between both prompt rows.
* A run is keyed by what it measures, not by where it runs: ``base_url`` and the
  other transport options (:data:`TRANSPORT_OPTIONS`) may differ between a run's
  shards and sessions (one endpoint per machine, a resume on another server), the
  model may not (run.json's ``model``: the one the policy names, read from the
  endpoint when not given).
* A run has one calling convention (:func:`convention_of`, ``convention`` in run.json
  and every record): ``native`` when the tools travel in the request (``openai`` without
  ``--compact-tools``), ``text`` when the model writes its calls as text. The env words
  the system prompt for it (:mod:`toolmaze_gym.prompts`), so it is part of what a run
  measures; a run.json from before conventions were recorded used the text prompt.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from toolmaze_gym import hashing
from toolmaze_gym.actions import parse_action
from toolmaze_gym.faults import MODE_NAMES, get_mode
from toolmaze_gym.prompts import NATIVE, PROMPTS, TEXT
from toolmaze_gym.redact import Redactor, named_secrets
from toolmaze_gym.runlock import LockHeld, check_free, run_lock
from toolmaze_gym.tasks.model import LEVELS, Task
from toolmaze_gym.tasks.suite import SUITE_NAME, SuiteError, sha256, task_index
from toolmaze_gym.utf8 import valid_text

RUN_FILE = "run.json"
RECORDS_GLOB = "records*.jsonl"
MAX_CONSECUTIVE_ERRORS = 5
STANDARD = "standard"
# Fields of run.json that define what a run measures: every shard and every resume
# must agree on them (batch size, shard and progress display may differ).
IDENTITY = ("agent", "label", "convention", "agent_options", "suite", "task_digest", "levels",
            "modes", "task_ids", "limit", "sample_seed", "prompts", "repeats", "max_steps",
            "loop_guard")
# Options that say where and how fast requests go, not what is measured: shards and
# resumes of one run may differ in them.
TRANSPORT_OPTIONS = ("base_url", "api_key_env", "concurrency", "timeout", "max_retries")
# What a run.json written before a field existed meant by its absence.
_IDENTITY_BEFORE = {"convention": TEXT}
TASKS_FILE = "tasks.jsonl"  # the tasks of a run over a task file, for reports
log = logging.getLogger(__name__)

__all__ = ["EndpointStop", "RunConfig", "RunError", "RunSummary",
           "Selection", "read_records", "record_key", "run", "run_lock", "select",
           "unique_records"]


class RunError(Exception):
    """A run cannot start or go on (bad selection, conflicting run directory, a policy
    that keeps failing); the message is one line for the user."""


class EndpointStop(RunError):
    """The policy's endpoint failed (an :class:`EndpointError`: a rejected key, a dead
    server): the run stopped without booking the episodes in flight, which
    ``--resume`` plays once the endpoint works. ``toolmaze eval`` exits with
    :data:`EXIT_ENDPOINT`."""


EXIT_ENDPOINT = 3


# ---------------------------------------------------------------- selection


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode to run; ``key`` names it in records, resume and shards."""

    task_id: str
    level: str
    mode: str
    prompt: str
    repeat: int

    @property
    def key(self) -> str:
        return f"{self.task_id}/{self.mode}/{self.prompt}/{self.repeat}"


def record_key(rec: dict[str, Any]) -> str:
    """The episode key of a trajectory record (the same as ``EpisodeSpec.key``)."""
    return f"{rec['task_id']}/{rec['mode']}/{rec.get('prompt') or STANDARD}/" \
           f"{int(rec.get('repeat', 0))}"


def convention_of(agent: str, options: dict[str, Any]) -> str:
    """The calling convention of an agent with ``options``: ``native`` for an ``openai``
    endpoint that gets the tool schemas in the request, ``text`` for every agent whose
    calls ToolMaze parses from text (``--compact-tools``/``--brief-tools``, ``hf``,
    which renders tools into its prompt and parses what the model writes, and the
    scripted agents, which read no prompt)."""
    native = agent == "openai" and not (options.get("compact_tools")
                                        or options.get("brief_tools"))
    return NATIVE if native else TEXT


def prompt_for(mode: str, prompt: str) -> str:
    """The system prompt an episode uses: the failure-aware hint only under a fault."""
    return STANDARD if mode == "P0" else prompt


@dataclass
class Selection:
    """Which episodes a run plays. ``limit`` caps the tasks per (C, P) cell, drawn
    per level with ``sample_seed`` and shared by every mode of that level (paired
    comparisons across modes). ``tasks`` (a JSONL task file such as ``toolmaze generate``
    writes, or a suite directory) replaces the shipped ``suite`` as the task source."""

    suite: str = SUITE_NAME
    levels: Sequence[str] = LEVELS
    modes: Sequence[str] = MODE_NAMES
    task_ids: Sequence[str] = ()
    limit: int | None = None
    sample_seed: int = 0
    prompts: Sequence[str] = (STANDARD,)
    repeats: int = 1
    tasks: str | None = None

    def normalised(self) -> Selection:
        """A copy with validated, canonical values; raises RunError naming the bad one."""
        bad = [lv for lv in self.levels if lv not in LEVELS]
        if bad or not self.levels:
            raise RunError(f"unknown level {bad[0] if bad else '(none)'!r}; "
                           f"choose from {', '.join(LEVELS)}")
        try:
            modes = [get_mode(m).name for m in self.modes]
        except (ValueError, KeyError) as exc:
            raise RunError(str(exc).strip("'\"")) from None
        if not modes:
            raise RunError("no mode selected")
        bad = [p for p in self.prompts if p not in PROMPTS]
        if bad or not self.prompts:
            raise RunError(f"unknown prompt {bad[0] if bad else '(none)'!r}; "
                           f"choose from {', '.join(PROMPTS)}")
        if self.limit is not None and self.limit < 1:
            raise RunError("--limit must be at least 1 task per cell")
        if self.repeats < 1:
            raise RunError("--repeats must be at least 1")
        return Selection(self.suite, [lv for lv in LEVELS if lv in self.levels],
                         [m for m in MODE_NAMES if m in modes], list(dict.fromkeys(self.task_ids)),
                         self.limit, int(self.sample_seed),
                         [p for p in PROMPTS if p in self.prompts], int(self.repeats),
                         self.tasks)


def _tasks(sel: Selection) -> dict[str, Task]:
    """The tasks of the selection's source by id: the shipped suite, or the task file."""
    if sel.tasks is None:
        try:
            return task_index(sel.suite)
        except (SuiteError, FileNotFoundError) as exc:
            raise RunError(str(exc)) from None
    return load_task_file(sel.tasks)


def load_task_file(source: str) -> dict[str, Task]:
    """Tasks of a JSONL task file or a suite directory (read as every command reads
    task files), with a one-line error for a bad source."""
    from toolmaze_gym.tasks.files import TaskFileError, load_tasks

    if not Path(source).exists():
        raise RunError(f"no such task file or suite directory: {source}")
    try:
        tasks = load_tasks(source)
    except TaskFileError as exc:
        raise RunError(str(exc)) from None
    out: dict[str, Task] = {}
    for task in tasks:
        if task.id in out:
            raise RunError(f"{source}: the task id {task.id!r} appears twice (records are "
                           "keyed by task id)")
        out[task.id] = task
    return out


def task_digest(tasks: Iterable[Task]) -> str:
    """A digest of a task set's content: a resume must play the very same tasks, wherever
    the file lies now."""
    return sha256("\n".join(json.dumps(t.to_dict(), sort_keys=True, ensure_ascii=False)
                             for t in tasks).encode("utf-8"))


def _chosen_tasks(sel: Selection, tasks: dict[str, Task]) -> list[Task]:
    """The tasks per level, in suite order, after ``task_ids`` and ``limit``."""
    if sel.task_ids:
        missing = [t for t in sel.task_ids if t not in tasks]
        if missing:
            raise RunError(f"no task {missing[0]!r} in {sel.tasks or 'suite ' + sel.suite}")
        pool = [tasks[t] for t in sel.task_ids]
    else:
        pool = list(tasks.values())
    out: list[Task] = []
    for level in sel.levels:
        of_level = [t for t in pool if t.level == level]
        if sel.limit is not None and len(of_level) > sel.limit:
            rng = np.random.default_rng([sel.sample_seed, LEVELS.index(level)])
            keep = set(rng.permutation(len(of_level))[: sel.limit].tolist())
            of_level = [t for k, t in enumerate(of_level) if k in keep]
        out += of_level
    if not out:
        raise RunError("the selection holds no task (check --level and --task-id)")
    return out


def select(sel: Selection, tasks: dict[str, Task] | None = None) -> list[EpisodeSpec]:
    """Every episode of a selection, in a fixed order (repeat, task, mode, prompt).

    NP episodes appear once, with the standard prompt, whatever the prompts chosen.
    ``tasks``: the source's tasks when already loaded.
    """
    sel = sel.normalised()
    chosen = _chosen_tasks(sel, _tasks(sel) if tasks is None else tasks)
    specs: dict[str, EpisodeSpec] = {}
    for repeat in range(sel.repeats):
        for task in chosen:
            for mode in sel.modes:
                for prompt in sel.prompts:
                    spec = EpisodeSpec(task.id, task.level, mode, prompt_for(mode, prompt), repeat)
                    specs.setdefault(spec.key, spec)
    return list(specs.values())


def shard(specs: Sequence[EpisodeSpec], index: int, count: int) -> list[EpisodeSpec]:
    """Shard ``index`` of ``count`` (0-based): every ``count``-th episode, so shards are
    disjoint, cover the selection, and mix cells evenly."""
    if count < 1 or not 0 <= index < count:
        raise RunError(f"bad shard {index}/{count}: use i/n with 0 <= i < n")
    return list(specs[index::count])


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/n"`` → (i, n)."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise RunError(f"bad --shard {text!r}: use i/n, e.g. 0/4") from None
    shard([], i, n)
    return i, n


# ---------------------------------------------------------------- run directory


def records_name(shard_of: tuple[int, int]) -> str:
    i, n = shard_of
    return "records.jsonl" if n == 1 else f"records.shard-{i}-of-{n}.jsonl"


def repair(path: Path) -> str:
    """Make a records file end in a complete record, or say what could not be kept.

    Only the last line can be a kill's (or a careless hand's) leftover: a complete
    record that lacks its newline gets it; anything else there (a line cut short,
    garbage, ``{}``, bytes that are not UTF-8) is dropped, since no episode can be
    read from it (the episode it held runs again). Returns one line saying what was
    dropped ("" when nothing was). Only the file's tail is read; a path that is not
    a regular file is left alone."""
    if not path.is_file():
        return ""
    with path.open("r+b") as fh:
        size = fh.seek(0, os.SEEK_END)
        start = _last_line_start(fh, size)
        fh.seek(start)
        last = fh.read()
        if not last.strip() or (last.endswith(b"\n") and _is_record(last)):
            return ""
        if _is_record(last):
            fh.write(b"\n")
            said = ""
        else:
            fh.truncate(start)
            said = (f"{path}: dropped its last line ({len(last)} bytes, not a complete "
                    "trajectory record: cut short by a stop, or garbage); that episode "
                    "runs again")
        fh.flush()
        os.fsync(fh.fileno())
    return said


def _last_line_start(fh: Any, size: int, chunk: int = 1 << 16) -> int:
    """The offset where the file's last line starts (a final newline ends that line)."""
    end = size - 1  # a newline at the very end closes the last line, not starts one
    while end > 0:
        begin = max(0, end - chunk)
        fh.seek(begin)
        found = fh.read(end - begin).rfind(b"\n")
        if found >= 0:
            return begin + found + 1
        end = begin
    return 0


def _is_record(line: bytes) -> bool:
    """Whether ``line`` holds one trajectory record as :func:`read_records` reads it."""
    try:
        rec = json.loads(line.decode("utf-8"))
        record_key(rec)
    except (ValueError, KeyError, TypeError):
        return False
    return isinstance(rec, dict) and isinstance(rec.get("steps"), list)


def unique_records(records: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """One record per episode, and how many duplicates were dropped: the one rule
    ``grade``, ``report`` and ``--resume`` share.

    Records of one (agent, task, mode, prompt, repeat) are the same episode, whatever
    file they come from (two writers, a shard copied twice): the first finished one is
    kept. A record cut for a policy error gives way to a later run of its episode
    (that is what ``--resume`` does with it) and is not counted as a duplicate.
    """
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    dropped = 0
    for rec in records:
        key = (str(rec.get("agent") or ""), record_key(rec))
        old = by_key.get(key)
        if old is None or old.get("cut") == "error":
            by_key[key] = rec
        elif rec.get("cut") != "error":
            dropped += 1
    return list(by_key.values()), dropped


def warn_duplicates(where: str | Path, dropped: int) -> None:
    """Tell the user (through the ``toolmaze_gym`` logger) that duplicates were dropped."""
    if dropped:
        log.warning("%s: %d duplicate records of episodes recorded before were ignored "
                    "(the first record of each episode counts)", where, dropped)


def read_records(run_dir: Path) -> list[dict[str, Any]]:
    """Every record in a run directory (all shard files), one per episode
    (:func:`unique_records`; dropped duplicates are logged as a warning), redacted as
    they are read, so a report over a run recorded before redaction copies no key."""
    found: list[dict[str, Any]] = []
    redactor = Redactor.from_environment()
    for path in sorted(run_dir.glob(RECORDS_GLOB)):
        with path.open("rb") as fh:
            for lineno, data in enumerate(fh, 1):
                if not data.strip():
                    continue
                try:
                    line = data.decode("utf-8")
                except UnicodeDecodeError:
                    if not data.endswith(b"\n"):
                        continue  # a line cut short by a kill: that episode reruns
                    raise RunError(f"{path}:{lineno}: not UTF-8 text (not a trajectory "
                                   "record)") from None
                try:
                    rec = json.loads(redactor(line))
                    record_key(rec)
                except RecursionError:
                    raise RunError(f"{path}:{lineno}: nested too deeply to be a trajectory "
                                   "record") from None
                except (ValueError, KeyError, TypeError):
                    if not line.endswith("\n"):
                        continue  # a line cut short by a kill: that episode reruns
                    raise RunError(f"{path}:{lineno}: not a trajectory record") from None
                found.append(rec)
    kept, dropped = unique_records(found)
    warn_duplicates(run_dir, dropped)
    return kept


def done_keys(run_dir: Path) -> set[str]:
    """Keys of finished episodes (records cut for a policy error run again)."""
    return {record_key(r) for r in read_records(run_dir) if r.get("cut") != "error"}


def read_config(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / RUN_FILE
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise RunError(f"{path} is not valid JSON") from None


def _jsonable(obj: Any) -> Any:
    """What a record holds that JSON cannot (a policy's odd usage values): as text."""
    if isinstance(obj, bytes | bytearray):
        return bytes(obj).decode("utf-8", "replace")
    return repr(obj)


def to_json(obj: Any, redactor: Redactor, indent: int | None = None) -> str:
    """JSON text as runs write it: valid UTF-8 whatever the strings hold, and without
    secrets (redacted in the finished text, so no field is missed)."""
    return redactor(valid_text(json.dumps(obj, ensure_ascii=False, indent=indent,
                                          default=_jsonable)))


def _write_json_atomic(path: Path, obj: Any, redactor: Redactor | None = None) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(to_json(obj, redactor or Redactor(), indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


class RecordWriter:
    """Appends records to one JSONL file, each flushed and fsync'd before returning,
    each one line of valid UTF-8 JSON without secrets (:func:`to_json`)."""

    def __init__(self, path: Path, redactor: Redactor | None = None) -> None:
        said = repair(path)
        if said:
            log.warning("%s", said)
        self.path, self.redactor = path, redactor or Redactor()
        self._fh = path.open("a", encoding="utf-8")

    def write(self, rec: dict[str, Any]) -> None:
        self._fh.write(to_json(rec, self.redactor) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()


# ---------------------------------------------------------------- configuration


@dataclass
class RunConfig:
    """Everything a run needs besides its directory. ``agent_options`` must be JSON
    values (they are written to run.json and every record)."""

    agent: str
    agent_options: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    selection: Selection = field(default_factory=Selection)
    max_steps: int = 25
    loop_guard: int = 8  # cut when this many last turns repeat one cycle (0: never)
    batch: int | None = None  # episodes in flight; None: the policy's preference
    share_turns: bool = True  # answer repeated turns of greedy policies from memory
    shard: tuple[int, int] = (0, 1)

    def identity(self, tasks: dict[str, Task] | None = None) -> dict[str, Any]:
        """The fields every shard and resume must share; a task file counts by its
        content (``task_digest``), so a moved file resumes and an edited one does not."""
        sel = self.selection.normalised()
        digest = None
        if sel.tasks is not None:
            digest = task_digest((tasks if tasks is not None else _tasks(sel)).values())
        return {"agent": self.agent, "label": self.label or self.agent,
                "agent_options": self.agent_options,
                "convention": convention_of(self.agent, self.agent_options),
                "suite": sel.suite,
                "task_digest": digest,
                "levels": list(sel.levels), "modes": list(sel.modes),
                "task_ids": list(sel.task_ids), "limit": sel.limit,
                "sample_seed": sel.sample_seed, "prompts": list(sel.prompts),
                "repeats": sel.repeats, "max_steps": self.max_steps,
                "loop_guard": self.loop_guard}


def run_redactor(cfg: RunConfig) -> Redactor:
    """The redactor of a run: the configured key (``api_key_env``), the environment's
    secrets, the secret-looking parts of the endpoints' ``base_url`` (a key in its
    path) and credentials in ``extra_body``, wherever they appear (see
    :mod:`toolmaze_gym.redact`)."""
    opts = cfg.agent_options
    return Redactor.from_environment([str(opts.get("api_key_env") or "")],
                                     urls=endpoint_urls(opts.get("base_url")),
                                     values=named_secrets(opts.get("extra_body")))


def endpoint_urls(base_url: Any) -> list[str]:
    """The endpoint URLs an ``openai`` run's ``base_url`` option names (one, or a list
    of several that share the run)."""
    urls = base_url if isinstance(base_url, list | tuple) else [base_url]
    return [u for u in urls if isinstance(u, str)]


def _identity_on_disk(cfg: RunConfig, tasks: dict[str, Task], redactor: Redactor) -> dict:
    """The identity as run.json holds it: tuples as lists, secrets redacted (so a run
    whose ``--base-url`` carries a key still matches its own run.json)."""
    return json.loads(to_json(cfg.identity(tasks), redactor))


def _check_dir(run_dir: Path, cfg: RunConfig, resume: bool, tasks: dict[str, Task],
               redactor: Redactor) -> Path:
    """Refuse a run directory that cannot take this run (another configuration, records
    without ``--resume``, a live writer); returns this shard's records file. Writes
    nothing, so a refused run leaves no trace."""
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError(f"{run_dir} exists and is not a directory")
    ident = _comparable(_identity_on_disk(cfg, tasks, redactor))
    old = read_config(run_dir) if run_dir.is_dir() else None
    if old is not None:
        old = _comparable(old)
        diff = [k for k in IDENTITY if old.get(k, _IDENTITY_BEFORE.get(k)) != ident[k]]
        if diff and diff[0] == "task_digest":
            raise RunError(f"{run_dir} holds a run over other tasks (from "
                           f"{old.get('tasks') or 'suite ' + str(old.get('suite'))}); "
                           "use a new --out or the same task source")
        if diff:
            was = old.get(diff[0], _IDENTITY_BEFORE.get(diff[0]))
            raise RunError(f"{run_dir} holds a run with another {diff[0]} "
                           f"({was!r} vs {ident[diff[0]]!r}); "
                           "use a new --out or the same settings")
    _check_sharding(run_dir, cfg.shard)
    path = run_dir / records_name(cfg.shard)
    try:
        check_free(path)
    except LockHeld as exc:
        raise RunError(str(exc)) from None
    _check_unused(path, resume)
    return path


def _comparable(identity: dict[str, Any]) -> dict[str, Any]:
    """An identity as shards and resumes compare it: without the transport options."""
    opts = identity.get("agent_options")
    if not isinstance(opts, dict):
        return identity
    return {**identity, "agent_options": {k: v for k, v in opts.items()
                                          if k not in TRANSPORT_OPTIONS}}


def _check_model(run_dir: Path, model: Any) -> None:
    """Refuse a policy whose model is not the run's (an endpoint read for its only model
    may serve another one than the run's other shards or sessions)."""
    old = read_config(run_dir) if run_dir.is_dir() else None
    was = old.get("model") if old else None
    if was is not None and model is not None and was != model:
        raise RunError(f"{run_dir} holds a run of model {was!r}, and this policy's model is "
                       f"{model!r}; use a new --out or endpoints serving {was!r}")


def _check_sharding(run_dir: Path, shard_of: tuple[int, int]) -> None:
    """Refuse a sharding other than the one the run directory's records were made with:
    shards 0/1 and 0/2 of one selection overlap, and every episode they share would
    be played (and paid for) twice."""
    count = shard_of[1]
    for path in sorted(run_dir.glob(RECORDS_GLOB)) if run_dir.is_dir() else []:
        match = _SHARD_FILE.fullmatch(path.name)
        theirs = 1 if path.name == records_name((0, 1)) else \
            int(match.group(2)) if match else None
        if theirs is not None and theirs != count and path.is_file() and path.stat().st_size:
            raise RunError(f"{run_dir} holds records sharded {theirs} ways ({path.name}); "
                           f"this run is shard {shard_of[0]}/{count}: use --shard i/{theirs} "
                           "or a new --out")


_SHARD_FILE = re.compile(r"records\.shard-(\d+)-of-(\d+)\.jsonl")


def _check_unused(path: Path, resume: bool) -> None:
    if path.exists() and path.stat().st_size and not resume:
        raise RunError(f"{path} already holds records; pass --resume to continue the run "
                       "or choose a new --out")


def _init_dir(run_dir: Path, cfg: RunConfig, total: int, tasks: dict[str, Task],
              chosen: list[str], redactor: Redactor,
              sampling: dict[str, Any] | None = None, model: Any = None) -> None:
    """Create the run directory and its run.json (once: shards share it). A run over a
    task file also keeps its chosen tasks (tasks.jsonl), so reports can show them
    wherever the file has gone."""
    from toolmaze_gym import __version__

    run_dir.mkdir(parents=True, exist_ok=True)
    if (run_dir / RUN_FILE).exists():
        return
    source = cfg.selection.tasks
    if source is not None:
        lines = [json.dumps(tasks[t].to_dict(), ensure_ascii=False) + "\n" for t in chosen]
        tmp = run_dir / f".{TASKS_FILE}.{os.getpid()}.tmp"
        tmp.write_text("".join(lines), encoding="utf-8")
        os.replace(tmp, run_dir / TASKS_FILE)
    _write_json_atomic(run_dir / RUN_FILE, {
        **_identity_on_disk(cfg, tasks, redactor),
        "tasks": None if source is None else str(Path(source).resolve()), "episodes": total,
        "sampling": sampling, "model": model,
        "toolmaze_version": __version__,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": f"{platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs)"},
        redactor)


# ---------------------------------------------------------------- shared turns


class SharedTurns:
    """Greedy decoding is a pure function of the conversation, and an episode's
    conversation is the same in every mode until a fault fires (the opening turn
    always is): this wrapper answers a turn it has seen before from memory instead of
    asking the model again. Usage counts only what the model processed; the record's
    ``usage["shared_turns"]`` says how many turns came from memory. The runner wraps
    only policies that decode greedily (``temperature == 0``). Turns of one batch that
    share a conversation (the five modes of a task open alike) cost one request too."""

    def __init__(self, inner: Any, size: int = 4096) -> None:
        self.inner, self.name, self.size = inner, inner.name, size
        self.batch_size = getattr(inner, "batch_size", 1)
        self.sampling = getattr(inner, "sampling", None)
        self.warnings = getattr(inner, "warnings", list)
        self.memo: OrderedDict[str, str] = OrderedDict()
        self.tools: dict[str, str] = {}
        self.shared: dict[str, dict[int, str]] = {}

    def start(self, key: str, task: Task, tools: list[dict[str, Any]], mode: str) -> None:
        self.inner.start(key, task, tools, mode)
        self.tools[key] = json.dumps(tools, sort_keys=True, ensure_ascii=False)
        self.shared[key] = {}

    def _digest(self, key: str, messages: list[dict[str, Any]]) -> str:
        text = json.dumps(messages, sort_keys=True, ensure_ascii=False)
        return f"{hashing.digest(self.tools[key], text):016x}{len(text)}"

    def act_many(self, turns: list[tuple[str, list[dict[str, Any]]]]) -> list[str]:
        digests = {key: self._digest(key, messages) for key, messages in turns}
        todo, asked = [], set()
        for key, messages in turns:  # one request per new conversation of the batch
            d = digests[key]
            if d not in self.memo and d not in asked:
                todo.append((key, messages))
                asked.add(d)
        if todo:
            for (key, _), text in zip(todo, self.inner.act_many(todo), strict=True):
                self.memo[digests[key]] = text
        own = {key for key, _ in todo}
        out = []
        for key, messages in turns:
            text = self.memo[digests[key]]
            self.memo.move_to_end(digests[key])
            if key not in own:
                self.shared[key][sum(m.get("role") == "assistant" for m in messages)] = text
            out.append(text)
        while len(self.memo) > self.size:
            self.memo.popitem(last=False)
        return out

    def finish(self, key: str) -> dict[str, Any]:
        usage = dict(self.inner.finish(key))
        shared = self.shared.pop(key)
        self.tools.pop(key)
        usage["turns"] = int(usage.get("turns", 0)) + len(shared)
        usage["shared_turns"] = len(shared)
        return usage


# ---------------------------------------------------------------- driving the pool


@dataclass
class _Live:
    spec: EpisodeSpec
    t0: float
    turns: list[tuple[str, str]] = field(default_factory=list)  # (action, response)
    failed: str | None = None  # why the policy could not start the episode


def cycling(turns: list[Any], window: int) -> bool:
    """Whether the last ``window`` turns repeat one cycle of at most ``window // 2``
    turns: A,A,A,... or A,B,A,B,... or A,B,C,A,B,C,... (0: never).

    A turn is an action with its response, so retrying a call whose answer changes
    (a transient error, then the data) is not a loop, while a model that alternates
    between two calls getting the same two answers is, however long its period. The
    runner gives actions as :func:`action_key` (what was done, not how it was
    spelled or which id the server gave the call).
    """
    if window <= 0 or len(turns) < window:
        return False
    tail = turns[-window:]
    return any(all(tail[k] == tail[k - period] for k in range(period, window))
               for period in range(1, window // 2 + 1))


def action_key(raw: Any) -> str:
    """What an action does, for comparing actions: its parsed kind, tool and arguments
    as canonical JSON. Raw text would hold a server's unique call id (native
    ``tool_calls``), the key order and the spacing, and no loop would ever repeat."""
    return json.dumps(parse_action(raw).to_dict(), sort_keys=True, ensure_ascii=False,
                      default=str)


def _last_response(messages: list[dict[str, Any]]) -> str:
    """What the env answered to the last action (empty when it answered nothing)."""
    last = messages[-1] if messages else {}
    return str(last.get("content") or "") if last.get("role") == "tool" else ""


@dataclass
class RunSummary:
    """What one call of ``run`` did (this shard, this session)."""

    episodes: int = 0  # finished in this session
    skipped: int = 0  # already on disk (resume)
    successes: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_s: float = 0.0
    model_s: float = 0.0  # inside policy.act_many
    cuts: dict[str, int] = field(default_factory=dict)
    records_path: str = ""
    recorded: int = 0  # episodes of this shard on disk after the run (all sessions)
    recorded_successes: int = 0
    warnings: list[str] = field(default_factory=list)  # about the endpoint (run.json too)

    @property
    def recorded_tsr(self) -> float:
        """TSR over every recorded episode of the shard (earlier sessions included)."""
        return self.recorded_successes / self.recorded if self.recorded else 0.0

    @property
    def outside_share(self) -> float:
        """Share of wall time spent outside the model (env, grading, records)."""
        return 1 - self.model_s / self.wall_s if self.wall_s else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "outside_share": self.outside_share,
                "recorded_tsr": self.recorded_tsr}


class _Driver:
    """Keeps ``batch`` episodes in flight per prompt pool and turns their ends into records."""

    def __init__(self, policy: Any, cfg: RunConfig, tasks: dict[str, Task],
                 emit: Callable[[dict[str, Any]], None], summary: RunSummary,
                 redactor: Redactor | None = None) -> None:
        self.policy, self.cfg, self.tasks, self.emit = policy, cfg, tasks, emit
        self.summary, self.redactor = summary, redactor or Redactor()
        self.batch = max(1, int(cfg.batch or getattr(policy, "batch_size", 1) or 1))
        self.errors_in_a_row = 0
        self.label = cfg.label or getattr(policy, "name", cfg.agent)
        self.sampling = getattr(policy, "sampling", None)
        self.convention = convention_of(cfg.agent, cfg.agent_options)

    def run(self, specs: Iterable[EpisodeSpec]) -> None:
        by_prompt: dict[str, list[EpisodeSpec]] = {}
        for spec in specs:
            by_prompt.setdefault(spec.prompt, []).append(spec)
        for prompt, group in by_prompt.items():
            pool = gym.make_vec("ToolMaze-v0", num_envs=min(self.batch, len(group)),
                                vectorization_mode="vector_entry_point",
                                suite=self.cfg.selection.suite, prompt=prompt,
                                calling=self.convention, max_episode_steps=self.cfg.max_steps)
            try:
                self._drive(pool, deque(group))
            finally:
                pool.close()

    def _drive(self, pool: Any, pending: deque[EpisodeSpec]) -> None:
        live: dict[int, _Live] = {}
        while pending or live:
            for i in range(pool.num_envs):
                if i not in live and pending:
                    live[i] = self._start(pool, i, pending.popleft())
                    failed = live[i].failed
                    if failed is not None:  # the policy could not open the episode
                        self._end(pool, i, live.pop(i), ("error", failed))
            order = sorted(live)
            texts, cuts = self._act([(live[i].spec.key, pool.messages(i)) for i in order])
            actions = {}
            for i in order:
                key = live[i].spec.key
                if key in cuts:
                    self._end(pool, i, live.pop(i), cuts[key])
                else:
                    actions[i] = texts[key]
            if not actions:
                continue
            _, _, term, trunc, _ = pool.step(actions)
            for i in actions:
                if term[i] or trunc[i]:
                    self._end(pool, i, live.pop(i), None)
                    continue
                live[i].turns.append((action_key(actions[i]),
                                      _last_response(pool.messages(i))))
                if cycling(live[i].turns, self.cfg.loop_guard):
                    self._end(pool, i, live.pop(i), ("loop", None))

    def _start(self, pool: Any, i: int, spec: EpisodeSpec) -> _Live:
        """Reset env ``i`` to the episode and open it in the policy; a policy that
        cannot (other than by endpoint trouble) marks the episode ``failed``."""
        from toolmaze_gym.agents.errors import EndpointError

        # the task itself, not its id: a task file's tasks are not in any suite; the env
        # builds their fault profiles deterministically from the task and mode
        pool.reset(seed=[hashing.digest("episode", spec.key) % 2**31],
                   options={"indices": [i], "task": self.tasks[spec.task_id],
                            "mode": spec.mode})
        ep = _Live(spec, time.perf_counter())
        try:
            self.policy.start(spec.key, self.tasks[spec.task_id], pool.tools(i), spec.mode)
        except EndpointError:
            raise
        except Exception as exc:  # a user's policy: its failure cuts the episode
            ep.failed = f"{type(exc).__name__}: {exc}"
        return ep

    def _act(self, turns: list[tuple[str, list]]) -> tuple[dict[str, str],
                                                           dict[str, tuple[str, str | None]]]:
        """Texts per key (valid Unicode), and (reason, detail) per key to cut. An
        :class:`EndpointError` goes up: it stops the run, it is no episode's fault."""
        from toolmaze_gym.agents import ContextOverflow
        from toolmaze_gym.agents.errors import EndpointError

        texts: dict[str, str] = {}
        cuts: dict[str, tuple[str, str | None]] = {}
        todo = list(turns)
        while todo:
            t0 = time.perf_counter()
            try:
                out = self.policy.act_many(todo)
                if len(out) != len(todo):
                    raise RuntimeError(f"act_many returned {len(out)} texts for "
                                       f"{len(todo)} turns")
            except ContextOverflow as exc:
                named = {k for k, _ in todo} & set(exc.keys)
                for k in named or {k for k, _ in todo}:
                    cuts[k] = ("context", str(exc))
                todo = [t for t in todo if t[0] not in cuts]
                continue
            except EndpointError:  # the endpoint's fault, never the model's: stop the run
                raise
            except Exception as exc:  # any policy failure cuts episodes, not the run
                detail = f"{type(exc).__name__}: {exc}"
                keys = getattr(exc, "keys", None)  # a policy may name the turns that failed
                named = {k for k, _ in todo} & (set(keys) if isinstance(keys, list | tuple)
                                                else set())
                if named or len(todo) == 1:  # the policy says which turns failed
                    for k in named or {todo[0][0]}:
                        cuts[k] = ("error", detail)
                    todo = [t for t in todo if t[0] not in cuts]
                    continue
                failed = todo
            else:
                for (k, _), text in zip(todo, out, strict=True):
                    if isinstance(text, str):
                        texts[k] = valid_text(text)
                    else:  # the pool would take None for "no action" and spin for ever
                        cuts[k] = ("error", f"the policy returned {type(text).__name__}, "
                                            "not text")
                break
            finally:
                self.summary.model_s += time.perf_counter() - t0
            for turn in failed:  # find the culprit(s): each turn alone
                more_texts, more_cuts = self._act([turn])
                texts.update(more_texts)
                cuts.update(more_cuts)
            break
        return texts, cuts

    def _end(self, pool: Any, i: int, ep: _Live, cut: tuple[str, str | None] | None) -> None:
        if cut is not None:
            pool.cut(i, cut[0])
        usage = self._usage(ep.spec.key)
        rec = pool.record(i, self.label)
        rec.update(
            prompt=ep.spec.prompt, convention=self.convention, repeat=ep.spec.repeat,
            key=ep.spec.key,
            agent_options=self.cfg.agent_options, suite=self.cfg.selection.suite,
            sampling=self.sampling,
            usage={k: _count(usage.get(k)) for k in ("prompt_tokens", "completion_tokens",
                                                     "turns", "shared_turns")},
            wall_s=round(time.perf_counter() - ep.t0, 4))  # raw texts: in the steps, once
        if self.cfg.selection.tasks is not None:
            rec["tasks"] = str(Path(self.cfg.selection.tasks).resolve())
        if cut is not None:
            rec["cut"] = cut[0]
            if cut[1]:
                # redacted before it is shortened: a cut through a key would leave
                # a prefix that no pattern recognises
                rec["cut_detail"] = self.redactor(cut[1])[:2000]
        self._count(rec, cut)
        self.emit(rec)
        self._check_errors(cut)

    def _usage(self, key: str) -> dict[str, Any]:
        """The policy's usage of an episode; a policy whose bookkeeping fails loses
        the usage, not the episode (the record is written all the same)."""
        try:
            usage = self.policy.finish(key)
        except Exception as exc:  # any failure of a user's policy
            log.warning("the policy's finish(%r) raised %s: %s; its usage is lost", key,
                        type(exc).__name__, exc)
            return {}
        return usage if isinstance(usage, dict) else {}

    def _count(self, rec: dict[str, Any], cut: tuple[str, str | None] | None) -> None:
        s = self.summary
        s.episodes += 1
        s.successes += bool(rec["grade"]["success"])
        s.prompt_tokens += rec["usage"]["prompt_tokens"]
        s.completion_tokens += rec["usage"]["completion_tokens"]
        if cut is not None:
            s.cuts[cut[0]] = s.cuts.get(cut[0], 0) + 1

    def _check_errors(self, cut: tuple[str, str | None] | None) -> None:
        self.errors_in_a_row = self.errors_in_a_row + 1 if cut and cut[0] == "error" else 0
        if self.errors_in_a_row >= MAX_CONSECUTIVE_ERRORS:
            raise RunError(f"the policy failed on {self.errors_in_a_row} episodes in a row "
                           f"({cut[1] if cut else ''}); stopping (those episodes run again "
                           "on --resume)")


def _count(value: Any) -> int:
    """A usage count as an int (0 for what is not a count)."""
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError, OverflowError):
        return 0


# ---------------------------------------------------------------- entry point


class _Progress:
    """tqdm bar: episodes done, live TSR, generated tokens/s, ETA."""

    def __init__(self, total: int, initial: int, label: str, enabled: bool) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, initial=initial, desc=label, unit="ep",
                        disable=not enabled, dynamic_ncols=True)
        self.t0 = time.perf_counter()

    def update(self, summary: RunSummary) -> None:
        elapsed = max(time.perf_counter() - self.t0, 1e-9)
        self.bar.set_postfix(TSR=f"{100 * summary.successes / max(summary.episodes, 1):.1f}%",
                             tok_s=f"{summary.completion_tokens / elapsed:.1f}",
                             refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def run(cfg: RunConfig, run_dir: str | Path, resume: bool = False, progress: bool = True,
        policy: Any = None) -> RunSummary:
    """Run (or continue) shard ``cfg.shard`` of the selection into ``run_dir``.

    ``policy`` may be given ready-made (tests, notebooks); otherwise it is built with
    ``make_policy(cfg.agent, **cfg.agent_options)`` after the run directory is checked
    (so a conflicting directory, or one that a live run is writing, fails before a
    model loads) and before anything is written (so bad options leave no run behind).
    The shard's records file is locked while the run writes (:mod:`toolmaze_gym.runlock`),
    and what is already done is read under that lock, so nothing is recorded twice.
    Raises :class:`EndpointStop` when the policy's endpoint fails.
    """
    run_dir = Path(run_dir)
    if cfg.max_steps < 1:
        raise RunError("--max-steps must be at least 1")
    if cfg.loop_guard < 0:
        raise RunError("--loop-guard must be 0 (off) or a positive number of actions")
    tasks = _tasks(cfg.selection.normalised())
    specs = select(cfg.selection, tasks)
    mine = shard(specs, *cfg.shard)
    redactor = run_redactor(cfg)
    path = _check_dir(run_dir, cfg, resume, tasks, redactor)
    policy = _policy(cfg) if policy is None else policy
    model = getattr(policy, "model_id", None)
    model = None if model is None else str(model)
    _check_model(run_dir, model)
    if cfg.share_turns and getattr(policy, "temperature", None) == 0:
        policy = SharedTurns(policy)
    try:
        with run_lock(path):
            _check_unused(path, resume)  # another run may have written since the check
            _check_sharding(run_dir, cfg.shard)
            _init_dir(run_dir, cfg, len(specs), tasks,
                      list(dict.fromkeys(s.task_id for s in specs)), redactor,
                      getattr(policy, "sampling", None), model)
            return _play(cfg, run_dir, path, mine, tasks, policy, resume, progress, redactor)
    except LockHeld as exc:
        raise RunError(str(exc)) from None


def _policy(cfg: RunConfig) -> Any:
    from toolmaze_gym.agents import make_policy

    try:
        return make_policy(cfg.agent, **cfg.agent_options)
    except (ValueError, TypeError, FileNotFoundError) as exc:
        raise RunError(str(exc)) from None


def _play(cfg: RunConfig, run_dir: Path, path: Path, mine: list[EpisodeSpec],
          tasks: dict[str, Task], policy: Any, resume: bool, progress: bool,
          redactor: Redactor) -> RunSummary:
    """Play the shard's episodes not yet on disk (the caller holds the lock)."""
    from toolmaze_gym.agents.errors import EndpointError

    keys = {s.key for s in mine}
    said = repair(path) if resume else ""  # before reading: count what stays on disk
    if said:
        log.warning("%s", said)
    # (success, cut for an error) per recorded episode of the shard, earlier sessions'
    # and this one's: what the summary reports, without keeping the records
    outcome = {record_key(r): _outcome(r) for r in (read_records(run_dir) if resume else [])
               if record_key(r) in keys}
    todo = [s for s in mine if s.key not in outcome or outcome[s.key][1]]
    summary = RunSummary(skipped=len(mine) - len(todo), records_path=str(path))
    writer = RecordWriter(path, redactor)
    bar = _Progress(len(mine), summary.skipped, cfg.label or cfg.agent, progress)

    def emit(rec: dict[str, Any]) -> None:
        writer.write(rec)
        outcome[record_key(rec)] = _outcome(rec)  # a rerun replaces an error cut
        bar.update(summary)

    t0 = time.perf_counter()
    try:
        _Driver(policy, cfg, tasks, emit, summary, redactor).run(todo)
    except EndpointError as exc:
        left = len(todo) - summary.episodes
        raise EndpointStop(f"{' '.join(str(exc).split())}; the run stopped ({left} "
                           f"episodes not recorded; fix the endpoint and pass --resume)") \
            from None
    finally:
        summary.wall_s = time.perf_counter() - t0
        writer.close()
        bar.close()
    summary.recorded = len(outcome)
    summary.recorded_successes = sum(ok for ok, _ in outcome.values())
    summary.warnings = list(getattr(policy, "warnings", list)())
    if summary.warnings:
        _note_warnings(run_dir, summary.warnings, redactor)
    return summary


def _note_warnings(run_dir: Path, warnings: list[str], redactor: Redactor) -> None:
    """Add what the run learnt about its endpoint to run.json (once per text)."""
    config = read_config(run_dir) or {}
    config["warnings"] = list(dict.fromkeys([*config.get("warnings", []), *warnings]))
    _write_json_atomic(run_dir / RUN_FILE, config, redactor)


def _outcome(rec: dict[str, Any]) -> tuple[bool, bool]:
    """(success, cut for a policy error: to run again) of a record."""
    grade = rec.get("grade")
    return bool(isinstance(grade, dict) and grade.get("success")), rec.get("cut") == "error"
