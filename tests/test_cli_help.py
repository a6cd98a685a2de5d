"""``toolmaze COMMAND --help`` describes every flag, with its default, and names the agents."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolmaze_gym.cli import build_parser

TOOLMAZE = Path(sys.executable).with_name("toolmaze")
# The commands this module's owners keep; other groups test their own help.
COMMANDS = ["corpus", "generate", "build-suite", "stats", "show", "baselines", "grade"]
EVAL_COMMANDS = ["eval", "report"]


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command", COMMANDS + EVAL_COMMANDS)
def test_every_flag_is_described_with_its_default(command):
    p = _subparsers()[command]
    text = p.format_help()
    for action in p._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, f"{command} {action.option_strings or action.dest} has no help"
        d = action.default
        if d not in (None, False, [], argparse.SUPPRESS):
            assert f"(default: {d})" in " ".join(text.split()), (command, action.dest)


@pytest.mark.parametrize("command", EVAL_COMMANDS)
def test_flags_without_a_fixed_default_say_what_happens_without_them(command):
    """``--model`` has no one default value, so its help must say what applies instead."""
    p = _subparsers()[command]
    for action in p._actions:
        takes_value = action.nargs != 0 and action.option_strings
        if takes_value and not action.required and action.default in (None, []):
            assert "default" in (action.help or "").lower(), (command, action.dest)


def test_eval_help_names_and_describes_every_agent():
    from toolmaze_gym.agents.policy import POLICY_NAMES
    from toolmaze_gym.cli.eval import AGENT_HELP

    wide = {**os.environ, "COLUMNS": "10000"}  # no line breaks inside hyphenated words
    out = subprocess.run([str(TOOLMAZE), "eval", "--help"], capture_output=True,
                         text=True, check=True, env=wide).stdout
    flat = " ".join(out.split())
    for name in POLICY_NAMES:
        assert f"{name}: {' '.join(AGENT_HELP[name].split())}" in flat
    from toolmaze_gym.tasks.suite import SUITE_NAME

    assert "(default: 25)" in flat and f"default: {SUITE_NAME})" in flat


def test_baselines_help_names_the_agents():
    from toolmaze_gym.agents import BASELINES

    out = subprocess.run([str(TOOLMAZE), "baselines", "--help"], capture_output=True,
                         text=True, check=True).stdout
    flat = " ".join(out.split())
    assert all(name in flat for name in BASELINES)
    assert "(default: oracle,validator,retry,naive,random)" in flat


def test_top_level_help_lists_every_command():
    out = subprocess.run([str(TOOLMAZE), "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert all(c in out for c in COMMANDS)


def test_the_command_tunes_its_own_process_collector_only(monkeypatch, capsys):
    """``toolmaze`` as a process's command raises the collector's threshold (its
    grading allocates many short-lived containers: issue 32); a program calling
    ``main`` with its own argv keeps the collector as it set it."""
    import gc

    from toolmaze_gym.cli.app import GC_THRESHOLD, main

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        assert main(["corpus", "--list"]) == 0
        assert gc.get_threshold() == (700, 10, 10)
        monkeypatch.setattr(sys, "argv", ["toolmaze", "corpus", "--list"])
        assert main() == 0
        assert gc.get_threshold() == GC_THRESHOLD
    finally:
        gc.set_threshold(*before)
