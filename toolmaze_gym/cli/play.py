"""``toolmaze play``: play one episode yourself as the agent, and see the grade explained.

    toolmaze play --task tmz-v15-c2-0004 --mode P1
    toolmaze play --level C3 --index 7 --mode P4 --reveal
    toolmaze play --tasks dev.jsonl --level C1 --seed 3 --actions my-try.txt --record plays.jsonl

The episode is chosen as ``toolmaze eval`` chooses tasks (``--task``, ``--suite``,
``--tasks``) or as the env's ``reset(seed=N)`` does (``--level`` with ``--seed``);
``--index`` is the position in the level. Input comes from the terminal or an
actions file, one action per line (``toolmaze_gym.play_input``). The exit status
says how it went: 0 success, 1 not a success, 2 a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path

from toolmaze_gym.cli.common import UsageError, appendable_file, load_tasks, positive

PROMPT = "> "


def choose_task(ns: argparse.Namespace):
    """The task the flags name, with a one-line error for every way to get it wrong."""
    from toolmaze_gym.tasks.suite import shipped_suites

    if ns.tasks is not None and ns.suite is not None:
        raise UsageError("--tasks replaces --suite: give one task source")
    if ns.tasks is None and ns.suite is not None and ns.suite not in shipped_suites():
        raise UsageError(f"unknown suite {ns.suite!r} (shipped: {', '.join(shipped_suites())}; "
                         "a directory or file goes to --tasks)")
    source = ns.tasks or ns.suite or _default_suite(ns.task)
    if ns.tasks is not None and not Path(ns.tasks).exists():
        raise UsageError(f"no such task file or suite directory: {ns.tasks}")
    tasks = load_tasks(source)
    if ns.seed is not None and ns.index is not None:
        raise UsageError("give --seed or --index, not both")
    if ns.task is not None:
        if ns.level or ns.seed is not None or ns.index is not None:
            raise UsageError("--task names the episode; drop --level, --seed and --index")
        found = next((t for t in tasks if t.id == ns.task), None)
        if found is None:
            raise UsageError(f"no task {ns.task!r} in {source}")
        return found
    return _by_position(ns, tasks, source)


def _by_position(ns: argparse.Namespace, tasks: list, source: str):
    levels = sorted({t.level for t in tasks})
    level = ns.level
    if level is None:
        if len(tasks) == 1:
            return tasks[0]
        if len(levels) > 1:
            raise UsageError("choose the episode: --task ID, or --level C1..C4 with --index N "
                             "or --seed N")
        level = levels[0]
    of_level = [t for t in tasks if t.level == level]
    if not of_level:
        raise UsageError(f"{source} has no {level} task")
    if ns.seed is not None:
        return of_level[ns.seed % len(of_level)]
    index = ns.index or 0
    if not 0 <= index < len(of_level):
        raise UsageError(f"--index {index}: {source} has {len(of_level)} {level} tasks "
                         f"(0..{len(of_level) - 1})")
    return of_level[index]


def _default_suite(task_id: str | None) -> str:
    """The suite a --task id names, else the default suite."""
    from toolmaze_gym.tasks.suite import SUITE_NAME, suite_of

    return (suite_of(task_id) if task_id else None) or SUITE_NAME


def _file_lines(path: str) -> list[tuple[str, str]]:
    """(where, line) for each line of an actions file, read before the episode starts."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"no such actions file: {path}")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None
    return [(f"{path}:{lineno}", line) for lineno, line in enumerate(text.splitlines(), 1)]


