"""The ``toolmaze`` command line.

Each sub-command is a thin shell over the library; errors a user can cause end
in one line on stderr and a non-zero exit, never a traceback. Sub-commands live
in the modules of this package (``tasks``, ``baselines``, ``grade``, ...), each with
an ``add_commands(sub)`` function; ``COMMAND_MODULES`` lists them in ``--help`` order,
so adding a group of commands is one line there. ``common`` keeps what they
share: the error type, the help layout, reading tasks, and checking output paths.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from toolmaze_gym.cli.common import Parser, UsageError, exit_statuses
from toolmaze_gym.optional import MissingDependency

# Sub-command modules, in the order ``--help`` lists them.
COMMAND_MODULES = (
    "toolmaze_gym.cli.corpus",
    "toolmaze_gym.cli.tasks",
    "toolmaze_gym.cli.baselines",
    "toolmaze_gym.cli.grade",
    "toolmaze_gym.cli.eval",
    "toolmaze_gym.cli.play",
    "toolmaze_gym.cli.serve",
    "toolmaze_gym.cli.train",
    "toolmaze_gym.cli.scenarios",
)


# ---------------------------------------------------------------- entry point


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="toolmaze", description="ToolMaze-Gym: a benchmark and Gymnasium "
                    "environment for how LLM agents recover when tools fail. Run "
                    "`toolmaze COMMAND --help` for a command's flags and defaults.",
                    epilog=exit_statuses("the command did its work (a command's --help "
                                         "may say more)"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(sub)
    return parser


@contextmanager
def _warnings_to_stderr(command: str) -> Iterator[None]:
    """The library's warnings (the ``toolmaze_gym`` logger) as one redacted line each on
    stderr, ``toolmaze CMD: warning: ...``, while a command runs."""
    from toolmaze_gym.redact import RedactingFilter

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"toolmaze {command}: warning: %(message)s"))
    handler.addFilter(RedactingFilter())
    handler.setLevel(logging.WARNING)
    logger = logging.getLogger("toolmaze_gym")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


# The collector's first-generation threshold for the command's own process: grading
# allocates many short-lived containers, and at Python's 700 the collections it set off
# were 10 % of `toolmaze grade` on 2,000 records (issue 32); at 10,000 they are few.
GC_THRESHOLD = (10_000, 10, 10)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line ``argv`` (None: this process's own, ``sys.argv``). Only a
    process that runs ``toolmaze`` as its command (argv None: the console script,
    ``python -m toolmaze_gym.cli``) gets ``GC_THRESHOLD``; a program that calls
    ``main`` with its own argv keeps its collector as it set it."""
    if argv is None:
        gc.set_threshold(*GC_THRESHOLD)
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        with _warnings_to_stderr(ns.command):
            return ns.func(ns)
    except (UsageError, MissingDependency) as exc:  # the latter names the pip command
        _error(ns.command, f"error: {exc}")
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"toolmaze {ns.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # an unwritable output, a full disk: the OS's own words
        where = f"{exc.filename}: " if exc.filename else ""
        _error(ns.command, f"error: {where}{exc.strerror or exc}")
        return 1


def _error(command: str, message: str) -> None:
    """Print one error line, without secrets (an endpoint's message may echo a key)."""
    from toolmaze_gym.redact import redact

    print(f"toolmaze {command}: {redact(message)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
