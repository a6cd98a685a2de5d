"""What the ``toolmaze`` commands share: the error type, the help layout, checked
output paths and reading tasks. A mistake a user can make is a ``UsageError``,
printed by ``cli.app.main`` as one line with a non-zero exit.
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any


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


def exit_statuses(done: str, failed: str = "") -> str:
    """The ``exit status:`` paragraph of a command's ``--help``.

    ``cli.app.main`` maps every mistake a user can make to one line and a status (1 for
    a file the OS refused, 2 for bad input, 130 for Ctrl-C); listing them in each
    command's help lets a script tell a failure from a finding without reading the
    text. ``failed`` is what else a status 1 means for the command (a finding)."""
    one = f"{failed}, or a file" if failed else "a file"
    return textwrap.fill(f"exit status: 0 {done}; 1 {one} could not be written or read "
                         "(the error line names the path); 2 bad input (one line naming "
                         "it); 130 interrupted.", 88)


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line: ``toolmaze CMD: error: ...``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


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


def appendable_file(value: str | None, flag: str) -> Path | None:
    """A file that records are appended to: its end is read first (to repair a cut
    line), so a device (``/dev/full``, ``/dev/zero``) or a FIFO is refused before any
    work is done rather than read into memory without end."""
    path = output_file(value, flag)
    if path is not None and path.exists() and not path.is_file():
        raise UsageError(f"{flag} {value} is not a regular file; give a file name")
    return path


def label_name(value: str, flag: str = "--label") -> str:
    """A label names a run folder (``runs/LABEL``) and files of reports, so it must be
    one plain name: a separator or a dot name would write outside the run folder."""
    if not value.strip() or value in (".", "..") or "/" in value or "\\" in value \
            or not value.isprintable():
        raise UsageError(f"{flag} {value!r} must be a plain name, without / or \\ "
                         "(it names the run folder)")
    return value


def output_dir(value: str, flag: str = "--out") -> Path:
    """The path of a directory to write into (created if its parent exists)."""
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise UsageError(f"{flag} {value} exists and is not a directory")
    if not path.parent.is_dir():
        raise UsageError(f"{flag} {value}: directory {path.parent} does not exist")
    return path


def positive(value: int, flag: str) -> int:
    """``value`` itself, or a one-line error: a count (steps, tries) of 0 or less would
    not be an answer but a silent misreport (every trial "fails")."""
    if value <= 0:
        raise UsageError(f"{flag} must be a positive number (got {value})")
    return value


def port_number(text: str) -> int:
    """An argparse ``type`` for a TCP port, 0..65535 (0: any free port): a port out of
    range is a usage error at parse time, not an OverflowError once the server starts."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range 0..65535")
    return port


def load_tasks(source: str) -> list:
    """A shipped suite by name, a suite directory, or a JSONL file of tasks."""
    from toolmaze_gym.tasks.files import TaskFileError
    from toolmaze_gym.tasks.files import load_tasks as load

    try:
        return load(source)
    except TaskFileError as exc:
        raise UsageError(str(exc)) from None
