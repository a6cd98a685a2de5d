"""The ``toolmaze`` command line.

Each sub-command is a thin shell over the library; errors a user can cause end
in one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A mistake in the command line or its inputs; printed as one line."""


# ---------------------------------------------------------------- corpus


def _table4(stats: dict) -> str:
    cats, doms, grps = (list(stats[k].items()) for k in ("category", "domain", "groups"))
    rows = ["Functional categories | Domain breakdown   | Alternative groups",
            "----------------------+--------------------+-------------------"]
    for i in range(max(len(cats), len(doms), len(grps))):
        c = f"{cats[i][0]:<12}{cats[i][1]:>9}" if i < len(cats) else " " * 21
        d = f"{doms[i][0]:<10}{doms[i][1]:>8}" if i < len(doms) else " " * 18
        g = f"{grps[i][0]:<12}{grps[i][1]:>6}" if i < len(grps) else ""
        rows.append(f"{c} | {d} | {g}")
    rows.append(f"{'Total tools':<12}{stats['total']['tools']:>9} | {'':18} | "
                f"{'Total groups':<12}{stats['total']['groups']:>6}")
    return "\n".join(rows)


def cmd_corpus(ns: argparse.Namespace) -> int:
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.corpus.spec import DOMAINS

    corpus = load_corpus()
    if ns.show:
        if ns.show not in corpus:
            raise UsageError(f"no tool named {ns.show!r} (try `toolmaze corpus --list`)")
        spec = corpus[ns.show]
        groups = [g.id for g in corpus.groups_of[spec.name]]
        print(json.dumps({"name": spec.name, "domain": spec.domain, "category": spec.category,
                          "stateful": spec.stateful, "groups": groups,
                          "schema": spec.openai_schema()}, indent=2, ensure_ascii=False))
        return 0
    if ns.domain and ns.domain not in DOMAINS:
        raise UsageError(f"unknown domain {ns.domain!r}; choose from {', '.join(DOMAINS)}")
    if ns.list or ns.domain:
        for spec in sorted(corpus.tools.values(), key=lambda t: (t.domain, t.category, t.name)):
            if ns.domain in (None, spec.domain):
                print(f"{spec.domain:<10} {spec.category:<10} {spec.name}")
        return 0
    print(_table4(corpus.stats()))
    return 0


# ---------------------------------------------------------------- tasks


def load_tasks(source: str):
    """A shipped suite by name, or a JSONL file of tasks."""
    from pathlib import Path

    from toolmaze_gym.tasks.model import Task
    from toolmaze_gym.tasks.suite import SuiteError, load_suite

    path = Path(source)
    if path.suffix == ".jsonl" or path.exists():
        if not path.is_file():
            raise UsageError(f"no such file: {source}")
        try:
            return [Task.from_json(line) for line in path.read_text().splitlines() if line]
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{source} is not a JSONL file of tasks ({exc})") from None
    try:
        return load_suite(source)
    except SuiteError as exc:
        raise UsageError(str(exc)) from None


