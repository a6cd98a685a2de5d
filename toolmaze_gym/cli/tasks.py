"""Task commands: ``generate``, ``build-suite``, ``stats`` and ``show``.

``generate`` writes procedural tasks of a suite's kind (default toolmaze-v15,
never overlapping that suite), in parallel with ``--jobs`` and with the same
bytes as a serial run; ``build-suite`` regenerates a reference suite (default
toolmaze-v15) into a directory that every command taking ``--suite``/``SUITE``
accepts; both find a suite's generator in ``tasks.suites``; ``stats`` prints the paper's
Table 1 for a suite, a suite directory or a task file; ``show`` one task (from the
suite its id names, else the default suite).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any

from toolmaze_gym.cli.common import (
    UsageError,
    exit_statuses,
    load_tasks,
    output_dir,
    output_file,
    positive,
)

# ---------------------------------------------------------------- generate


def _level_counts(n: int, levels: list[str]) -> dict[str, int]:
    """Tasks per level when ``n`` are dealt round-robin over ``levels``."""
    return {lv: len(range(k, n, len(levels))) for k, lv in enumerate(levels)}


Job = tuple[str, str, int, int, str, tuple[str, ...], tuple[str, ...]]


def _generate_level(job: Job, ticks: Any = None) -> list[str]:
    """One level's tasks as JSON lines (run in a worker process with ``--jobs``).
    Every task's fault profiles can be built, so each one plays in every mode."""
    from toolmaze_gym.faults.store import profiles_buildable
    from toolmaze_gym.tasks.suites import generate_split

    suite, split, seed, n, level, tools, domains = job
    out = []
    for task in generate_split(split, n, seed, [level], tools, domains, suite=suite,
                               check=profiles_buildable):
        out.append(task.to_json())
        if ticks is not None:
            ticks.put(1)
    return out


def _parallel(suite: str, split: str, seed: int, counts: dict[str, int],
              tools: tuple[str, ...], domains: tuple[str, ...], jobs: int,
              bar) -> dict[str, list[str]]:
    """Each level in its own process; the bar advances with every task made."""
    import multiprocessing
    import queue
    from concurrent.futures import ProcessPoolExecutor

    with multiprocessing.Manager() as manager, ProcessPoolExecutor(max_workers=jobs) as pool:
        ticks = manager.Queue()
        futures = {lv: pool.submit(_generate_level,
                                   (suite, split, seed, n, lv, tools, domains), ticks)
                   for lv, n in counts.items() if n}
        while not all(f.done() for f in futures.values()):
            with contextlib.suppress(queue.Empty):
                bar.update(ticks.get(timeout=0.2))
        done = {lv: f.result() for lv, f in futures.items()}
        bar.update(bar.total - bar.n)
    return done


