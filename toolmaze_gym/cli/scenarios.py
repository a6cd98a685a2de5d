"""``toolmaze scenarios``: check scenario files and look up capabilities.

``check`` reports every problem of every file with file, scenario and field, and,
when a file is clean, which levels each scenario can be built at (a trial
generation per level), so authors see at once whether a scenario is usable.
``capabilities`` prints what a step can ``use``: arguments, result keys, tools.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from toolmaze_gym.cli.common import UsageError, exit_statuses, positive


def cmd_check(ns: argparse.Namespace) -> int:
    from toolmaze_gym.tasks.scenarios import check_files, library_files

    positive(ns.tries, "--tries")
    paths = [Path(p) for p in ns.files] or library_files()
    for p in paths:
        if not p.is_file():
            raise UsageError(f"no such file: {p}")
    scenarios, problems = check_files(paths)
    for line in problems:
        print(line, flush=True)
    if problems:
        print(f"{len(problems)} problem(s) in {len(paths)} file(s)", file=sys.stderr)
        return 1
    if not ns.no_trial:
        bad = _trial(scenarios, ns.tries)
        if bad:
            print(f"{bad} scenario(s) cannot be built at any level", file=sys.stderr)
            return 1
    print(f"{len(scenarios)} scenario(s) in {len(paths)} file(s): OK", file=sys.stderr)
    return 0


def _trial(scenarios, tries: int) -> int:
    """Build each scenario at each of its levels; print what works and why not."""
    from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator

    gen = ScenarioGenerator()
    unusable = 0
    for sc in scenarios:
        report = gen.trial(sc, tries=tries)
        cells = []
        for level in sc.levels:
            r = report[level]
            cells.append(f"{level} ok ({r['lengths']} calls, {r['paths']} paths)" if r["ok"]
                         else f"{level} no ({r['why']})")
        if not any(report[lv]["ok"] for lv in sc.levels):
            unusable += 1
        print(f"{sc.file}: {sc.id}: " + "; ".join(cells), flush=True)
    return unusable


def cmd_capabilities(ns: argparse.Namespace) -> int:
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.tasks.capabilities import capabilities, describe

    corpus = load_corpus()
    caps = capabilities(corpus)
    if ns.name:
        if ns.name not in caps:
            raise UsageError(f"no capability {ns.name!r} (try `toolmaze scenarios "
                             "capabilities --domain Financial`)")
        print(describe(corpus, caps[ns.name]))
        return 0
    for cap in caps.values():
        if ns.domain in (None, cap.domain) and (ns.groups or "." in cap.name):
            print(describe(corpus, cap))
    return 0


def profiles_buildable(task) -> list[str]:
    """The suite build's per-task check, now ``faults.store.profiles_buildable``
    (the procedural splits and the env apply it too); kept under this name."""
    from toolmaze_gym.faults.store import profiles_buildable as check

    return check(task)


def cmd_build_suite(ns: argparse.Namespace) -> int:
    """``toolmaze build-suite`` (the scenario-library suite) under this command's name."""
    from toolmaze_gym.cli.tasks import cmd_build_suite as build
    from toolmaze_gym.tasks.suite_v2 import SUITE_NAME as LIBRARY_SUITE

    return build(argparse.Namespace(**{"quiet": True, **vars(ns), "suite": LIBRARY_SUITE}))


def add_commands(sub) -> None:
    from toolmaze_gym.corpus.spec import DOMAINS
    from toolmaze_gym.tasks.suite_v2 import SUITE_NAME as LIBRARY_SUITE

    p = sub.add_parser("scenarios", help="check scenario files; list capabilities")
    ssub = p.add_subparsers(dest="scenarios_command", required=True)
    c = ssub.add_parser("check", help="validate scenario TOML files (default: the library)",
                        epilog=exit_statuses("every scenario is valid and can be built",
                                             "a problem in a file or a scenario that "
                                             "cannot be built (each printed)"))
    c.add_argument("files", nargs="*", help="TOML files (default: every shipped file)")
    c.add_argument("--no-trial", action="store_true",
                   help="only the static checks, no trial generation")
    c.add_argument("--tries", type=int, default=12, help="trial draws per level")
    c.set_defaults(func=cmd_check)
    c = ssub.add_parser("capabilities", help="what a step can `use`, with args and keys")
    c.add_argument("name", nargs="?", help="one capability (behaviour or group id)")
    c.add_argument("--domain", choices=DOMAINS)
    c.add_argument("--groups", action="store_true",
                   help="also list group ids (composites such as gen_current_report)")
    c.set_defaults(func=cmd_capabilities)
    c = ssub.add_parser("build-suite", help=f"(maintainers) build {LIBRARY_SUITE} from the "
                          "library")
    c.add_argument("--out", required=True, help="output directory")
    c.add_argument("--seed", type=int, default=None, help=f"default: the {LIBRARY_SUITE} seed")
    c.add_argument("--per-level", type=int, default=100)
    c.add_argument("--jobs", type=int, default=1, help="levels built in parallel processes")
    c.set_defaults(func=cmd_build_suite)


def main(argv: list[str] | None = None) -> int:
    """``python -m toolmaze_gym.cli.scenarios check FILE``: ``toolmaze scenarios ...`` under
    another name, with the same error handling."""
    from toolmaze_gym.cli.app import main as toolmaze_main

    argv = list(sys.argv[1:] if argv is None else argv)
    return toolmaze_main(argv if argv[:1] == ["scenarios"] else ["scenarios", *argv])


if __name__ == "__main__":
    sys.exit(main())
