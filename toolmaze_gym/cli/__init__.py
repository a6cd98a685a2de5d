"""The ``toolmaze`` command line: ``app`` parses and dispatches, ``common`` holds what
the commands share, and each other module adds one group of sub-commands."""

from toolmaze_gym.cli.app import build_parser, main
from toolmaze_gym.cli.common import (
    HelpFormatter,
    Parser,
    UsageError,
    load_tasks,
    output_dir,
    output_file,
    positive,
)

__all__ = ["HelpFormatter", "Parser", "UsageError", "build_parser", "load_tasks", "main",
           "output_dir", "output_file", "positive"]