def _terminal_lines(session) -> Iterator[tuple[str, str]]:
    """Lines typed at the prompt until EOF; piped input is echoed into the transcript."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history at the prompt)
    echo = not sys.stdin.isatty()
    while True:
        try:
            line = input(f"[step {len(session.steps) + 1}] {PROMPT}")
        except EOFError:
            print()
            return
        if echo:
            print(line)
        yield "", line


def _play(session, lines: Iterable[tuple[str, str]], echo: bool) -> str | None:
    """Feed lines until the episode ends; returns why it was stopped early, if it was."""
    try:
        for where, line in lines:
            if echo and line.strip() and not line.lstrip().startswith("#"):
                print(f"{PROMPT}{line}")
            reply = session.handle(line)
            if reply.error:
                print(f"{where + ': ' if where else ''}{reply.error} (not a step)",
                      file=sys.stderr)
            elif reply.text:
                print(reply.text)
            if session.done:
                return None
    except KeyboardInterrupt:
        print()
        session.stop("interrupted")
        return "interrupted"
    session.stop("stopped")
    return "stopped"


@contextlib.contextmanager
def _safe_output() -> Iterator[None]:
    """Text a terminal cannot encode (a lone surrogate from a tool's echo or piped
    bytes) is shown escaped while the episode runs: a transcript line must never end
    the episode unrecorded with a traceback."""
    streams = [(s, s.errors) for s in (sys.stdout, sys.stderr) if hasattr(s, "reconfigure")]
    for stream, _ in streams:
        stream.reconfigure(errors="backslashreplace")
    try:
        yield
    finally:
        for stream, errors in streams:
            stream.reconfigure(errors=errors)


def cmd_play(ns: argparse.Namespace) -> int:
    with _safe_output():
        return _play_episode(ns)


def _play_episode(ns: argparse.Namespace) -> int:
    from toolmaze_gym.faults import get_mode
    from toolmaze_gym.faults.profiles import ProfileError
    from toolmaze_gym.play import PlaySession
    from toolmaze_gym.runner import RecordWriter
    from toolmaze_gym.tasks.suite import SuiteError

    positive(ns.max_steps, "--max-steps")
    try:
        get_mode(ns.mode)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    record_path = appendable_file(ns.record, "--record")
    task = choose_task(ns)
    try:
        session = PlaySession(task, ns.mode, ns.prompt, ns.suite or _default_suite(ns.task),
                              ns.max_steps, ns.full_docs, ns.tasks)
    except (ProfileError, SuiteError, ValueError) as exc:  # a mode the task cannot carry
        raise UsageError(f"{task.id} cannot be played in {ns.mode}: "
                         f"{str(exc).splitlines()[0]}") from None
    lines = _file_lines(ns.actions) if ns.actions else _terminal_lines(session)
    print(session.opening())
    early = _play(session, lines, echo=bool(ns.actions))
    if early == "stopped":
        print("the input ended before the episode did: it is graded as cut off",
              file=sys.stderr)
    print(session.closing(ns.reveal))
    if record_path is not None:
        writer = RecordWriter(record_path)
        try:
            writer.write(session.record(ns.label))
        finally:
            writer.close()
        print(f"record appended to {record_path}", file=sys.stderr)
    if early == "interrupted":
        return 130
    return 0 if session.success else 1


def add_commands(sub) -> None:
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.play_input import HELP
    from toolmaze_gym.prompts import PROMPTS
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import SUITE_NAME, shipped_suites

    p = sub.add_parser("play", help="play one episode yourself as the agent and see the "
                       "grade, explained")
    p.description = textwrap.fill(
        "Play one episode yourself as the agent: you see what the agent sees (the system "
        "prompt with the clock, the request, the tools' docs, each response), act one line "
        "at a time, and get the grade explained at the end. Exit status: 0 success, 1 not a "
        "success (or --record could not be written: the error line names it), 2 a usage "
        "error, 130 interrupted.")
    p.epilog = HELP
    p.add_argument("--task", metavar="ID", help="the task to play, e.g. tmz-v15-c2-0004 "
                   "(an old id such as tmz-v9-c2-0004 plays from its own suite; default: "
                   "chosen by --level with --index or --seed)")
    p.add_argument("--level", choices=LEVELS, help="the level to take the task from "
                   "(default: the source's only level; else required without --task)")
    p.add_argument("--index", type=int, help="position of the task in its level, from 0 "
                   "(default 0)")
    p.add_argument("--seed", type=int, help="the task that reset(seed=N) plays on that "
                   "level (N mod the level's task count; default: use --index)")
    p.add_argument("--mode", default="P0", type=str.upper,
                   help=f"perturbation mode: NP/P0..P4 ({', '.join(MODE_NAMES)})")
    p.add_argument("--suite", help=f"shipped task suite ({', '.join(shipped_suites())}; "
                   f"default: {SUITE_NAME})")
    p.add_argument("--tasks", metavar="FILE", help="play a task of this JSONL task file or "
                   "suite directory instead (default: none, the shipped suite)")
    p.add_argument("--prompt", choices=list(PROMPTS), default="standard",
                   help="system prompt (failure_aware applies to P1-P4; NP always uses "
                   "standard)")
    p.add_argument("--max-steps", type=int, default=25,
                   help="actions before the episode is cut off")
    p.add_argument("--actions", metavar="FILE", help="read the actions from this file, one "
                   "per line, instead of the terminal (default: the terminal)")
    p.add_argument("--full-docs", action="store_true",
                   help="show the tools' JSON schemas instead of the compact docs")
    p.add_argument("--reveal", action="store_true", help="after the grade, show the reference "
                   "path and the fault profile (and a cut episode's full explanation)")
    p.add_argument("--record", metavar="FILE", help="append the episode to this JSONL file as "
                   "one trajectory record (the runner's format; default: none)")
    p.add_argument("--label", default="human", help="the agent's name in the record")
    p.set_defaults(func=cmd_play)