def cmd_generate(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from tqdm import tqdm

    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import SuiteError, generate_split

    if ns.n <= 0:
        raise UsageError("--n must be a positive number of tasks")
    levels = ns.level or list(LEVELS)
    out = Path(ns.out)
    if not out.parent.is_dir():
        raise UsageError(f"directory {out.parent} does not exist")
    try:
        tasks = generate_split(ns.split, ns.n, ns.seed, levels, ns.exclude_tool,
                               ns.exclude_domain)
        with out.open("w", encoding="utf-8") as fh:
            for task in tqdm(tasks, total=ns.n, desc=f"generating {ns.split}", unit="task",
                             disable=ns.quiet):
                fh.write(task.to_json() + "\n")
    except SuiteError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {ns.n} tasks to {out}", file=sys.stderr)
    return 0


def cmd_stats(ns: argparse.Namespace) -> int:
    from toolmaze_gym.tasks.stats import PAPER_TABLE1, format_table1, table1

    table = table1(load_tasks(ns.suite))
    if ns.json:
        print(json.dumps(table, indent=2))
    else:
        print(format_table1(table, PAPER_TABLE1 if ns.paper else None))
    return 0


def cmd_show(ns: argparse.Namespace) -> int:
    from toolmaze_gym.tasks.render import describe

    tasks = {t.id: t for t in load_tasks(ns.suite)}
    if ns.task_id not in tasks:
        raise UsageError(f"no task {ns.task_id!r} in {ns.suite}")
    print(describe(tasks[ns.task_id]))
    return 0


def cmd_build_suite(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from tqdm import tqdm

    from toolmaze_gym.faults.store import build_reference
    from toolmaze_gym.tasks.suite import SUITE_SEED

    out = Path(ns.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a directory")
    bar = tqdm(total=4 * ns.per_level, desc="building suite", unit="task", disable=ns.quiet)
    manifest = build_reference(out, ns.seed if ns.seed is not None else SUITE_SEED,
                               ns.per_level, on_task=lambda t: bar.update(), jobs=ns.jobs)
    bar.close()
    print(json.dumps(manifest, indent=2))
    return 0


def _add_task_commands(sub) -> None:
    from toolmaze_gym.corpus.spec import DOMAINS
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import SPLITS, SUITE_NAME

    p = sub.add_parser("generate", help="generate procedural tasks (disjoint from the suite)")
    p.add_argument("--split", choices=SPLITS, default="train")
    p.add_argument("--n", type=int, default=100, help="number of tasks")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--level", action="append", choices=LEVELS, help="restrict to levels")
    p.add_argument("--exclude-tool", action="append", default=[], metavar="NAME")
    p.add_argument("--exclude-domain", action="append", default=[], choices=DOMAINS)
    p.add_argument("--out", required=True, help="output JSONL file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("build-suite", help="(maintainers) regenerate a reference suite")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--seed", type=int, default=None, help="default: the toolmaze-v1 seed")
    p.add_argument("--per-level", type=int, default=100)
    p.add_argument("--jobs", type=int, default=1, help="levels built in parallel processes")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_build_suite)

    p = sub.add_parser("stats", help="Table 1 statistics of a suite or task file")
    p.add_argument("suite", nargs="?", default=SUITE_NAME, help="suite name or JSONL file")
    p.add_argument("--paper", action="store_true", help="show the paper's values beside")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("show", help="a task's query, DAG and solution paths")
    p.add_argument("task_id")
    p.add_argument("--suite", default=SUITE_NAME, help="suite name or JSONL file")
    p.set_defaults(func=cmd_show)


# ---------------------------------------------------------------- entry point


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toolmaze", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("corpus", help="corpus statistics (Table 4), list or show tools")
    p.add_argument("--domain", help="list the tools of one domain")
    p.add_argument("--list", action="store_true", help="list every tool")
    p.add_argument("--show", metavar="NAME", help="print one tool's schema and groups")
    p.set_defaults(func=cmd_corpus)

    for extra in _EXTENSIONS:
        extra(sub)
    return parser


# Sub-command groups beyond the corpus, in the order they appear in --help.
def cmd_baselines(ns: argparse.Namespace) -> int:
    """Scripted baselines on a suite: the per-mode table in Markdown."""
    from tqdm import tqdm

    from toolmaze_gym.agents import BASELINES, make_scripted
    from toolmaze_gym.corpus import Simulator
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.metrics import table
    from toolmaze_gym.rollout import rollout

    agents = ns.agents.split(",")
    unknown = [a for a in agents if a not in BASELINES]
    if unknown:
        raise UsageError(f"unknown agent {unknown[0]!r}; choose from {', '.join(BASELINES)}")
    tasks = load_tasks(ns.suite)
    sim = Simulator()
    out = [_TABLE_HEAD]
    records = []
    for agent in agents:
        recs = [rollout(t, m, make_scripted(agent, sim), sim, prompt=ns.prompt)
                for t in tqdm(tasks, desc=agent, disable=ns.quiet) for m in MODE_NAMES]
        records += recs
        out.append(_table_row(agent, table(recs)))
    print("\n".join(out))
    if ns.out:
        with open(ns.out, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return 0


_TABLE_HEAD = ("| agent | TSR NP | TSR P1 | TSR P2 | TSR P3 | TSR P4 | PRR P1 | PRR P2 | PRR P3 "
               "| PRR P4 | RC P1 | RC P2 | RC P3 | RC P4 | Avg |\n" + "|---" * 15 + "|")


def _table_row(agent: str, t: dict) -> str:
    pm = t["per_mode"]

    def pct(x):
        return "–" if x is None else f"{100 * x:.1f}"

    cells = [pct(pm[m]["TSR"]) for m in ("P0", "P1", "P2", "P3", "P4")]
    cells += [pct(pm[m]["PRR"]) for m in ("P1", "P2", "P3", "P4")]
    cells += [pct(pm[m]["RC"]) for m in ("P1", "P2", "P3", "P4")]
    return f"| {agent} | " + " | ".join(cells) + f" | {pct(t['composite'])} |"


def _add_baseline_commands(sub) -> None:
    from toolmaze_gym.tasks.suite import SUITE_NAME

    p = sub.add_parser("baselines", help="run the scripted baselines; print the per-mode table")
    p.add_argument("--agents", default="oracle,validator,retry,naive,random")
    p.add_argument("--suite", default=SUITE_NAME, help="suite name or JSONL file of tasks")
    p.add_argument("--prompt", default="standard", choices=["standard", "failure_aware"])
    p.add_argument("--out", help="write the trajectory records (JSONL) here")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_baselines)


def _add_grade_commands(sub) -> None:
    from toolmaze_gym import cli_grade

    cli_grade.add_commands(sub)


_EXTENSIONS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_task_commands, _add_baseline_commands, _add_grade_commands]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        return ns.func(ns)
    except UsageError as exc:
        print(f"toolmaze {ns.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