def cmd_generate(ns: argparse.Namespace) -> int:
    from tqdm import tqdm

    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.faults.store import profiles_buildable
    from toolmaze_gym.tasks.generator import GenerationError
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.scenarios import ScenarioError
    from toolmaze_gym.tasks.suite import SuiteError
    from toolmaze_gym.tasks.suites import generate_split

    positive(ns.n, "--n")
    positive(ns.jobs, "--jobs")
    out = output_file(ns.out)
    corpus = load_corpus()
    unknown = [t for t in ns.exclude_tool if t not in corpus]
    if unknown:
        raise UsageError(f"--exclude-tool: no tool named {unknown[0]!r} "
                         "(try `toolmaze corpus --list`)")
    levels = list(dict.fromkeys(ns.level or LEVELS))
    tools, domains = tuple(ns.exclude_tool), tuple(ns.exclude_domain)
    bar = tqdm(total=ns.n, desc=f"generating {ns.split}", unit="task", disable=ns.quiet)
    try:
        if ns.jobs > 1:
            done = _parallel(ns.suite, ns.split, ns.seed, _level_counts(ns.n, levels), tools,
                             domains, ns.jobs, bar)
            lines = [done[levels[i % len(levels)]][i // len(levels)] for i in range(ns.n)]
        else:
            lines = []
            for task in generate_split(ns.split, ns.n, ns.seed, levels, tools, domains,
                                       suite=ns.suite, check=profiles_buildable):
                lines.append(task.to_json())
                bar.update()
    except (SuiteError, GenerationError, ScenarioError) as exc:
        raise UsageError(str(exc).splitlines()[0]) from None
    finally:
        bar.close()
    with out.open("w", encoding="utf-8") as fh:
        fh.writelines(line + "\n" for line in lines)
    print(f"wrote {ns.n} tasks to {out}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------- build-suite


def cmd_build_suite(ns: argparse.Namespace) -> int:
    """Build ``--suite`` (default: the default suite) with its fault profiles; it keeps
    only tasks whose profiles can be built with an alternative left
    (``profiles_buildable``)."""
    from tqdm import tqdm

    from toolmaze_gym.faults.profiles import ProfileError
    from toolmaze_gym.faults.store import build_reference
    from toolmaze_gym.tasks.generator import GenerationError
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.scenarios import ScenarioError
    from toolmaze_gym.tasks.suite import SuiteError
    from toolmaze_gym.tasks.suites import kind

    positive(ns.per_level, "--per-level")
    positive(ns.jobs, "--jobs")
    spec = kind(ns.suite)
    out = output_dir(ns.out)
    seed = spec.seed if ns.seed is None else ns.seed
    bar = tqdm(total=len(LEVELS) * ns.per_level, desc=f"building {spec.name}", unit="task",
               disable=ns.quiet)
    try:
        manifest = build_reference(out, spec.name, seed, ns.per_level,
                                   on_task=lambda t: bar.update(), jobs=ns.jobs)
    except (SuiteError, GenerationError, ProfileError, ScenarioError) as exc:
        raise UsageError(f"the suite could not be built: {str(exc).splitlines()[0]}") from None
    finally:
        bar.close()
    # The manifest names the suite, not the directory it was written to: the
    # reference parameters rebuild the shipped bytes whatever DIR is called.
    name = spec.name if (seed, ns.per_level) == (spec.seed, spec.per_level) else \
        f"{spec.name}-seed{seed}-n{ns.per_level}"
    if manifest.get("name") != name:
        manifest["name"] = name
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True)
                                           + "\n")
    print(json.dumps(manifest, indent=2))
    return 0


# ---------------------------------------------------------------- stats, show


def markdown_table1(table: dict[str, dict[str, float]],
                    paper: dict[str, dict[str, float]] | None = None) -> str:
    """Table 1 as the README prints it (the paper's values in parentheses)."""
    levels = list(table)

    def cell(lv: str, keys: tuple[str, ...], fmt: str, paper_fmt: str) -> str:
        s = " / ".join(format(table[lv][k], fmt) for k in keys)
        if paper and lv in paper:
            s += " (" + " / ".join(format(paper[lv][k], paper_fmt) for k in keys) + ")"
        return s

    rows = [("Office / Financial / Travel (tasks)", ("Office", "Financial", "Travel"), "g", "g"),
            ("Shopping / IoT / General (tasks)", ("Shopping", "IoT", "General"), "g", "g"),
            ("mean Jaccard of tool sets", ("mean_jaccard",), ".3f", ".2f"),
            ("avg length of s*", ("avg_length",), ".2f", ".2f"),
            ("min / max length", ("min_length", "max_length"), "g", "g"),
            ("valid paths", ("valid_paths",), "g", "g")]
    out = ["| metric | " + " | ".join(levels) + " |", "|---" * (len(levels) + 1) + "|"]
    for name, keys, fmt, pfmt in rows:
        cells = [cell(lv, keys, fmt, pfmt) if pfmt else
                 " / ".join(format(table[lv][k], fmt) for k in keys) for lv in levels]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def cmd_stats(ns: argparse.Namespace) -> int:
    from toolmaze_gym.tasks.stats import PAPER_TABLE1, format_table1, table1

    if ns.faults:
        return print_fault_kinds(ns.suite)
    table = table1(load_tasks(ns.suite))
    paper = PAPER_TABLE1 if ns.paper else None
    if ns.json:
        print(json.dumps(table, indent=2))
    elif ns.markdown:
        print(markdown_table1(table, paper))
    else:
        print(format_table1(table, paper))
    return 0


def print_fault_kinds(source: str) -> int:
    """The share of each implicit fault kind over a suite's shipped P3/P4 profiles."""
    from pathlib import Path

    from toolmaze_gym.faults.census import blatant_share, format_shares, kind_shares
    from toolmaze_gym.faults.store import read_profiles, shipped_profiles
    from toolmaze_gym.tasks.suite import PROFILES_FILE, SuiteError, shipped_suites

    if not (source in shipped_suites() or Path(source).is_dir()):
        raise UsageError(f"--faults needs a suite with fault profiles (a shipped suite name or "
                         f"a build-suite directory), not {source!r}")
    if source in shipped_suites() or (Path(source) / PROFILES_FILE).is_file():
        load_tasks(source)  # the manifest check of every command: refuse an edited copy
    try:
        profiles = shipped_profiles(source) if source in shipped_suites() else \
            read_profiles(Path(source), source)
    except SuiteError as e:
        raise UsageError(str(e)) from None
    shares = kind_shares(profiles.values())
    print(format_shares(shares))
    print("blatant (negative, out of range, placeholder): "
          + ", ".join(f"{m} {100 * blatant_share(s):.1f}%" for m, s in shares.items()))
    return 0


def cmd_show(ns: argparse.Namespace) -> int:
    from toolmaze_gym.tasks.render import describe
    from toolmaze_gym.tasks.suite import SUITE_NAME, suite_of

    source = ns.suite or suite_of(ns.task_id) or SUITE_NAME  # tmz-v3-... is v3's
    tasks = {t.id: t for t in load_tasks(source)}
    if ns.task_id not in tasks:
        raise UsageError(f"no task {ns.task_id!r} in {source}")
    print(describe(tasks[ns.task_id]))
    return 0


# ---------------------------------------------------------------- parsers


def add_commands(sub) -> None:
    from toolmaze_gym.corpus.spec import DOMAINS
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import PER_LEVEL, SPLITS, SUITE_NAME
    from toolmaze_gym.tasks.suite_v2 import ID_PREFIX
    from toolmaze_gym.tasks.suites import kind, names

    source = "suite name, suite directory (build-suite --out) or JSONL file of tasks"
    p = sub.add_parser("generate", help="generate procedural tasks (disjoint from the suite)")
    p.add_argument("--suite", choices=names(), default=SUITE_NAME,
                   help="which suite's generator: tasks of its kind, never one of its tasks "
                   f"(default: {SUITE_NAME})")
    p.add_argument("--split", choices=SPLITS, default="train",
                   help="which procedural split (they never overlap each other or the suite)")
    p.add_argument("--n", type=int, default=100, help="number of tasks")
    p.add_argument("--seed", type=int, default=0, help="split seed")
    p.add_argument("--level", action="append", choices=LEVELS,
                   help="only these levels (repeat the flag; default: all four, round-robin)")
    p.add_argument("--exclude-tool", action="append", default=[], metavar="NAME",
                   help="hold a tool out of every task (repeat the flag)")
    p.add_argument("--exclude-domain", action="append", default=[], choices=DOMAINS,
                   help="hold a domain's tools out (repeat the flag)")
    p.add_argument("--out", required=True, help="output JSONL file")
    p.add_argument("--jobs", type=int, default=1,
                   help="levels generated in parallel processes (same output as --jobs 1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("build-suite", help="(maintainers) regenerate a reference suite")
    p.add_argument("--suite", choices=[n for n in names() if kind(n).rebuildable],
                   default=SUITE_NAME,
                   help=f"which reference suite to build (default: {SUITE_NAME}; older "
                   "suites are kept for loading only)")
    p.add_argument("--out", required=True,
                   help="output directory (its parent must exist); the reference seed and "
                   "size rebuild the shipped suite bit for bit")
    p.add_argument("--seed", type=int, default=None,
                   help="suite seed (default: the chosen suite's reference seed)")
    p.add_argument("--per-level", type=int, default=PER_LEVEL, help="tasks per level")
    p.add_argument("--jobs", type=int, default=1,
                   help="levels (v1: level parts) built in parallel processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_build_suite)

    p = sub.add_parser("stats", help="Table 1 statistics of a suite or task file",
                       epilog=exit_statuses("the table is printed"))
    p.add_argument("suite", nargs="?", default=SUITE_NAME, help=source)
    p.add_argument("--paper", action="store_true", help="show the paper's values beside")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--faults", action="store_true",
                     help="instead of Table 1: the share of each implicit fault kind (wrong "
                     "entity, stale, unit, ...) over the suite's P3/P4 fault profiles")
    fmt.add_argument("--json", action="store_true", help="print the table as JSON")
    fmt.add_argument("--markdown", action="store_true",
                     help="print the table in Markdown (as the README shows it)")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("show", help="a task's query, DAG and solution paths")
    p.add_argument("task_id", help=f"task id, e.g. {ID_PREFIX}-c3-0000")
    p.add_argument("--suite", help=f"{source} (default: the shipped suite the id names, "
                   f"else {SUITE_NAME})")
    p.set_defaults(func=cmd_show)
