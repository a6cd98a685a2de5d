"""The ``toolmaze`` command line.

Each sub-command is a thin shell over the library; errors a user can cause end
in one line on stderr and a non-zero exit, never a traceback. Sub-commands live
in modules (``cli_tasks``, ``cli_baselines``, ``cli_grade``, ...), each with an
``add_commands(sub)`` function; ``COMMAND_MODULES`` lists them in ``--help`` order,
so adding a group of commands is one line there. This module keeps what they
share: the error type, the help layout, reading tasks, and checking output paths.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from toolmaze_gym.optional import MissingDependency

# Sub-command modules, in the order ``--help`` lists them.
COMMAND_MODULES = (
    "toolmaze_gym.cli_corpus",
    "toolmaze_gym.cli_tasks",
    "toolmaze_gym.cli_baselines",
    "toolmaze_gym.cli_grade",
    "toolmaze_gym.cli_eval",
    "toolmaze_gym.cli_play",
    "toolmaze_gym.cli_train",
    "toolmaze_gym.cli_scenarios",
)


class UsageError(Exception):
    """A mistake in the command line or its inputs; printed as one line."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that states each flag's default (where it has a meaningful one)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if "%(default)" in text or default is None or default is False \
                or default is argparse.SUPPRESS or default == []:
            return text
        return f"{text} (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line: ``toolmaze CMD: error: ...``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


# ---------------------------------------------------------------- shared helpers


def output_file(value: str | None, flag: str = "--out") -> Path | None:
    """The path of a file to write, checked before any work is done."""
    if value is None:
        return None
    path = Path(value)
    if path.is_dir():
        raise UsageError(f"{flag} {value} is a directory; give a file name")
    if not path.parent.is_dir():
        raise UsageError(f"{flag} {value}: directory {path.parent} does not exist")
    return path


def output_dir(value: str, flag: str = "--out") -> Path:
    """The path of a directory to write into (created if its parent exists)."""
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise UsageError(f"{flag} {value} exists and is not a directory")
    if not path.parent.is_dir():
        raise UsageError(f"{flag} {value}: directory {path.parent} does not exist")
    return path


def positive(value: int, flag: str) -> int:
    if value <= 0:
        raise UsageError(f"{flag} must be a positive number (got {value})")
    return value


def _task_lines(path: Path) -> list:
    """Tasks from a JSONL file; a broken line is reported with its line and column."""
    from toolmaze_gym.tasks.model import Task

    tasks = []
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UsageError(f"{path}:{lineno}: not UTF-8 text (byte "
                                 f"0x{raw[exc.start]:02x} at column {exc.start + 1})") from None
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{path}:{lineno}:{exc.colno}: not valid JSON ({exc.msg})") \
                    from None
            if not isinstance(data, dict):
                raise UsageError(f"{path}:{lineno}: a task must be a JSON object")
            try:
                tasks.append(Task.from_dict(data))
            except KeyError as exc:
                raise UsageError(f"{path}:{lineno}: not a task (the field {exc.args[0]} "
                                 "is missing)") from None
            except (ValueError, TypeError, AttributeError):
                raise UsageError(f"{path}:{lineno}: not a task (a field has the wrong "
                                 "shape)") from None
    if not tasks:
        raise UsageError(f"{path} holds no tasks")
    return tasks


def _suite_dir(path: Path) -> list:
    """Tasks of a suite directory (``build-suite --out``), checked against its manifest."""
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import sha256

    try:
        files = json.loads((path / "manifest.json").read_text(encoding="utf-8"))["files"]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise UsageError(f"{path}/manifest.json is not a suite manifest") from None
    tasks = []
    for level in LEVELS:
        name = f"{level}.jsonl"
        if name not in files:
            continue
        data = (path / name).read_bytes() if (path / name).is_file() else None
        if data is None:
            raise UsageError(f"{path}/{name} is listed in the manifest but missing")
        if sha256(data) != files[name]:
            raise UsageError(f"{path}/{name} does not match its manifest checksum")
        tasks += _task_lines(path / name)
    if not tasks:
        raise UsageError(f"{path} holds no tasks")
    return tasks


def load_tasks(source: str) -> list:
    """A shipped suite by name, a suite directory, or a JSONL file of tasks."""
    from toolmaze_gym.tasks.suite import SuiteError, load_suite

    path = Path(source)
    if path.is_dir():
        if not (path / "manifest.json").is_file():
            raise UsageError(f"{source} is a directory without a manifest.json (not a suite)")
        return _suite_dir(path)
    if path.suffix == ".jsonl" or path.exists():
        if not path.is_file():
            raise UsageError(f"no such file: {source}")
        return _task_lines(path)
    try:
        return load_suite(source)
    except SuiteError as exc:
        raise UsageError(str(exc)) from None


# ---------------------------------------------------------------- entry point


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="toolmaze", description="ToolMaze-Gym: a benchmark and Gymnasium "
                    "environment for how LLM agents recover when tools fail. Run "
                    "`toolmaze COMMAND --help` for a command's flags and defaults.")
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


def main(argv: Sequence[str] | None = None) -> int:
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
        where = f" {exc.filename}" if exc.filename else ""
        _error(ns.command, f"error:{where}: {exc.strerror or exc}")
        return 1


def _error(command: str, message: str) -> None:
    """Print one error line, without secrets (an endpoint's message may echo a key)."""
    from toolmaze_gym.redact import redact

    print(f"toolmaze {command}: {redact(message)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
